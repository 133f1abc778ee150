#include "fw/ftl/ftl_options.h"

#include <sstream>

namespace ssd::fw {

namespace {
std::string range_error(const std::string& key, const std::string& value, const std::string& expect) {
  return "ftl." + key + " = '" + value + "' is invalid: expected " + expect;
}
}  // namespace

double FtlOptions::real(const std::string& key, double fallback, double min, double max, const std::string& what) {
  double v = fallback;
  auto it = values_.find(key);
  std::ostringstream expect;
  expect << "a number in [" << min << ", " << max << "] (" << what << ")";
  if (it != values_.end()) {
    try {
      std::size_t used = 0;
      v = std::stod(it->second, &used);
      if (used != it->second.size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw FtlOptionError(range_error(key, it->second, expect.str()));
    }
  }
  if (!(v >= min && v <= max)) throw FtlOptionError(range_error(key, std::to_string(v), expect.str()));
  std::ostringstream os;
  os << v;
  effective_[key] = os.str();
  descriptions_[key] = expect.str();
  return v;
}

std::int64_t FtlOptions::integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max,
                                 const std::string& what) {
  std::int64_t v = fallback;
  auto it = values_.find(key);
  std::string expect = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "] (" + what + ")";
  if (it != values_.end()) {
    try {
      std::size_t used = 0;
      v = std::stoll(it->second, &used);
      if (used != it->second.size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw FtlOptionError(range_error(key, it->second, expect));
    }
  }
  if (v < min || v > max) throw FtlOptionError(range_error(key, std::to_string(v), expect));
  effective_[key] = std::to_string(v);
  descriptions_[key] = expect;
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
