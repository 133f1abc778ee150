// The report's energy section: what the run cost in joules and watts, by component, and power
// over time (hw/power/power_config.h says what is counted and how).
//
// Components (joules): nand_read, nand_program, nand_erase (the dies' array operations),
// nand_standby, channel_io, dram, sram, cores, controller, host_link, and idle_states (the
// non-operational power states' own power). Operation energies come from the models' energy
// meters; the others are power x time: busy time for the channels' I/O and the cores, the
// operational time (the run less the time in non-operational states) for every background. The
// components add up to the total, and so do the intervals of power over time (the conservation
// the tests check).
#pragma once

#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "common/metrics.h"
#include "platforms/config/platform_config.h"
#include "platforms/report/iss_section.h"

namespace ssd::platform {

struct EnergyInputs {
  double seconds = 0;             // the run (the hardware's: until the drive went idle)
  std::uint64_t requests = 0;     // host requests completed
  std::uint64_t host_bytes = 0;   // read and written by the host
  const IssRunFacts* iss = nullptr;  // core.model = iss: instructions by class
};

// {"total_j", "per_request_j", "per_gb_j", "average_w", "peak_w" (the largest interval's
//  mean), "flash_j" (the dies and their channels: nand_* and channel_io), "components_j": {...}, "nand_energy_per_operation_uj": {read, program, erase},
//  "states": {"ps0_s", "ps1_s", ..., "ps1_entries", ..., "link_l1_s", ..., "wake_wait_us"},
//  "over_time": {"interval_s", "power_w": [...], "component_w": {component: [...]}}}
nlohmann::json energy_section(const PlatformConfig& config, const MetricsRegistry& metrics, const EnergyInputs& run);
// The components' names, in the section's order.
const std::vector<std::string>& energy_components();
// "  energy: 1.23 J (45.6 uJ a request, 0.98 J a GB), 2.34 W average, 3.1 W peak; flash 60%, ..."
std::string energy_text(const nlohmann::json& section);

}  // namespace ssd::platform
