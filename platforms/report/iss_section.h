// The report's firmware_iss section (core.model = iss): what the firmware image executed on the
// ISS core: instructions and cycles (issue cycles from the CPI table plus the stalls the bus and
// memories returned, by memory), CPI, instructions by class, and the profile by function from
// the image's symbol table (the 20 costliest, with their share of the core's cycles).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "hw/iss/iss_core.h"

namespace ssd::platform {

struct IssRunFacts {
  std::string image;
  double clock_mhz = 0;
  hw::IssCore::Counts counts;
  std::vector<std::string> window_names;  // of counts.window_stall
  std::vector<hw::IssCore::FunctionCost> functions;
};

nlohmann::json iss_section(const IssRunFacts& facts);
// "  ISS core: 3.4e+07 instructions, CPI 1.64 (stalls: sram 2%, dram 37% of cycles); by function: ..."
std::string iss_text(const nlohmann::json& section);

}  // namespace ssd::platform
