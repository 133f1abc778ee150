#include "stimuli/disksim_trace.h"

#include <cmath>
#include <limits>

namespace ssd::stimuli {

TextTrace::Line DisksimTrace::parse(std::string_view line, HostRequest& r) {
  const std::size_t n = TraceLines::split(line, ' ', fields_);
  if (n != fields_.size())
    fail("expected 5 blank-separated fields time_ms devno blkno bcount flags (found " + std::to_string(n) + ")");
  double ms = 0;
  std::uint64_t dev = 0, blkno = 0, bcount = 0, flags = 0;
  if (!parse_seconds_like(fields_[0], ms) || ms > 1e12) fail("expected time_ms (field 1) as a decimal number of ms");
  if (!parse_u64(fields_[1], dev) || dev > std::numeric_limits<std::uint32_t>::max())
    fail("expected devno (field 2) as an unsigned 32-bit integer");
  if (!parse_u64(fields_[2], blkno)) fail("expected blkno (field 3) as an unsigned integer of sectors");
  if (!parse_u64(fields_[3], bcount) || bcount == 0 || bcount > std::numeric_limits<std::uint32_t>::max())
    fail("expected bcount (field 4) as an integer of sectors in [1, 2^32)");
  if (!parse_u64(fields_[4], flags)) fail("expected flags (field 5) as an unsigned integer");
  r.arrival_ns = static_cast<std::uint64_t>(std::llround(ms * 1e6));
  r.op = HostRequest::read_or_write((flags & 1) == 0);
  r.lba = blkno;
  r.sectors = static_cast<std::uint32_t>(bcount);
  r.issuer = static_cast<std::uint32_t>(dev);
  return Line::Request;
}

}  // namespace ssd::stimuli
