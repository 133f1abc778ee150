#include "stimuli/text_trace.h"

#include <cstdio>
#include <limits>

namespace ssd::stimuli {

const char* time_order_name(TimeOrder order) {
  switch (order) {
    case TimeOrder::Sort: return "sort";
    case TimeOrder::Refuse: return "refuse";
    case TimeOrder::Clamp: break;
  }
  return "clamp";
}

namespace {
// Exact to the nanosecond (a double would round the 19 digits of a FILETIME-based time).
std::string seconds(std::uint64_t ns) {
  char text[48];
  std::snprintf(text, sizeof text, "%llu.%09llu s", static_cast<unsigned long long>(ns / 1000000000u),
                static_cast<unsigned long long>(ns % 1000000000u));
  return text;
}
}  // namespace

void TextTrace::refuse_backward_step(std::uint64_t t) const {
  // Both times in seconds of the trace's own clock, as a user would look them up in the file.
  throw WorkloadError(lines_.position() + ": time goes backwards (--time-order refuse): this request's time, " +
                      seconds(t) + ", is " + seconds(clock_.behind(t)) + " before that of line " +
                      std::to_string(latest_line_) + ", " + seconds(clock_.latest()) +
                      " (--time-order sort replays the trace in time order; clamp replays it in file order, "
                      "no request earlier than the one before)");
}

bool TextTrace::next(HostRequest& r) {
  if (held_) {
    held_ = false;
    r = held_request_;
    ++requests_;
    return true;
  }
  std::string_view line;
  while (!ended_ && lines_.next(line)) {
    Line kind;
    try {
      kind = parse(line, r);
      const bool request = kind == Line::Request || kind == Line::FlushThenRequest;
      if (request && clock_.beyond(r.arrival_ns, kMaxSpanNs))
        fail("expected a time within a year of the other requests' (a clock glitch? --skip-bad-lines skips it)");
      // Every reader's addresses: a request ending past 2^64 sectors would wrap round to sector 0.
      if (request && r.lba > std::numeric_limits<std::uint64_t>::max() - r.sectors)
        fail("expected a request that ends below sector 2^64");
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
    const bool flush_first = kind == Line::FlushThenRequest;
    // Not a malformed line: --skip-bad-lines does not skip a refused backward step.
    if (order_ == TimeOrder::Refuse && clock_.behind(r.arrival_ns) > 0) refuse_backward_step(r.arrival_ns);
    if (clock_.behind(r.arrival_ns) == 0) latest_line_ = lines_.line_number();
    if (order_ == TimeOrder::Sort)
      clock_.record(r.arrival_ns);
    else
      r.arrival_ns = clock_.arrival(r.arrival_ns);
    ++requests_;
    if (flush_first) {
      held_ = true;
      held_request_ = r;
      r = HostRequest{};
      r.op = HostOp::Flush;
      r.arrival_ns = held_request_.arrival_ns;
      r.issuer = held_request_.issuer;
    }
    return true;
  }
  ended_ = true;
  return false;
}

}  // namespace ssd::stimuli
