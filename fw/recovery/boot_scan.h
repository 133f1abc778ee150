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
//
// With map checkpoints (fw/recovery/map_checkpointer.h), the boot first reads the newest
// checkpoint's pages whole (an operation each, the page's data out); if one is not there, unread-
// able or another checkpoint's, it tries the one before, and without any it scans as above. With
// one, a block the checkpoint saved costs one OOB read of its page 0: if the block has not been
// erased since (the OOB's erase count) and that page reads, the block's mapping is the
// checkpoint's, loaded with it (no cost a page), and the block is not read further; otherwise it
// is scanned. The slots' blocks are the format's and hold no data: never scanned.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/metrics.h"
#include "fw/hal/hal.h"
#include "fw/recovery/checkpoint_medium.h"
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
  // Map checkpoints:
  std::uint32_t checkpoint_used = 0;       // the checkpoint's id (0: none, a full scan)
  std::uint32_t checkpoints_rejected = 0;  // newer ones found not whole
  std::uint64_t checkpoint_pages_read = 0; // (in pages_read too)
  std::uint64_t checkpoint_ticks = 0;      // from the start to the last checkpoint page read (then the scan)
  std::uint64_t blocks_from_checkpoint = 0;  // saved and not erased since: page 0 read, the rest not
  std::uint64_t pages_from_checkpoint = 0;   // their pages, whose mapping the checkpoint gave
};

// What the boot knows of map checkpoints: where their content is, and the slots' blocks.
struct BootCheckpoints {
  const CheckpointMedium* medium = nullptr;  // null: no checkpoints
  std::vector<BlockId> slot_blocks;
};

class BootScan {
 public:
  BootScan(Hal& hal, OpScheduler& ops, const FirmwareCosts& costs, OobRecovery& recovery, bool scan_whole_blocks,
           const BootCheckpoints& checkpoints = {});

  // Starts the scan at the HAL's present time; `done` runs once every read and erase completed.
  void start(std::function<void()> done);
  const BootScanCounts& counts() const { return counts_; }
  // Per block, whether the scan left it holding pages (read, or saved by the checkpoint): not for
  // an erased block, one erased again, or the blocks it does not read (factory-bad, slots).
  const std::vector<bool>& written() const { return written_; }

 private:
  struct PlaneScan {
    std::uint32_t plane = 0;
    std::uint32_t block = 0;      // in the plane
    std::uint32_t page = 0;       // the next to read
    bool programmed = false;      // the block has a page that is not erased
    bool readable = false;        // and one that reads
    bool done = false;
  };
  void read_checkpoint(std::size_t candidate);  // reads candidates_[candidate]'s pages, then scans
  void scan_planes();
  void next(PlaneScan& p);       // issues p's next read, or moves to its next block
  void read_done(PlaneScan& p, Ppn ppn, const HalResult& result);
  void saved_block_read(PlaneScan& p, Ppn ppn, const HalResult& result);  // page 0 of a saved block
  void end_block(PlaneScan& p);
  void finish_one();

  Hal& hal_;
  OpScheduler& ops_;
  const FirmwareCosts& costs_;
  OobRecovery& recovery_;
  bool whole_blocks_;
  FlashGeometry geo_;
  std::vector<bool> skip_;  // factory-bad and checkpoint-slot blocks
  std::vector<bool> written_;
  const CheckpointMedium* medium_;
  std::vector<std::pair<std::uint32_t, std::vector<Ppn>>> candidates_;
  std::uint32_t checkpoint_pending_ = 0;
  bool checkpoint_whole_ = true;
  std::vector<PlaneScan> planes_;
  std::uint64_t start_ = 0;
  std::uint32_t busy_ = 0;  // planes still scanning, and erases in flight
  bool scanned_ = false;
  std::function<void()> done_;
  BootScanCounts counts_;
};

}  // namespace ssd::fw
