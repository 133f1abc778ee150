// The base of every text trace reader: reads the file lazily line by line (stimuli/trace_lines.h),
// hands each non-blank line to the format's parse(), keeps arrivals non-decreasing, and applies
// the malformed-line policy: stop at the first bad line (the default: an error naming the file,
// the line and what was expected) or skip bad lines, counting them and keeping the first message.
// A timestamp more than a year after the first request's counts as malformed (clock glitches
// happen in real traces, e.g. the last event of the shared blkparse trace).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "stimuli/host_request.h"
#include "stimuli/trace_lines.h"

namespace ssd::stimuli {

enum class MalformedLines : std::uint8_t { Stop, Skip };

class TextTrace : public Workload {
 public:
  TextTrace(const std::string& path, std::string format, MalformedLines policy)
      : lines_(path), format_(std::move(format)), policy_(policy) {}

  bool next(HostRequest& r) final;
  std::string describe() const override { return format_ + ":" + lines_.path(); }
  std::string position() const override { return lines_.position(); }
  double fraction_done() const override { return lines_.fraction_read(); }

  std::uint64_t lines_read() const { return lines_.line_number(); }  // physical lines, blank ones included
  std::uint64_t requests_read() const { return requests_; }
  std::uint64_t clamped_arrivals() const { return clock_.clamped(); }
  std::uint64_t skipped_lines() const override { return skipped_; }        // malformed, under Skip
  std::string first_skipped() const override { return first_skipped_; }    // its message
  std::uint64_t ignored_lines() const { return ignored_; }                 // well-formed but not requests

 protected:
  enum class Line : std::uint8_t { Request, Ignore, End };
  // Parses one line into r (arrival_ns in absolute nanoseconds of the trace's clock). Returns
  // Ignore for well-formed lines that are not requests (e.g. blkparse events other than D), End
  // when the rest of the file holds no more requests; calls fail() for malformed lines.
  virtual Line parse(std::string_view line, HostRequest& r) = 0;
  [[noreturn]] void fail(const std::string& expected) const { lines_.fail(expected); }

 private:
  TraceLines lines_;
  std::string format_;
  MalformedLines policy_;
  ArrivalClock clock_;
  std::uint64_t requests_ = 0, skipped_ = 0, ignored_ = 0;
  std::string first_skipped_;
  bool ended_ = false;
};

}  // namespace ssd::stimuli
