#include "stimuli/msr_trace.h"

#include <limits>

#include "common/host_addressing.h"

namespace ssd::stimuli {

namespace {
constexpr std::uint64_t kNsPerTick = 100;  // FILETIME ticks are 100 ns
}  // namespace

TextTrace::Line MsrTrace::parse(std::string_view line, HostRequest& r) {
  const std::size_t n = TraceLines::split(line, ',', fields_);
  if (n != fields_.size())
    fail("expected 7 comma-separated fields Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
                "ResponseTime (found " + std::to_string(n) + ")");

  std::uint64_t timestamp = 0, disk = 0, offset = 0, size = 0, response = 0;
  if (!parse_u64(fields_[0], timestamp)) {
    fail("expected Timestamp (field 1) as an unsigned integer of 100 ns ticks");
  }
  if (!parse_u64(fields_[2], disk) || disk > std::numeric_limits<std::uint32_t>::max()) {
    fail("expected DiskNumber (field 3) as an unsigned 32-bit integer");
  }
  bool write = false;
  if (iequals(fields_[3], "write")) {
    write = true;
  } else if (!iequals(fields_[3], "read")) {
    fail("expected Type (field 4) 'Read' or 'Write'");
  }
  if (!parse_u64(fields_[4], offset)) {
    fail("expected Offset (field 5) as an unsigned integer of bytes");
  }
  if (!parse_u64(fields_[5], size)) {
    fail("expected Size (field 6) as an unsigned integer of bytes");
  }
  if (size == 0) fail("expected Size (field 6) > 0 bytes");
  // ResponseTime is not used, but a non-numeric one means the line is not what we think it is.
  if (!parse_u64(fields_[6], response)) {
    fail("expected ResponseTime (field 7) as an unsigned integer of 100 ns ticks");
  }

  // Sectors touched by [offset, offset + size), i.e. ceil((offset % 512 + size) / 512),
  // split so that it cannot overflow for any 64-bit size.
  const std::uint64_t head = offset % kSectorBytes;
  const std::uint64_t sectors =
      size / kSectorBytes + (head + size % kSectorBytes + kSectorBytes - 1) / kSectorBytes;
  if (sectors > std::numeric_limits<std::uint32_t>::max()) {
    fail("expected Size (field 6) below 2 TiB");
  }

  if (timestamp > std::numeric_limits<std::uint64_t>::max() / kNsPerTick)
    fail("expected Timestamp (field 1) below 2^64 ns");
  r.arrival_ns = timestamp * kNsPerTick;
  r.op = HostRequest::read_or_write(write);
  r.lba = offset / kSectorBytes;
  r.sectors = static_cast<std::uint32_t>(sectors);
  r.issuer = static_cast<std::uint32_t>(disk);
  return Line::Request;
}

}  // namespace ssd::stimuli
