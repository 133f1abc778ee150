// What the firmware spends its cycles on, as it tells the HAL with each charge: one kind per
// cost of the platform's firmware_cycles section (fw/runtime/firmware_costs.h), so the report's
// firmware profile shows which work to optimise.
#pragma once

#include <array>
#include <cstdint>

namespace ssd::fw {

enum class FirmwareWork : std::uint8_t {
  HostCommand,   // fetch and decode a command, set up its DMA
  HostPage,      // split a command into pages, their bookkeeping
  HostComplete,  // post a completion
  OpIssue,       // build and post a flash or DMA operation (host data, GC copies, merges, translation pages)
  OpComplete,    // handle an operation's completion
  MapLookup,     // mapping lookups (cache searches included)
  MapUpdate,     // mapping updates
  PageAllocate,  // taking pages of write frontiers
  GcScan,        // choosing GC and merge victims
};
inline constexpr std::size_t kFirmwareWorkKinds = 9;

inline const char* work_name(FirmwareWork w) {
  static constexpr std::array<const char*, kFirmwareWorkKinds> names = {
      "host_command", "host_page", "host_complete", "op_issue", "op_complete",
      "map_lookup",   "map_update", "page_allocate", "gc_victim_scan"};
  return names[static_cast<std::size_t>(w)];
}

}  // namespace ssd::fw
