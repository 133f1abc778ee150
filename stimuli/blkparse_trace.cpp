#include "stimuli/blkparse_trace.h"

#include <cmath>
#include <limits>

namespace ssd::stimuli {

TextTrace::Line BlkparseTrace::parse(std::string_view line, HostRequest& r) {
  const std::size_t n = TraceLines::split(line, ' ', fields_);
  // Event lines start with "maj,min"; the summary section does not.
  if (fields_[0].find(',') == std::string_view::npos) {
    if (fields_[0].rfind("CPU", 0) == 0 || fields_[0] == "Total") return Line::End;
    fail("expected an event line starting with maj,min");
  }
  if (n < 7) fail("expected an event: maj,min cpu seq time pid action RWBS ... (found " + std::to_string(n) + " fields)");
  if (fields_[5] != "D") return Line::Ignore;
  const std::string_view rwbs = fields_[6];
  const bool read = rwbs.find('R') != std::string_view::npos, write = rwbs.find('W') != std::string_view::npos;
  if (rwbs.find('D') != std::string_view::npos || (!read && !write)) return Line::Ignore;  // discard, flush
  if (n < 10 || fields_[8] != "+")
    fail("expected a D event with 'sector + nsect' after RWBS");
  double seconds = 0;
  std::uint64_t pid = 0, sector = 0, nsect = 0;
  // At most 9e9 s (285 years; Unix times are 1.3e9): seconds x 1e9 must fit the signed 64-bit
  // nanoseconds llround returns (9.2e18).
  if (!parse_seconds_like(fields_[3], seconds) || seconds > 9e9) fail("expected the time (field 4) in seconds");
  if (!parse_u64(fields_[4], pid) || pid > std::numeric_limits<std::uint32_t>::max())
    fail("expected the pid (field 5) as an unsigned 32-bit integer");
  if (!parse_u64(fields_[7], sector)) fail("expected the sector (field 8) as an unsigned integer");
  if (!parse_u64(fields_[9], nsect) || nsect > std::numeric_limits<std::uint32_t>::max())
    fail("expected nsect (field 10) as an unsigned integer");
  if (nsect == 0) return Line::Ignore;
  r.arrival_ns = static_cast<std::uint64_t>(std::llround(seconds * 1e9));
  r.write = write;
  r.lba = sector;
  r.sectors = static_cast<std::uint32_t>(nsect);
  r.issuer = static_cast<std::uint32_t>(pid);
  return Line::Request;
}

}  // namespace ssd::stimuli
