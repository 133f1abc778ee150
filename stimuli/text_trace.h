// The base of every text trace reader: reads the file lazily line by line (stimuli/trace_lines.h;
// compressed files and a UTF-8 byte-order mark included), hands each non-blank line to the
// format's parse(), and applies two policies.
//
// Malformed lines: stop at the first bad line (the default: an error naming the file, the line
// and what was expected) or skip bad lines, counting them and keeping the first message. A
// timestamp that would stretch the trace over more than a year counts as malformed (clock
// glitches happen in real traces, e.g. the last event of the shared blkparse trace).
//
// Time going backwards (a request before the latest earlier one: merged per-disk logs,
// multi-volume captures), counted in every case with the largest step:
// - Clamp (the default): the request arrives at the previous arrival, so the stream stays
//   non-decreasing; arrivals are relative to the first request. A trace sorted the wrong way
//   round is squeezed into almost no time: the run's summary warns when anything was clamped.
// - Refuse: the first backward step stops the read with an error naming file:line and both times.
// - Sort: arrivals are handed on unchanged, in absolute trace time and file order, for
//   SortedTrace (stimuli/sorted_trace.h) to replay in time order; open_trace() sets that up.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "stimuli/host_request.h"
#include "stimuli/trace_lines.h"

namespace ssd::stimuli {

enum class MalformedLines : std::uint8_t { Stop, Skip };
enum class TimeOrder : std::uint8_t { Clamp, Sort, Refuse };
const char* time_order_name(TimeOrder order);  // "clamp", "sort", "refuse"

class TextTrace : public Workload {
 public:
  // A year of trace time: beyond it a timestamp is a glitch (and would overflow simulated time).
  static constexpr std::uint64_t kMaxSpanNs = 365ull * 24 * 3600 * 1000000000ull;
  TextTrace(const std::string& path, std::string format, MalformedLines policy, TimeOrder order = TimeOrder::Clamp)
      : lines_(path), format_(std::move(format)), policy_(policy), order_(order) {}

  bool next(HostRequest& r) final;
  std::string describe() const override { return format_ + ":" + lines_.path(); }
  std::string position() const override { return lines_.position(); }
  double fraction_done() const override { return lines_.fraction_read(); }

  const std::string& path() const { return lines_.path(); }
  std::uint64_t lines_read() const { return lines_.line_number(); }  // physical lines, blank ones included
  std::uint64_t requests_read() const { return requests_; }
  std::uint64_t clamped_arrivals() const { return clock_.clamped(); }
  std::uint64_t backward_steps() const override { return clock_.backward_steps(); }
  std::uint64_t largest_backward_step_ns() const override { return clock_.largest_backward_step_ns(); }
  std::uint64_t skipped_lines() const override { return skipped_; }        // malformed, under Skip
  std::string first_skipped() const override { return first_skipped_; }    // its message
  std::uint64_t ignored_lines() const { return ignored_; }                 // well-formed but not requests

 protected:
  enum class Line : std::uint8_t { Request, Ignore, End, FlushThenRequest };
  // Parses one line into r (arrival_ns in absolute nanoseconds of the trace's clock). Returns
  // Ignore for well-formed lines that are not requests (e.g. blkparse events other than D), End
  // when the rest of the file holds no more requests, FlushThenRequest for a request that a
  // flush of the same issuer and time goes before (a preflush); calls fail() for malformed lines.
  virtual Line parse(std::string_view line, HostRequest& r) = 0;
  [[noreturn]] void fail(const std::string& expected) const { lines_.fail(expected); }

 private:
  void refuse_backward_step(std::uint64_t time_ns) const;

  TraceLines lines_;
  std::string format_;
  MalformedLines policy_;
  TimeOrder order_;
  ArrivalClock clock_;
  std::uint64_t requests_ = 0, skipped_ = 0, ignored_ = 0;
  std::uint64_t latest_line_ = 0;  // the line of the latest time so far (for Refuse's message)
  std::string first_skipped_;
  bool ended_ = false;
  bool held_ = false;  // FlushThenRequest: the request, to go after its flush
  HostRequest held_request_;
};

}  // namespace ssd::stimuli
