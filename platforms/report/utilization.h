// Why a run is as fast as it is: every resource's busy share, read from the report's hardware
// section (any "busy_fraction", "*_busy_fraction" or "utilization" figure, so a new model's busy
// time is included without code here), the dies' spread, and the busiest resource with whether
// the run is bound by it.
#pragma once

#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include <map>

#include "common/busy_time.h"
#include "common/metrics.h"

namespace ssd::platform {

// A run is bound by a resource busy at least this share of the time: the rest of the system
// could do more, that resource could not.
inline constexpr double kBoundBusyShare = 0.9;
// Resources of different kinds each busy at least this share limit each other: a die holds its
// page register until its channel moves the data, so neither reaches kBoundBusyShare although
// the drive can do no more (the host's requests wait inside it).
inline constexpr double kCoLimitBusyShare = 0.8;
// A resource this busy is the bottleneck on its own, however busy the others are.
inline constexpr double kSaturatedBusyShare = 0.95;

// {"resources": {name: busy share}, "dies": {min, mean, max}, "busiest": {resource, busy_fraction},
//  "bound": busiest >= kBoundBusyShare, "limited_by": [when no resource is saturated and two or
//  more kinds are busy at least kCoLimitBusyShare: the busiest resource of each such kind, busiest
//  first (kinds: dies, channels, cores, then each other resource); else empty]}. Names follow the hardware section: "channel 0",
// "channel 0 die 3", "system bus", "dram", "host link (to device)", "core 1", ...
nlohmann::json utilization_section(const nlohmann::json& hardware);

// The kind of a resource name: "channel 0 die 3" -> "dies", "channel 2" -> "channels", "core 1"
// and "cores" -> "cores", "host link (to host)" -> "host link", others their own name.
std::string resource_kind(const std::string& name);

// How busy each resource was in each interval of the run (kernel ticks [0, end_ticks)), by the
// names of utilization_section, the dies and the channels as "dies (mean)", "dies (max)",
// "channels (mean)", "channels (max)". The interval is the coarsest of the resources' (1 ms
// doubled as a run grows) and at least host.over_time's, so the two line up; the last interval's
// share is of its part before end_ticks. With end_ticks 0: the names only.
struct BusyShares {
  std::uint64_t interval_ticks = 0;
  std::size_t points = 0;
  std::map<std::string, std::vector<double>> series;  // name -> busy share per interval
};
BusyShares busy_shares(const MetricsRegistry& metrics, std::uint64_t end_ticks);

// The report's utilization.over_time: {"interval_s", "start_s": [...], "series": {name: [...]}}.
nlohmann::json utilization_over_time(const BusyShares& shares);

// One line for the summary: "bound by channel 0 (99.1% busy)" or why it is not bound.
std::string bottleneck_text(const nlohmann::json& utilization);

}  // namespace ssd::platform
