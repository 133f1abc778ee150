// Parameters of one FTL, as given in the platform file's `ftl:` section or with --set ftl.X=V.
// Each FTL reads the parameters it knows (with range checks); whatever is left unread is an
// unknown parameter and is rejected by name.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/checked_value.h"

namespace ssd::fw {

class FtlOptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class FtlOptions {
 public:
  FtlOptions() = default;
  explicit FtlOptions(std::map<std::string, std::string> values) : values_(std::move(values)) {}

  double real(const std::string& key, double fallback, double min, double max, const std::string& what);
  std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max,
                       const std::string& what);
  std::string choice(const std::string& key, const std::string& fallback, const std::set<std::string>& allowed,
                     const std::string& what);
  // A choice that names one of an enum's values: `options` pairs each allowed text with its value.
  template <typename E>
  E choice_of(const std::string& key, const std::string& fallback,
              const std::vector<std::pair<std::string, E>>& options, const std::string& what) {
    std::set<std::string> allowed;
    for (const auto& [text, value] : options) allowed.insert(text);
    const std::string chosen = choice(key, fallback, allowed, what);
    for (const auto& [text, value] : options)
      if (text == chosen) return value;
    return options.front().second;  // not reached: choice() accepts only the texts given
  }
  // A yes/no parameter, written true or false.
  bool flag(const std::string& key, bool fallback, const std::string& what) {
    return choice(key, fallback ? "true" : "false", {"true", "false"}, what) == "true";
  }

  // A configuration that works but that a user should know about (e.g. merges of many
  // thousand pages); the platform loader prints these and the report lists them.
  void warn(std::string message) { warnings_.push_back(std::move(message)); }
  const std::vector<std::string>& warnings() const { return warnings_; }

  // Throws FtlOptionError naming every parameter no FTL code asked for.
  void reject_unread(const std::string& ftl_name) const;

  const std::map<std::string, std::string>& values() const { return values_; }
  // What each read parameter resolved to (defaults included), for the report.
  const std::map<std::string, std::string>& effective() const { return effective_; }
  // What each read parameter means (with its allowed range), for listings.
  const std::map<std::string, std::string>& descriptions() const { return descriptions_; }

 private:
  template <typename T, typename Parse>
  T checked(const std::string& key, T fallback, const ValueRange& range, const char* kind, const std::string& what,
            Parse parse);

  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> effective_;
  std::map<std::string, std::string> descriptions_;
  std::vector<std::string> warnings_;
};

}  // namespace ssd::fw
