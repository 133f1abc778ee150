// Option checks shared by ssdsim's subcommands.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace ssd::platform {

// Whole numbers in plain decimal: CLI11 would otherwise wrap "-5" around and read "010" as octal.
inline const CLI::Validator kDecimal(
    [](std::string& s) -> std::string {
      const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
      if (!digits || (s.size() > 1 && s[0] == '0')) return "expected a whole decimal number, got '" + s + "'";
      return "";
    },
    "DECIMAL");

}  // namespace ssd::platform
