#include "stimuli/text_trace.h"

namespace ssd::stimuli {

bool TextTrace::next(HostRequest& r) {
  // A year of trace time: beyond it a timestamp is a glitch (and would overflow simulated time).
  constexpr std::uint64_t kMaxSpanNs = 365ull * 24 * 3600 * 1000000000ull;
  std::string_view line;
  while (!ended_ && lines_.next(line)) {
    Line kind;
    try {
      kind = parse(line, r);
      if (kind == Line::Request && clock_.beyond(r.arrival_ns, kMaxSpanNs))
        fail("expected a time within a year of the first request's (a clock glitch? --skip-bad-lines skips it)");
    } catch (const WorkloadError& e) {
      if (policy_ == MalformedLines::Stop) throw;
      if (skipped_++ == 0) first_skipped_ = e.what();
      continue;
    }
    if (kind == Line::End) break;
    if (kind == Line::Ignore) {
      ++ignored_;
      continue;
    }
    r.arrival_ns = clock_.arrival(r.arrival_ns);
    ++requests_;
    return true;
  }
  ended_ = true;
  return false;
}

}  // namespace ssd::stimuli
