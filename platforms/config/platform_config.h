// Platform configuration: the typed, validated form of a platform file (YAML) plus command-line
// overrides. Every parameter is declared once in platform_parameters.cpp (platforms/config/parameter.h)
// with its type, unit, range, default and meaning; `ssdsim params` prints them.
#pragma once

#include <map>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/geometry.h"
#include "fw/firmware/firmware.h"
#include "hw/bus/system_bus.h"
#include "hw/channel/channel_controller.h"
#include "hw/core/embedded_core.h"
#include "hw/host/host_interface.h"
#include "hw/iss/iss_core.h"
#include "hw/memory/memory_target.h"
#include "hw/nand/nand_timing.h"
#include "hw/nand/reliability_config.h"
#include "hw/power/power_config.h"

namespace ssd::platform {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PlatformConfig {
  std::string name;
  std::string source;  // file it was read from
  FlashGeometry geometry;
  hw::NandTiming nand;
  bool sequential_program = true;
  hw::ChannelTiming channel;
  std::string scheduler = "fifo";  // die queue policy (hw/channel/die_queue_policy.h)
  std::string arbitration = "command_first";  // channel bus arbitration (hw/channel/bus_arbitration.h)
  hw::ReliabilityConfig reliability;  // reliability.* and ecc.*
  hw::SystemBusConfig bus;
  hw::MemoryConfig sram, dram;
  hw::CoreConfig core;
  // core.model = iss: the ISS core's TCM, quantum and CPI table (its clock and memory windows
  // come from core.clock_mhz and the SRAM and DRAM), and the image it runs.
  hw::IssConfig iss;
  std::string firmware_image;  // empty: the image built with this ssdsim
  // Not a platform parameter: where the ISS core's firmware job log goes (ssdsim run
  // --firmware-jobs, for tools/calibrate.py); the image then marks its charges.
  std::string firmware_job_log;
  hw::HostLinkConfig host;
  hw::PowerConfig power;  // power.*: what each part draws, and the idle states
  // power.apst / power.aspm and their states' lists, as given (checked and made into
  // power.states and power.link_states once every parameter is read).
  bool apst = false, aspm = false;
  struct IdleStateLists {
    std::vector<double> power_mw, idle, entry, exit;
  } state_lists, link_lists;
  fw::FirmwareConfig firmware;
  double write_buffer_dram_share = 0;  // firmware.write_buffer.bytes = this x the DRAM
  bool annotated_dcache = false;  // core.annotated_dcache: the annotated core's table accesses through core.dcache_kib
  double firmware_cycles_clock_mhz = 0;  // the core clock the firmware_cycles were calibrated at (0: not calibrated)
  // The effective parameters as dotted key -> typed value (numbers, flags, text, lists), for
  // reports and `validate`.
  nlohmann::json effective = nlohmann::json::object();
  // The --set overrides applied, declared key -> effective value (also in `name`).
  nlohmann::json overrides = nlohmann::json::object();
  // Workable but questionable choices (the FTL's warnings), each naming its parameter.
  std::vector<std::string> warnings;
};


// Reads `path`, applies overrides ("key=value"; key a dotted path, a unique last component,
// or ftl.<parameter>), validates everything. Throws ConfigError naming the file and parameter.
PlatformConfig load_platform(const std::string& path, const std::vector<std::string>& overrides = {});
// The same from the file's text; `path` only names it in errors (the fuzz targets use this).
PlatformConfig load_platform_text(const std::string& text, const std::string& path,
                                  const std::vector<std::string>& overrides = {});

}  // namespace ssd::platform
