// Why a run is as fast as it is: every resource's busy share, read from the report's hardware
// section (any "busy_fraction", "*_busy_fraction" or "utilization" figure, so a new model's busy
// time is included without code here), the dies' spread, and the busiest resource with whether
// the run is bound by it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ssd::platform {

// A run is bound by a resource busy at least this share of the time: the rest of the system
// could do more, that resource could not.
inline constexpr double kBoundBusyShare = 0.9;

// {"resources": {name: busy share}, "dies": {min, mean, max}, "busiest": {resource, busy_fraction},
//  "bound": busiest >= kBoundBusyShare}. Names follow the hardware section: "channel 0",
// "channel 0 die 3", "system bus", "dram", "host link (to device)", "core 1", ...
nlohmann::json utilization_section(const nlohmann::json& hardware);

// One line for the summary: "bound by channel 0 (99.1% busy)" or why it is not bound.
std::string bottleneck_text(const nlohmann::json& utilization);

}  // namespace ssd::platform
