#include "stimuli/msr_trace.h"

#include <array>
#include <charconv>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <string_view>
#include <system_error>

namespace ssd::stimuli {

namespace {

constexpr std::size_t kFields = 7;
constexpr std::uint64_t kSectorBytes = 512;
constexpr std::uint64_t kNsPerTick = 100;  // FILETIME ticks are 100 ns
// Error messages quote the offending line; a binary file read by mistake can make one "line"
// megabytes long, so the quote is cut after this many characters.
constexpr std::size_t kMaxQuotedChars = 200;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Strict unsigned decimal: digits only, no sign, no trailing junk, no overflow.
bool parse_u64(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out, 10);
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

}  // namespace

MsrTrace::MsrTrace(const std::string& path) : path_(path) {
  // An ifstream "opens" a directory on Linux and then just reads nothing, which would pass for
  // an empty trace; refuse it explicitly.
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) in_.open(path);
  if (!in_.is_open()) throw WorkloadError("cannot open trace file '" + path + "'");
}

void MsrTrace::fail(const std::string& expected, const std::string& line) const {
  const std::string quoted =
      line.size() > kMaxQuotedChars ? line.substr(0, kMaxQuotedChars) + "..." : line;
  throw WorkloadError(path_ + ":" + std::to_string(line_no_) + ": " + expected + ", got '" +
                      quoted + "'");
}

bool MsrTrace::next(HostRequest& r) {
  for (;;) {
    if (!std::getline(in_, line_)) {
      if (in_.bad()) {
        throw WorkloadError(path_ + ": read error after line " + std::to_string(line_no_));
      }
      return false;
    }
    ++line_no_;
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    if (trim(line_).empty()) continue;

    // Split into exactly kFields fields; count any extra ones only for the message.
    std::array<std::string_view, kFields> f;
    std::size_t n = 0;
    std::string_view rest(line_);
    for (;;) {
      const std::size_t comma = rest.find(',');
      const std::string_view field = rest.substr(0, comma);
      if (n < kFields) f[n] = trim(field);
      ++n;
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    if (n != kFields) {
      fail("expected 7 comma-separated fields Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
           "ResponseTime (found " + std::to_string(n) + ")",
           line_);
    }

    std::uint64_t timestamp = 0, disk = 0, offset = 0, size = 0, response = 0;
    if (!parse_u64(f[0], timestamp)) {
      fail("expected Timestamp (field 1) as an unsigned integer of 100 ns ticks", line_);
    }
    if (!parse_u64(f[2], disk) || disk > std::numeric_limits<std::uint32_t>::max()) {
      fail("expected DiskNumber (field 3) as an unsigned 32-bit integer", line_);
    }
    bool write = false;
    if (iequals(f[3], "write")) {
      write = true;
    } else if (!iequals(f[3], "read")) {
      fail("expected Type (field 4) 'Read' or 'Write'", line_);
    }
    if (!parse_u64(f[4], offset)) {
      fail("expected Offset (field 5) as an unsigned integer of bytes", line_);
    }
    if (!parse_u64(f[5], size)) {
      fail("expected Size (field 6) as an unsigned integer of bytes", line_);
    }
    if (size == 0) fail("expected Size (field 6) > 0 bytes", line_);
    // ResponseTime is not used, but a non-numeric one means the line is not what we think it is.
    if (!parse_u64(f[6], response)) {
      fail("expected ResponseTime (field 7) as an unsigned integer of 100 ns ticks", line_);
    }

    // Sectors touched by [offset, offset + size), i.e. ceil((offset % 512 + size) / 512),
    // split so that it cannot overflow for any 64-bit size.
    const std::uint64_t head = offset % kSectorBytes;
    const std::uint64_t sectors =
        size / kSectorBytes + (head + size % kSectorBytes + kSectorBytes - 1) / kSectorBytes;
    if (sectors > std::numeric_limits<std::uint32_t>::max()) {
      fail("expected Size (field 6) below 2 TiB", line_);
    }

    if (requests_ == 0) first_timestamp_ = timestamp;
    // A timestamp before the first one behaves like any other backwards step: clamped below.
    const std::uint64_t ticks = timestamp >= first_timestamp_ ? timestamp - first_timestamp_ : 0;
    if (ticks > std::numeric_limits<std::uint64_t>::max() / kNsPerTick) {
      fail("expected Timestamp (field 1) less than 2^64 ns after the first request", line_);
    }
    std::uint64_t arrival = ticks * kNsPerTick;
    if (arrival < prev_arrival_ns_ || timestamp < first_timestamp_) {
      arrival = prev_arrival_ns_;
      ++clamped_;
    }
    prev_arrival_ns_ = arrival;

    r.arrival_ns = arrival;
    r.write = write;
    r.lba = offset / kSectorBytes;
    r.sectors = static_cast<std::uint32_t>(sectors);
    r.issuer = static_cast<std::uint32_t>(disk);
    ++requests_;
    return true;
  }
}

std::string MsrTrace::describe() const { return "msr:" + path_; }

}  // namespace ssd::stimuli
