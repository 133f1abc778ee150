// "A value within its range", the one way every configuration reader (platform parameters,
// FTL options, job files) turns text into a typed value: strict parsing (a whole string, no
// trailing junk, finite), a range with an open or closed lower bound, and the words that say what
// was expected when the text does not fit. Standard library only, so the firmware shares it.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace ssd {

struct ValueRange {
  double lo, hi;
  bool lo_open = false;  // (lo, hi] instead of [lo, hi]

  bool contains(double v) const { return (lo_open ? v > lo : v >= lo) && v <= hi; }
  std::string text() const {
    std::ostringstream os;
    os.precision(15);  // whole bounds print exactly (4294967295, not 4.29497e+09)
    os << (lo_open ? "(" : "[") << lo << ", " << hi << "]";
    return os.str();
  }
};

// A finite decimal number and nothing else ("12", "0.5", "1e6").
inline bool parse_number(std::string_view text, double& out) {
  if (text.empty()) return false;
  const std::string s(text);
  std::size_t used = 0;
  try {
    out = std::stod(s, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == s.size() && std::isfinite(out);
}

// A whole number within `range`; on failure nullopt and `expected` says what would fit.
inline std::optional<std::int64_t> checked_count(std::string_view text, const ValueRange& range, std::string& expected) {
  double v;
  expected = "a whole number in " + range.text();
  if (!parse_number(text, v) || !range.contains(v)) return std::nullopt;
  if (v != std::floor(v)) {
    expected = "a whole number (" + std::string(text) + " is not a whole number) in " + range.text();
    return std::nullopt;
  }
  return static_cast<std::int64_t>(v);
}

// A number (fractions allowed) within `range`, with its unit in the message.
inline std::optional<double> checked_quantity(std::string_view text, const ValueRange& range, std::string& expected,
                                              const std::string& unit = "") {
  double v;
  expected = "a number in " + range.text() + (unit.empty() ? "" : " " + unit);
  if (!parse_number(text, v) || !range.contains(v)) return std::nullopt;
  return v;
}

inline std::optional<bool> checked_flag(std::string_view text, std::string& expected) {
  expected = "true or false";
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  return std::nullopt;
}

}  // namespace ssd
