// What every text trace reader shares: reading a file lazily line by line (a multi-gigabyte
// trace costs no memory), skipping blank lines and CRs, strict field parsing, errors that name
// "<path>:<line>", and arrival times made relative to the first request and non-decreasing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

class TraceLines {
 public:
  // Throws WorkloadError("cannot open trace file '<path>'") if it cannot be opened.
  explicit TraceLines(const std::string& path);

  // The next non-blank line (trailing '\r' removed); false at the end of the file.
  bool next(std::string_view& line);
  // Throws WorkloadError "<path>:<line>: <expected>, got '<line, cut after 200 characters>'".
  [[noreturn]] void fail(const std::string& expected) const;

  const std::string& path() const { return path_; }
  std::uint64_t line_number() const { return line_no_; }  // 1-based, blank lines count
  std::string position() const { return path_ + ":" + std::to_string(line_no_); }
  // Share of the file's bytes read so far (negative when its size is unknown).
  double fraction_read() const { return size_ > 0 ? std::min(1.0, double(bytes_read_) / double(size_)) : -1.0; }

  // Splits the current line at `delimiter` (or at runs of blanks when it is ' '), trimming
  // blanks around fields; returns the number of fields found (only the first out.size() are kept).
  static std::size_t split(std::string_view line, char delimiter, std::vector<std::string_view>& out);

 private:
  std::string path_;
  std::ifstream in_;
  std::string line_;
  std::uint64_t line_no_ = 0, bytes_read_ = 0, size_ = 0;
};

// Strict unsigned decimal: digits only, no sign, no trailing junk, no overflow.
bool parse_u64(std::string_view s, std::uint64_t& out);
// Strict non-negative decimal number (digits, optional fraction; no sign, exponent or junk).
bool parse_seconds_like(std::string_view s, double& out);
bool iequals(std::string_view a, std::string_view b);

// Arrival times relative to the first request. A time that goes backwards (merged or re-sorted
// traces) is clamped to the previous arrival, so the stream stays non-decreasing; clamps are counted.
class ArrivalClock {
 public:
  std::uint64_t arrival(std::uint64_t time_ns);
  // Whether time_ns lies beyond `span` after the first arrival (a clock glitch in the trace).
  bool beyond(std::uint64_t time_ns, std::uint64_t span) const { return started_ && time_ns > first_ && time_ns - first_ > span; }
  std::uint64_t clamped() const { return clamped_; }

 private:
  bool started_ = false;
  std::uint64_t first_ = 0, previous_ = 0, clamped_ = 0;
};

}  // namespace ssd::stimuli
