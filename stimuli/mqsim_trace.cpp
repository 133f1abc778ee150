#include "stimuli/mqsim_trace.h"

#include <limits>

namespace ssd::stimuli {

TextTrace::Line MqsimTrace::parse(std::string_view line, HostRequest& r) {
  const std::size_t n = TraceLines::split(line, ' ', fields_);
  if (n != fields_.size())
    fail("expected 5 blank-separated fields ArrivalTime_ns DeviceNumber StartLBA SizeInSectors Type (found " +
                std::to_string(n) + ")");
  std::uint64_t time = 0, device = 0, lba = 0, sectors = 0, type = 0;
  if (!parse_u64(fields_[0], time)) fail("expected ArrivalTime (field 1) as an unsigned integer of ns");
  if (!parse_u64(fields_[1], device) || device > std::numeric_limits<std::uint32_t>::max())
    fail("expected DeviceNumber (field 2) as an unsigned 32-bit integer");
  if (!parse_u64(fields_[2], lba)) fail("expected StartLBA (field 3) as an unsigned integer of sectors");
  if (!parse_u64(fields_[3], sectors) || sectors == 0 || sectors > std::numeric_limits<std::uint32_t>::max())
    fail("expected SizeInSectors (field 4) as an integer in [1, 2^32)");
  if (!parse_u64(fields_[4], type) || type > 1) fail("expected Type (field 5) 0 (write) or 1 (read)");
  r.arrival_ns = time;
  r.op = HostRequest::read_or_write(type == 0);
  r.lba = lba;
  r.sectors = static_cast<std::uint32_t>(sectors);
  r.issuer = static_cast<std::uint32_t>(device);
  return Line::Request;
}

}  // namespace ssd::stimuli
