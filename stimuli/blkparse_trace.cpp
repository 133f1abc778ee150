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
  const Rwbs rwbs = parse_rwbs(fields_[6]);
  if (rwbs.op != 'R' && rwbs.op != 'W' && rwbs.op != 'D' && rwbs.op != 'F' && !(rwbs.op == 'N' && rwbs.preflush))
    return Line::Ignore;  // secure erase, an operation without data or flush
  double seconds = 0;
  std::uint64_t pid = 0, sector = 0, nsect = 0;
  // At most 9e9 s (285 years; Unix times are 1.3e9): seconds x 1e9 must fit the signed 64-bit
  // nanoseconds llround returns (9.2e18).
  if (!parse_seconds_like(fields_[3], seconds) || seconds > 9e9) fail("expected the time (field 4) in seconds");
  if (!parse_u64(fields_[4], pid) || pid > std::numeric_limits<std::uint32_t>::max())
    fail("expected the pid (field 5) as an unsigned 32-bit integer");
  r = HostRequest{};
  r.arrival_ns = static_cast<std::uint64_t>(std::llround(seconds * 1e9));
  r.issuer = static_cast<std::uint32_t>(pid);
  const bool data = rwbs.op == 'R' || rwbs.op == 'W', discard = rwbs.op == 'D';
  if (data || discard || (n >= 8 && !fields_[7].empty() && fields_[7].front() != '[')) {  // a flush may give "sector + 0" too
    if (n < 10 || fields_[8] != "+") fail("expected a D event with 'sector + nsect' after RWBS");
    if (!parse_u64(fields_[7], sector)) fail("expected the sector (field 8) as an unsigned integer");
    if (!parse_u64(fields_[9], nsect) || nsect > std::numeric_limits<std::uint32_t>::max())
      fail("expected nsect (field 10) as an unsigned integer");
  }
  if (discard && nsect > 0) {  // a discard: the range deallocated (common/host_op.h's Trim)
    r.op = HostOp::Trim;
    r.lba = sector;
    r.sectors = static_cast<std::uint32_t>(nsect);
    return rwbs.preflush ? Line::FlushThenRequest : Line::Request;
  }
  if (!data || nsect == 0) {
    if (!rwbs.preflush && rwbs.op != 'F') return Line::Ignore;  // no data and no flush
    r.op = HostOp::Flush;
    return Line::Request;
  }
  r.op = HostRequest::read_or_write(rwbs.op == 'W');
  r.fua = rwbs.fua && r.is_write();
  r.lba = sector;
  r.sectors = static_cast<std::uint32_t>(nsect);
  return rwbs.preflush ? Line::FlushThenRequest : Line::Request;
}

BlkparseTrace::Rwbs BlkparseTrace::parse_rwbs(std::string_view text) {
  Rwbs r;
  std::size_t at = 0;
  if (text.size() > 1 && text[0] == 'F' && std::string_view("RWDFN").find(text[1]) != std::string_view::npos) {
    r.preflush = true;
    at = 1;
  }
  r.op = at < text.size() ? text[at] : 'N';
  r.fua = text.substr(std::min(at + 1, text.size())).find('F') != std::string_view::npos;
  return r;
}

}  // namespace ssd::stimuli
