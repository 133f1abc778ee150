// ssdsim's informational subcommands: `ftls`, `params` and `validate`. Each prints to stdout
// and throws the loaders' errors for bad input.
#pragma once

#include <string>
#include <vector>

namespace ssd::platform {

// Every FTL with its parameters and their defaults on the default platform.
void print_ftls();
// Every platform parameter, one a line: key, type, unit ("-": none), range, default, meaning.
void print_params();
// Loads `file` with `overrides` and prints its effective parameters.
void print_validation(const std::string& file, const std::vector<std::string>& overrides);

}  // namespace ssd::platform
