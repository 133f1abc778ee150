#include "stimuli/trace_lines.h"

#include <charconv>

namespace ssd::stimuli {

namespace {
// A binary file read by mistake can make one "line" megabytes long: quotes are cut.
constexpr std::size_t kMaxQuotedChars = 200;
constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::size_t kMaxLineBytes = 1024 * 1024;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}
}  // namespace

TraceLines::TraceLines(const std::string& path) : path_(path), file_(path) { skip_byte_order_mark(); }

bool TraceLines::fill() {
  if (content_ended_) return false;
  buffer_.erase(0, begin_);
  begin_ = 0;
  const std::size_t old = buffer_.size();
  buffer_.resize(old + kReadChunk);
  const std::size_t n = file_.read(buffer_.data() + old, kReadChunk);
  buffer_.resize(old + n);
  content_ended_ = n == 0;
  return n > 0;
}

void TraceLines::skip_byte_order_mark() {
  while (buffer_.size() < 4 && fill()) {
  }
  const std::string_view head(buffer_);
  auto starts = [&head](std::string_view bom) { return head.substr(0, bom.size()) == bom; };
  using namespace std::string_view_literals;
  const char* other = starts("\xff\xfe\x00\x00"sv)   ? "UTF-32 (little-endian)"
                      : starts("\x00\x00\xfe\xff"sv) ? "UTF-32 (big-endian)"
                      : starts("\xff\xfe"sv)           ? "UTF-16 (little-endian)"
                      : starts("\xfe\xff"sv)           ? "UTF-16 (big-endian)"
                                                       : nullptr;
  if (other)
    throw WorkloadError("trace file '" + path_ + "' is " + other +
                        " text (it starts with that byte-order mark); traces are read as UTF-8 or ASCII: "
                        "convert it, e.g. iconv -f UTF-16 -t UTF-8");
  if (starts("\xef\xbb\xbf"sv)) {  // UTF-8's mark (Windows tools write one): not part of line 1
    begin_ = 3;
    bytes_read_ = 3;
  }
}

bool TraceLines::read_line() {
  std::size_t searched = begin_;
  for (;;) {
    const std::size_t nl = buffer_.find('\n', searched);
    if (nl != std::string::npos) {
      line_ = std::string_view(buffer_).substr(begin_, nl - begin_);
      bytes_read_ += nl + 1 - begin_;
      begin_ = nl + 1;
      return true;
    }
    if (buffer_.size() - begin_ > kMaxLineBytes)
      throw WorkloadError(path_ + ":" + std::to_string(line_no_ + 1) +
                          ": a line longer than 1 MiB (is this a text trace?)");
    searched = buffer_.size() - begin_;
    if (!fill()) break;
  }
  if (begin_ == buffer_.size()) return false;
  line_ = std::string_view(buffer_).substr(begin_);  // the last line has no newline
  bytes_read_ += line_.size();
  begin_ = buffer_.size();
  return true;
}

bool TraceLines::next(std::string_view& line) {
  while (read_line()) {
    ++line_no_;
    if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
    if (trim(line_).empty()) continue;
    line = line_;
    return true;
  }
  return false;
}

double TraceLines::fraction_read() const {
  if (file_.size() == 0) return -1.0;
  const std::uint64_t done = file_.compression() == Compression::None ? bytes_read_ : file_.consumed();
  return std::min(1.0, double(done) / double(file_.size()));
}

void TraceLines::fail(const std::string& expected) const {
  const std::string quoted =
      line_.size() > kMaxQuotedChars ? std::string(line_.substr(0, kMaxQuotedChars)) + "..." : std::string(line_);
  throw WorkloadError(path_ + ":" + std::to_string(line_no_) + ": " + expected + ", got '" + quoted + "'");
}

std::size_t TraceLines::split(std::string_view rest, char delimiter, std::vector<std::string_view>& out) {
  std::size_t n = 0;
  if (delimiter == ' ') {
    rest = trim(rest);
    while (!rest.empty()) {
      const std::size_t end = rest.find_first_of(" \t");
      if (n < out.size()) out[n] = rest.substr(0, end);
      ++n;
      if (end == std::string_view::npos) break;
      rest = trim(rest.substr(end));
    }
    return n;
  }
  for (;;) {
    const std::size_t cut = rest.find(delimiter);
    if (n < out.size()) out[n] = trim(rest.substr(0, cut));
    ++n;
    if (cut == std::string_view::npos) return n;
    rest.remove_prefix(cut + 1);
  }
}

bool parse_u64(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out, 10);
  return ec == std::errc() && ptr == end;
}

bool parse_seconds_like(std::string_view s, double& out) {
  if (s.empty() || !(s.front() >= '0' && s.front() <= '9')) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || c == '.')) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out, std::chars_format::fixed);
  return ec == std::errc() && ptr == end;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

void ArrivalClock::record(std::uint64_t t) {
  if (!started_) {
    started_ = true;
    first_ = earliest_ = latest_ = t;
    return;
  }
  if (t < latest_) {
    ++backward_steps_;
    largest_step_ = std::max(largest_step_, latest_ - t);
  }
  earliest_ = std::min(earliest_, t);
  latest_ = std::max(latest_, t);
}

std::uint64_t ArrivalClock::arrival(std::uint64_t t) {
  record(t);
  // Relative to the first request; a time before the first one is a backward step like any other.
  std::uint64_t a = t >= first_ ? t - first_ : 0;
  if (a < previous_ || t < first_) {
    a = previous_;
    ++clamped_;
  }
  previous_ = a;
  return a;
}

}  // namespace ssd::stimuli
