// Map checkpoints (firmware.checkpoint_interval_mib): every so many MiB of host data the FTL was
// given, the firmware writes its mapping tables to flash, so the boot after a power cut reads the
// checkpoint and scans only the blocks written since, not the whole array (fw/recovery/
// checkpoint_medium.h says what a checkpoint saves and how the boot uses it).
//
// Size: what the FTL's family keeps in its tables (Ftl::checkpoint_bytes: a page map's entries, a
// hybrid's block map and log-block page maps, DFTL's and CAST's directory and cached entries), in
// whole flash pages. Full checkpoints (every table whole, not only what changed since the last),
// programmed straight from the tables' memory: the firmware's cost is each program's issue and
// completion (no copy is charged), and what a checkpoint saves is the tables as they were when it
// started (a copy-on-write snapshot, whose cost is not modelled). A firmware that journals its map
// updates between full checkpoints writes less; not modelled.
//
// Place: two slots of the firmware's own (fw/firmware/reserved_area.h, held back from the FTL
// like the power-loss dump area), each as many blocks as a checkpoint fills, one a plane on
// consecutive planes in channel-first order (the second slot after the first), used in turn. A
// checkpoint first erases the blocks of its slot that the checkpoint before the previous one
// programmed, then programs its pages there, so the previous checkpoint stays whole until this
// one is. One at a time: a checkpoint due while one is being written waits for it to end. A block
// of a slot whose program or erase fails is retired (the firmware's bad-block handling leaves the
// slots to this class); once a slot's retired blocks leave it too small, checkpoints stop
// (checkpoints_abandoned) and the boot falls back on the last one written, or a full scan.
//
// Cost: its programs count in the FTL's WAF (flash_pages_programmed) and its erases in `erases`;
// counters checkpoints_written, checkpoint_pages_programmed and checkpoint_erases say how much.
#pragma once

#include <cstdint>
#include <vector>

#include "common/metrics.h"
#include "fw/firmware/reserved_area.h"
#include "fw/recovery/checkpoint_medium.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

class MapCheckpointer {
 public:
  // A checkpoint of `checkpoint_pages` pages after every `interval_pages` host pages. The slots'
  // blocks pass over (and are marked in) `taken`. Throws std::invalid_argument when a plane has
  // too few blocks for them.
  MapCheckpointer(OpScheduler& ops, MetricSet& ftl_metrics, const FlashGeometry& geometry, std::uint64_t interval_pages,
                  std::uint64_t checkpoint_pages, std::vector<bool>& taken);

  // Where checkpoints record their content (none: checkpoints are not taken).
  // A firmware mounting the drive after a power cut numbers its checkpoints after those the medium
  // holds already, and erases the blocks they programmed in a slot before it writes there again.
  void set_medium(CheckpointMedium* medium);
  // Both slots' blocks, to hold back from the FTL's space.
  std::vector<BlockId> blocks() const;
  bool owns(BlockId b) const { return slots_[0].contains(b) || slots_[1].contains(b); }
  std::uint64_t pages_per_checkpoint() const { return pages_; }

  // Host pages handed to the FTL: a checkpoint starts once interval_pages have been since the last.
  void on_pages_written(std::uint64_t pages);
  // A block of a slot that went bad before the run (an aged drive's): never used.
  void retire(BlockId b) {
    slots_[0].retire(b);
    slots_[1].retire(b);
  }
  // Takes a checkpoint now unless one is being written (or none can be): the factory image's,
  // after preconditioning. Returns whether it started one.
  bool checkpoint_now();
  // The power went: no checkpoint starts from now on.
  void stop() { stopped_ = true; }

 private:
  void start();
  void program(std::uint32_t id);
  void erase_done();

  OpScheduler& ops_;
  FlashGeometry geometry_;
  CheckpointMedium* medium_ = nullptr;
  std::uint64_t interval_, pages_;
  ReservedArea slots_[2];
  std::vector<BlockId> programmed_[2];  // the blocks each slot's last checkpoint programmed
  std::uint32_t next_id_ = 1;
  std::uint64_t since_ = 0;      // host pages since the last checkpoint started
  bool writing_ = false, stopped_ = false;
  std::uint32_t pending_ = 0;    // erases, then programs, of the checkpoint being written
  std::uint64_t &written_, &pages_programmed_, &erases_, &abandoned_, &flash_programs_, &flash_erases_;
};

}  // namespace ssd::fw
