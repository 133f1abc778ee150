// Cycle charges of the firmware's work, loaded from the platform file (section firmware_cycles).
// They are charged where the work happens (host-compiled firmware, annotated), so the total
// follows the path the firmware really executed; table accesses are charged separately as
// memory accesses at the tables' real addresses.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>

#include "fw/ftl/ftl_options.h"

namespace ssd::fw {

struct FirmwareCosts {
  std::uint32_t host_command = 1200;    // fetch and decode one NVMe command, set up its DMA
  std::uint32_t host_page = 150;        // split/bookkeeping per logical page of a command
  std::uint32_t host_complete = 400;    // post one completion entry
  std::uint32_t op_issue = 120;         // build and post one flash or DMA command
  std::uint32_t op_complete = 100;      // handle one completion
  std::uint32_t map_lookup = 12;        // mapping lookup logic (the table access is extra)
  std::uint32_t map_update = 20;        // mapping update logic (the table access is extra)
  std::uint32_t page_allocate = 40;     // take the next page of a write frontier
  std::uint32_t gc_scan_per_block = 4;  // greedy victim scan, per candidate block
  // Write-buffer bookkeeping, found missing by the ISS calibration (a write's page costs ten
  // times a read's there); 0 until calibrated, so uncalibrated platforms run as before.
  std::uint32_t buffer_insert = 0;      // put a written page into the write buffer
  std::uint32_t buffer_evict = 0;       // hand a page from the write buffer to the FTL
  // op_issue and op_complete for programs and host DMAs to and from the host (op_issue and
  // op_complete: flash reads and erases); the defaults are theirs, so uncalibrated platforms
  // charge as before.
  std::uint32_t op_issue_program = 120;
  std::uint32_t op_complete_program = 100;
  std::uint32_t op_issue_dma_in = 120;
  std::uint32_t op_complete_dma_in = 100;
  std::uint32_t op_issue_dma_out = 120;
  std::uint32_t op_complete_dma_out = 100;
};

// The names of the costs (the platform file's firmware_cycles keys), in FirmwareWork order.
inline constexpr const char* kFirmwareCostNames[] = {
    "host_command", "host_page",     "host_complete",     "op_issue",      "op_complete",  "map_lookup",
    "map_update",   "page_allocate", "gc_scan_per_block", "buffer_insert", "buffer_evict",
    "op_issue_program", "op_complete_program", "op_issue_dma_in", "op_complete_dma_in", "op_issue_dma_out",
    "op_complete_dma_out"};
inline std::uint32_t& cost_of(FirmwareCosts& c, std::size_t kind) {
  std::uint32_t* all[] = {&c.host_command, &c.host_page,     &c.host_complete,     &c.op_issue,
                          &c.op_complete,  &c.map_lookup,    &c.map_update,        &c.page_allocate,
                          &c.gc_scan_per_block, &c.buffer_insert, &c.buffer_evict,
                          &c.op_issue_program, &c.op_complete_program, &c.op_issue_dma_in, &c.op_complete_dma_in,
                          &c.op_issue_dma_out, &c.op_complete_dma_out};
  return *all[kind];
}

// An FTL's own costs where they differ from the platform's (what the ISS measured for it:
// tools/calibrate.py): its parameters cycles.<name> (the platform file's firmware_cycles.<ftl>
// subsection), read only where given.
inline void read_cost_overrides(FtlOptions& options, FirmwareCosts& costs) {
  for (std::size_t k = 0; k < std::size(kFirmwareCostNames); ++k) {
    const std::string key = std::string("cycles.") + kFirmwareCostNames[k];
    if (options.values().count(key))
      cost_of(costs, k) = static_cast<std::uint32_t>(
          options.integer(key, cost_of(costs, k), 0, 10'000'000, std::string("cycles of ") + kFirmwareCostNames[k]));
  }
}

}  // namespace ssd::fw
