// Cycle charges of the firmware's work, loaded from the platform file (section firmware_cycles).
// They are charged where the work happens (host-compiled firmware, annotated), so the total
// follows the path the firmware really executed; table accesses are charged separately as
// memory accesses at the tables' real addresses.
#pragma once

#include <cstdint>

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
};

}  // namespace ssd::fw
