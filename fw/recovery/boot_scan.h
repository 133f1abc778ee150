// The boot after a power cut: how the firmware, its DRAM and SRAM tables lost, finds its data
// again before it takes host commands. It reads the spare area (OOB) of the flash's programmed
// pages through the timed model (an OOB read: tR, then only the spare bytes out) and feeds each
// page's logical page, sequence number and data to the OOB recovery (fw/recovery/
// oob_recovery.h: each logical page is where its newest version is).
//
// Order: every plane scans its blocks one after another, a block's pages in order up to its first
// erased page (an erased page reads all ones: the block's write pointer; on a part that may be
// programmed out of order, scan_whole_blocks, every page is read), so each die has a read queued
// from every plane while the scan lasts and the scan takes about the most-written die's pages
// times tR. The format's table of factory-bad blocks is kept on flash by real drives; here it is
// the HAL's (Hal::factory_bad_blocks), and those blocks are not read.
//
// A block with pages programmed but none readable (an erase the cut interrupted, or a first
// program it tore) holds nothing and cannot be programmed until erased: it is erased again.
// Each page costs the firmware an operation's issue and completion (OpScheduler) and a mapping
// update (FirmwareCosts::map_update).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/metrics.h"
#include "fw/hal/hal.h"
#include "fw/recovery/oob_recovery.h"
#include "fw/runtime/firmware_costs.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

struct BootScanCounts {
  std::uint64_t pages_read = 0;        // OOB reads, erased pages that ended a block's scan included
  std::uint64_t blocks_scanned = 0;    // blocks read (factory-bad ones are not)
  std::uint64_t blocks_erased = 0;     // blocks found erased (their first page)
  std::uint64_t blocks_erased_again = 0;  // programmed, nothing readable: erased again
  std::uint64_t scan_ticks = 0;        // kernel ticks from the start to the last read's completion
  std::uint64_t total_ticks = 0;       // to the last erase's (or read's) completion
};

class BootScan {
 public:
  BootScan(Hal& hal, OpScheduler& ops, const FirmwareCosts& costs, OobRecovery& recovery, bool scan_whole_blocks);

  // Starts the scan at the HAL's present time; `done` runs once every read and erase completed.
  void start(std::function<void()> done);
  const BootScanCounts& counts() const { return counts_; }

 private:
  struct PlaneScan {
    std::uint32_t plane = 0;
    std::uint32_t block = 0;      // in the plane
    std::uint32_t page = 0;       // the next to read
    bool programmed = false;      // the block has a page that is not erased
    bool readable = false;        // and one that reads
    bool done = false;
  };
  void next(PlaneScan& p);       // issues p's next read, or moves to its next block
  void read_done(PlaneScan& p, Ppn ppn, const HalResult& result);
  void end_block(PlaneScan& p);
  void finish_one();

  Hal& hal_;
  OpScheduler& ops_;
  const FirmwareCosts& costs_;
  OobRecovery& recovery_;
  bool whole_blocks_;
  FlashGeometry geo_;
  std::vector<bool> bad_;
  std::vector<PlaneScan> planes_;
  std::uint64_t start_ = 0;
  std::uint32_t busy_ = 0;  // planes still scanning, and erases in flight
  bool scanned_ = false;
  std::function<void()> done_;
  BootScanCounts counts_;
};

}  // namespace ssd::fw
