#include "platforms/config/parameter.h"

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "common/checked_value.h"
#include "platforms/config/platform_config.h"

namespace ssd::platform {

namespace {

using json = nlohmann::json;

std::string scalar_text(const YAML::Node& node) {
  if (node.IsScalar()) return node.Scalar();
  return "(" + YAML::Dump(node) + ")";
}

}  // namespace

std::string Parameter::type_name() const {
  switch (type) {
    case ParamType::Text: return "text";
    case ParamType::Count: return "count";
    case ParamType::Quantity: return "quantity";
    case ParamType::Flag: return "flag";
    case ParamType::Choice: return "choice";
    case ParamType::List: return "list";
  }
  return "?";
}

std::string Parameter::range_text() const {
  switch (type) {
    case ParamType::Text: return "any";
    case ParamType::Flag: return "true, false";
    case ParamType::Choice: {
      std::string all;
      for (const auto& c : choices) all += (all.empty() ? "" : ", ") + c;
      return all;
    }
    case ParamType::List:
      return std::string(fallback.empty() ? "0" : "1") + " to 10 values in " + ValueRange{lo, hi, lo_open}.text();
    default: return ValueRange{lo, hi, lo_open}.text();
  }
}

json Parameter::parse(const YAML::Node& node, const std::string& file) const {
  std::string shown = scalar_text(node);
  if (double unused; node.IsScalar() && !parse_number(shown, unused)) shown = "'" + shown + "'";
  auto fail = [&](const std::string& expect) -> json {
    throw ConfigError(fmt::format("{}: {} = {} is invalid: expected {}", file, key, shown, expect));
  };
  const ValueRange range{lo, hi, lo_open};
  std::string expected;
  if (type == ParamType::List) {
    YAML::Node seq = node;
    if (node.IsScalar()) {
      try {
        seq = YAML::Load("[" + node.Scalar() + "]");
      } catch (const YAML::Exception&) {
        return fail("a list of numbers");
      }
    }
    // (A list whose default is empty may be empty.)
    const std::size_t fewest = fallback.empty() ? 0 : 1;
    if (!seq.IsSequence() || seq.size() < fewest || seq.size() > 10)
      return fail("a list of " + std::to_string(fewest) + " to 10 numbers");
    json out = json::array();
    for (const auto& e : seq) {
      const auto v = e.IsScalar() ? checked_quantity(e.Scalar(), range, expected, unit) : std::nullopt;
      if (!v) return fail("numbers in " + range.text() + (unit.empty() ? "" : " " + unit));
      out.push_back(*v);
    }
    return out;
  }
  if (!node.IsScalar()) return fail("a single value");
  const std::string& s = node.Scalar();
  switch (type) {
    case ParamType::Text: return s;
    case ParamType::Flag:
      if (const auto v = checked_flag(s, expected)) return *v;
      return fail(expected);
    case ParamType::Choice:
      for (const auto& c : choices)
        if (s == c) return s;
      return fail("one of " + range_text());
    case ParamType::Count:
      if (const auto v = checked_count(s, range, expected)) return static_cast<std::uint64_t>(*v);
      return fail(expected);
    case ParamType::Quantity:
      if (const auto v = checked_quantity(s, range, expected, unit)) return *v;
      return fail(expected);
    default: return fail("a value");
  }
}

Parameter text_param(std::string key, std::string fallback, std::string help,
                     std::function<void(PlatformConfig&, const std::string&)> set) {
  Parameter p{std::move(key), ParamType::Text, "", 0, 0, false, {}, fallback, std::move(help), {}};
  p.apply = [set](PlatformConfig& c, const json& v) { set(c, v.get<std::string>()); };
  return p;
}

Parameter count_param(std::string key, double lo, double hi, double fallback, std::string help,
                      std::function<void(PlatformConfig&, std::uint64_t)> set) {
  Parameter p{std::move(key), ParamType::Count, "", lo, hi, false, {}, std::uint64_t(fallback), std::move(help), {}};
  p.apply = [set](PlatformConfig& c, const json& v) { set(c, v.get<std::uint64_t>()); };
  return p;
}

Parameter quantity_param(std::string key, std::string unit, double lo, double hi, bool lo_open, double fallback,
                         std::string help, std::function<void(PlatformConfig&, double)> set) {
  Parameter p{std::move(key), ParamType::Quantity, std::move(unit), lo, hi, lo_open, {}, fallback, std::move(help), {}};
  p.apply = [set](PlatformConfig& c, const json& v) { set(c, v.get<double>()); };
  return p;
}

Parameter flag_param(std::string key, bool fallback, std::string help, std::function<void(PlatformConfig&, bool)> set) {
  Parameter p{std::move(key), ParamType::Flag, "", 0, 0, false, {}, fallback, std::move(help), {}};
  p.apply = [set](PlatformConfig& c, const json& v) { set(c, v.get<bool>()); };
  return p;
}

Parameter choice_param(std::string key, std::vector<std::string> choices, std::string fallback, std::string help,
                       std::function<void(PlatformConfig&, const std::string&)> set) {
  Parameter p{std::move(key), ParamType::Choice, "", 0, 0, false, std::move(choices), fallback, std::move(help), {}};
  p.apply = [set](PlatformConfig& c, const json& v) { set(c, v.get<std::string>()); };
  return p;
}

Parameter list_param(std::string key, std::string unit, double lo, double hi, std::vector<double> fallback,
                     std::string help, std::function<void(PlatformConfig&, const std::vector<double>&)> set) {
  Parameter p{std::move(key), ParamType::List, std::move(unit), lo, hi, true, {}, fallback, std::move(help), {}};
  p.apply = [set](PlatformConfig& c, const json& v) { set(c, v.get<std::vector<double>>()); };
  return p;
}

json typed_value(const std::string& text) {
  if (text == "true" || text == "false") return text == "true";
  double v;
  if (!parse_number(text, v)) return text;
  if (v == std::floor(v) && std::fabs(v) < 9e15) return static_cast<std::int64_t>(v);
  return v;
}

const Parameter* find_parameter(const std::string& key) {
  for (const auto& p : platform_parameters())
    if (p.key == key) return &p;
  return nullptr;
}

}  // namespace ssd::platform
