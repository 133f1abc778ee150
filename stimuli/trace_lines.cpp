#include "stimuli/trace_lines.h"

#include <charconv>
#include <filesystem>
#include <system_error>

namespace ssd::stimuli {

namespace {
// A binary file read by mistake can make one "line" megabytes long: quotes are cut.
constexpr std::size_t kMaxQuotedChars = 200;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}
}  // namespace

TraceLines::TraceLines(const std::string& path) : path_(path) {
  // An ifstream "opens" a directory on Linux and then reads nothing, which would pass for an
  // empty trace; refuse it explicitly.
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) in_.open(path);
  if (!in_.is_open()) throw WorkloadError("cannot open trace file '" + path + "'");
  const auto size = std::filesystem::file_size(path, ec);
  size_ = ec ? 0 : static_cast<std::uint64_t>(size);
}

bool TraceLines::next(std::string_view& line) {
  for (;;) {
    if (!std::getline(in_, line_)) {
      if (in_.bad()) throw WorkloadError(path_ + ": read error after line " + std::to_string(line_no_));
      return false;
    }
    ++line_no_;
    bytes_read_ += line_.size() + 1;
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    if (trim(line_).empty()) continue;
    line = line_;
    return true;
  }
}

void TraceLines::fail(const std::string& expected) const {
  const std::string quoted = line_.size() > kMaxQuotedChars ? line_.substr(0, kMaxQuotedChars) + "..." : line_;
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

std::uint64_t ArrivalClock::arrival(std::uint64_t t) {
  if (!started_) {
    started_ = true;
    first_ = t;
  }
  // A time before the first one behaves like any other backwards step.
  std::uint64_t a = t >= first_ ? t - first_ : 0;
  if (a < previous_ || t < first_) {
    a = previous_;
    ++clamped_;
  }
  previous_ = a;
  return a;
}

}  // namespace ssd::stimuli
