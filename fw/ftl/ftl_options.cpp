#include "fw/ftl/ftl_options.h"

#include <sstream>

#include "common/checked_value.h"

namespace ssd::fw {

namespace {
std::string range_error(const std::string& key, const std::string& value, const std::string& expect) {
  return "ftl." + key + " = '" + value + "' is invalid: expected " + expect;
}
}  // namespace

// The value at `key` (or the fallback), parsed by `parse` and checked against `range`; records
// its effective text and description.
template <typename T, typename Parse>
T FtlOptions::checked(const std::string& key, T fallback, const ValueRange& range, const char* kind,
                      const std::string& what, Parse parse) {
  std::string expected;
  T v = fallback;
  if (auto it = values_.find(key); it != values_.end()) {
    const auto parsed = parse(it->second, range, expected);
    if (!parsed) throw FtlOptionError(range_error(key, it->second, expected + " (" + what + ")"));
    v = static_cast<T>(*parsed);
  }
  expected = std::string(kind) + " in " + range.text() + " (" + what + ")";
  std::ostringstream os;
  os << v;
  if (!range.contains(double(v))) throw FtlOptionError(range_error(key, os.str(), expected));
  effective_[key] = os.str();
  descriptions_[key] = expected;
  return v;
}

double FtlOptions::real(const std::string& key, double fallback, double min, double max, const std::string& what) {
  return checked<double>(key, fallback, {min, max}, "a number", what,
                         [](const std::string& t, const ValueRange& r, std::string& e) { return checked_quantity(t, r, e); });
}

std::int64_t FtlOptions::integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max,
                                 const std::string& what) {
  return checked<std::int64_t>(key, fallback, {double(min), double(max)}, "a whole number", what, checked_count);
}

std::string FtlOptions::choice(const std::string& key, const std::string& fallback,
                               const std::set<std::string>& allowed, const std::string& what) {
  std::string v = fallback;
  auto it = values_.find(key);
  if (it != values_.end()) v = it->second;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  const std::string description = "one of " + list + " (" + what + ")";
  if (!allowed.count(v)) throw FtlOptionError(range_error(key, v, description));
  effective_[key] = v;
  descriptions_[key] = description;
  return v;
}

void FtlOptions::reject_unread(const std::string& ftl_name) const {
  std::string unknown;
  for (const auto& [k, v] : values_)
    if (!effective_.count(k)) unknown += (unknown.empty() ? "" : ", ") + ("ftl." + k);
  if (!unknown.empty()) throw FtlOptionError("unknown parameter(s) for FTL '" + ftl_name + "': " + unknown);
}

}  // namespace ssd::fw
