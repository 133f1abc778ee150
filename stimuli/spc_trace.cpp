#include "stimuli/spc_trace.h"

#include <cmath>
#include <limits>

namespace ssd::stimuli {

TextTrace::Line SpcTrace::parse(std::string_view line, HostRequest& r) {
  const std::size_t n = TraceLines::split(line, ',', fields_);
  if (n < fields_.size())
    fail("expected at least 5 comma-separated fields ASU,LBA,Size,Opcode,Timestamp (found " + std::to_string(n) + ")");
  std::uint64_t asu = 0, lba = 0, size = 0;
  double seconds = 0;
  if (!parse_u64(fields_[0], asu) || asu > std::numeric_limits<std::uint32_t>::max())
    fail("expected ASU (field 1) as an unsigned 32-bit integer");
  if (!parse_u64(fields_[1], lba)) fail("expected LBA (field 2) as an unsigned integer of sectors");
  if (!parse_u64(fields_[2], size) || size == 0 || size > (std::uint64_t(1) << 40))
    fail("expected Size (field 3) as a positive integer of bytes");
  bool write = false;
  if (iequals(fields_[3], "w"))
    write = true;
  else if (!iequals(fields_[3], "r"))
    fail("expected Opcode (field 4) r or w");
  if (!parse_seconds_like(fields_[4], seconds) || seconds > 1e9)
    fail("expected Timestamp (field 5) as a decimal number of seconds");
  r.arrival_ns = static_cast<std::uint64_t>(std::llround(seconds * 1e9));
  r.op = HostRequest::read_or_write(write);
  r.lba = lba;
  r.sectors = static_cast<std::uint32_t>((size + 511) / 512);
  r.issuer = static_cast<std::uint32_t>(asu);
  return Line::Request;
}

}  // namespace ssd::stimuli
