// What every text trace reader shares: reading a file lazily line by line (a multi-gigabyte
// trace costs no memory; gzip, bzip2, xz and zstd files are decompressed on the fly, see
// stimuli/trace_file.h), skipping a UTF-8 byte-order mark, blank lines and CRs, strict field
// parsing, errors that name "<path>:<line>", and arrival times made relative to the first request
// with their backward steps counted.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stimuli/host_request.h"
#include "stimuli/trace_file.h"

namespace ssd::stimuli {

class TraceLines {
 public:
  // Throws WorkloadError("cannot open trace file '<path>'") if it cannot be opened, and naming the
  // cause for text that is not UTF-8 or ASCII (a UTF-16 or UTF-32 byte-order mark) and for
  // archive or compression formats that are not read.
  explicit TraceLines(const std::string& path);

  // The next non-blank line (trailing '\r' removed), valid until the next call; false at the end
  // of the file. Throws WorkloadError for corrupt compressed data and for a line longer than
  // 1 MiB (a binary file read by mistake would otherwise be held whole in memory).
  bool next(std::string_view& line);
  // Throws WorkloadError "<path>:<line>: <expected>, got '<line, cut after 200 characters>'".
  [[noreturn]] void fail(const std::string& expected) const;

  const std::string& path() const { return path_; }
  std::uint64_t line_number() const { return line_no_; }  // 1-based, blank lines count
  std::string position() const { return path_ + ":" + std::to_string(line_no_); }
  // Share of the file's bytes read so far (negative when its size is unknown): the bytes of the
  // lines handed out, or for a compressed file the compressed bytes its decoder has consumed.
  double fraction_read() const;
  Compression compression() const { return file_.compression(); }

  // Splits the current line at `delimiter` (or at runs of blanks when it is ' '), trimming
  // blanks around fields; returns the number of fields found (only the first out.size() are kept).
  static std::size_t split(std::string_view line, char delimiter, std::vector<std::string_view>& out);

 private:
  bool read_line();   // the next physical line into line_; false at the end
  bool fill();        // appends more content to buffer_; false at its end
  void skip_byte_order_mark();

  std::string path_;
  TraceFile file_;
  std::string buffer_;        // content read but not yet handed out, from begin_
  std::size_t begin_ = 0;
  bool content_ended_ = false;
  std::string_view line_;     // the current line, within buffer_
  std::uint64_t line_no_ = 0, bytes_read_ = 0;
};

// Strict unsigned decimal: digits only, no sign, no trailing junk, no overflow.
bool parse_u64(std::string_view s, std::uint64_t& out);
// Strict non-negative decimal number (digits, optional fraction; no sign, exponent or junk).
bool parse_seconds_like(std::string_view s, double& out);
bool iequals(std::string_view a, std::string_view b);

// The trace's clock. A backward step is a request whose time lies before the latest time of the
// requests before it (merged per-disk logs, multi-volume captures); they are counted, with the
// largest. arrival() makes times relative to the first request and clamps each backward step to
// the previous arrival, so the stream stays non-decreasing; record() only counts.
class ArrivalClock {
 public:
  std::uint64_t arrival(std::uint64_t time_ns);
  void record(std::uint64_t time_ns);
  // How far time_ns lies before the latest time recorded (0: it does not go backwards).
  std::uint64_t behind(std::uint64_t time_ns) const { return started_ && time_ns < latest_ ? latest_ - time_ns : 0; }
  // Whether time_ns would stretch the trace's span (earliest to latest time) beyond `span`
  // (a clock glitch in the trace).
  bool beyond(std::uint64_t time_ns, std::uint64_t span) const {
    return started_ && std::max(time_ns, latest_) - std::min(time_ns, earliest_) > span;
  }
  std::uint64_t latest() const { return latest_; }      // absolute trace time
  std::uint64_t backward_steps() const { return backward_steps_; }
  std::uint64_t largest_backward_step_ns() const { return largest_step_; }
  std::uint64_t clamped() const { return clamped_; }   // arrivals that arrival() clamped

 private:
  bool started_ = false;
  std::uint64_t first_ = 0, earliest_ = 0, latest_ = 0, previous_ = 0;
  std::uint64_t backward_steps_ = 0, largest_step_ = 0, clamped_ = 0;
};

}  // namespace ssd::stimuli
