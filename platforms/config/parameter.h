// One platform parameter, declared once (platforms/config/platform_parameters.cpp): its key, its
// type and unit, its allowed range, its default, its meaning and the field it sets. Loading a
// platform file, `--set`, `ssdsim params`, validation errors and the report's
// platform.effective are all derived from these declarations.
//
// Types are honest: a Count is a whole number ("2.5 is not a whole number"), a Quantity is a
// physical quantity that takes fractions (rates, clocks, timings, bandwidths, ratios), a List
// is one to ten quantities; out-of-range values, zero where zero is absurd, are refused.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace ssd::platform {

struct PlatformConfig;

enum class ParamType { Text, Count, Quantity, Flag, Choice, List };

struct Parameter {
  std::string key;   // dotted path, e.g. "geometry.channels"
  ParamType type;
  std::string unit;  // "us", "MT/s", "" for none
  double lo = 0, hi = 0;
  bool lo_open = false;  // the range excludes lo: (lo, hi]
  std::vector<std::string> choices;  // Choice
  nlohmann::json fallback;           // the default, as a typed value
  std::string help;
  std::function<void(PlatformConfig&, const nlohmann::json&)> apply;  // sets the field(s)

  std::string type_name() const;  // "count", "quantity", ...
  std::string range_text() const;  // "[1, 64]", "(0, 10000]", "fifo, read_first"
  // Parses a YAML value (a scalar, or a sequence for a List) into a typed value within range;
  // throws ConfigError "<file>: <key> = <value> is invalid: expected ..." otherwise.
  nlohmann::json parse(const YAML::Node& node, const std::string& file) const;
};

// Declaration helpers: each parameter is one line in platform_parameters.cpp.
Parameter text_param(std::string key, std::string fallback, std::string help,
                     std::function<void(PlatformConfig&, const std::string&)> set);
Parameter count_param(std::string key, double lo, double hi, double fallback, std::string help,
                      std::function<void(PlatformConfig&, std::uint64_t)> set);
Parameter quantity_param(std::string key, std::string unit, double lo, double hi, bool lo_open, double fallback,
                         std::string help, std::function<void(PlatformConfig&, double)> set);
Parameter flag_param(std::string key, bool fallback, std::string help, std::function<void(PlatformConfig&, bool)> set);
Parameter choice_param(std::string key, std::vector<std::string> choices, std::string fallback, std::string help,
                       std::function<void(PlatformConfig&, const std::string&)> set);
Parameter list_param(std::string key, std::string unit, double lo, double hi, std::vector<double> fallback,
                     std::string help, std::function<void(PlatformConfig&, const std::vector<double>&)> set);

// A value given as text (FTL parameters) as typed JSON: a number, a flag, or the text itself.
nlohmann::json typed_value(const std::string& text);

// Every platform parameter (not the FTL's own, which each FTL declares: `ssdsim ftls`).
const std::vector<Parameter>& platform_parameters();
std::vector<Parameter> power_parameters();  // the power.* ones (power_parameters.cpp), among the above
// Once every parameter is read: checks the idle states' lists and gives the memories their energy.
void finish_power_config(const std::string& path, PlatformConfig& c);
const Parameter* find_parameter(const std::string& key);

}  // namespace ssd::platform
