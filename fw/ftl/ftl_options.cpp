#include "fw/ftl/ftl_options.h"

#include <sstream>

#include "common/checked_value.h"

namespace ssd::fw {

namespace {
std::string range_error(const std::string& key, const std::string& value, const std::string& expect) {
  return "ftl." + key + " = '" + value + "' is invalid: expected " + expect;
}
}  // namespace

double FtlOptions::real(const std::string& key, double fallback, double min, double max, const std::string& what) {
  const ValueRange range{min, max};
  std::string expected;
  double v = fallback;
  if (auto it = values_.find(key); it != values_.end()) {
    const auto parsed = checked_quantity(it->second, range, expected);
    if (!parsed) throw FtlOptionError(range_error(key, it->second, expected + " (" + what + ")"));
    v = *parsed;
  }
  expected = "a number in " + range.text();
  if (!range.contains(v)) throw FtlOptionError(range_error(key, std::to_string(v), expected + " (" + what + ")"));
  std::ostringstream os;
  os << v;
  effective_[key] = os.str();
  descriptions_[key] = expected + " (" + what + ")";
  return v;
}

std::int64_t FtlOptions::integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max,
                                 const std::string& what) {
  const ValueRange range{double(min), double(max)};
  std::string expected;
  std::int64_t v = fallback;
  if (auto it = values_.find(key); it != values_.end()) {
    const auto parsed = checked_count(it->second, range, expected);
    if (!parsed) throw FtlOptionError(range_error(key, it->second, expected + " (" + what + ")"));
    v = *parsed;
  }
  expected = "a whole number in " + range.text();
  if (v < min || v > max) throw FtlOptionError(range_error(key, std::to_string(v), expected + " (" + what + ")"));
  effective_[key] = std::to_string(v);
  descriptions_[key] = expected + " (" + what + ")";
  return v;
}

std::string FtlOptions::choice(const std::string& key, const std::string& fallback,
                               const std::set<std::string>& allowed, const std::string& what) {
  std::string v = fallback;
  auto it = values_.find(key);
  if (it != values_.end()) v = it->second;
  if (!allowed.count(v)) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw FtlOptionError(range_error(key, v, "one of " + list + " (" + what + ")"));
  }
  effective_[key] = v;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  descriptions_[key] = "one of " + list + " (" + what + ")";
  return v;
}

void FtlOptions::reject_unread(const std::string& ftl_name) const {
  std::string unknown;
  for (const auto& [k, v] : values_)
    if (!effective_.count(k)) unknown += (unknown.empty() ? "" : ", ") + ("ftl." + k);
  if (!unknown.empty()) throw FtlOptionError("unknown parameter(s) for FTL '" + ftl_name + "': " + unknown);
}

}  // namespace ssd::fw
