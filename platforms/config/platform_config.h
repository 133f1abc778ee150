// Platform configuration: the typed, validated form of a platform file (YAML) plus command-line
// overrides. Every parameter is listed in the schema (platform_schema.cpp) with its range,
// default and meaning; `ssdsim params` prints it.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/geometry.h"
#include "fw/runtime/firmware.h"
#include "hw/bus/system_bus.h"
#include "hw/channel/channel_controller.h"
#include "hw/core/embedded_core.h"
#include "hw/host/host_interface.h"
#include "hw/memory/memory_target.h"
#include "hw/nand/nand_timing.h"

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
  hw::DieScheduler scheduler = hw::DieScheduler::Fifo;
  hw::SystemBusConfig bus;
  hw::MemoryConfig sram, dram;
  hw::CoreConfig core;
  hw::HostLinkConfig host;
  fw::FirmwareConfig firmware;
  // The effective parameters as dotted key -> value text, for reports and `validate`.
  std::map<std::string, std::string> effective;
};

struct SchemaEntry {
  std::string key;      // dotted path, e.g. "geometry.channels"
  std::string kind;     // "int", "real", "bool", "choice", "list"
  std::string range;    // human-readable allowed values
  std::string fallback; // default value
  std::string doc;
};
const std::vector<SchemaEntry>& platform_schema();

// Reads `path`, applies overrides ("key=value"; key a dotted path, a unique last component,
// or ftl.<parameter>), validates everything. Throws ConfigError naming the file and parameter.
PlatformConfig load_platform(const std::string& path, const std::vector<std::string>& overrides = {});

}  // namespace ssd::platform
