// Moves the data out of a block the firmware no longer trusts, for two reasons (each its own
// mover, its own counters in the report's ftl_metrics):
// - read reclaim, the defence against read disturb: every read of a block nudges the other
//   pages' cells; past firmware.read_reclaim_reads reads since the block's erase
//   (OpScheduler::watch_reads), its data is moved before the disturb errors pile up
//   (counters read_reclaim_*);
// - a grown bad block (fw/firmware/bad_block_handler.h): a program or erase of it reported
//   failure, and its segment is retired or repaired once empty (counters bad_block_*).
//
// The block's pages are read in order, one at a time in the background (each a flash read, as
// real firmware reads a page to move it); a page whose logical page still maps to it (the FTL's
// mapping) and whose newest copy is not in the write buffer is written again through the FTL,
// as any write is placed (PageWrite::relocation: not a host page). A page of the FTL's own
// metadata (a logical page beyond the host's, e.g. DFTL's translation pages) the FTL still
// places there is rewritten by the FTL itself (Ftl::relocate_metadata). The block then holds no
// valid data, and GC or a merge erases it as any other. A block erased since it was queued, or
// with an erase pending, needs no more moving: it is skipped, or its move stops.
//
// Counted: <prefix>_blocks (moves begun), <prefix>_reads (pages read), <prefix>_writes (pages
// written again; not one a host write waiting in the FTL supersedes,
// fw/ftl/common/deferred_writes.h), <prefix>_metadata_writes (metadata pages the FTL rewrote).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include "common/metrics.h"
#include "fw/ftl/ftl.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

// One page out of a block the firmware no longer trusts: `lpn` (its data `token`) is written
// again elsewhere if the FTL still places it at `ppn` -- a host page through the FTL as a
// relocation, unless the write buffer holds a newer copy or a waiting write supersedes it; the
// FTL's own metadata page by the FTL (Ftl::relocate_metadata). Returns what was written.
enum class PageMove { None, Data, Metadata };
PageMove move_page(OpScheduler& ops, Ftl& ftl, const std::function<bool(Lpn)>& buffered, Lpn lpn, Token token,
                   Ppn ppn);

class BlockMover {
 public:
  // `buffered(lpn)`: the write buffer holds a newer copy of lpn (it will be written anyway).
  // `prefix`: the counters' names ("read_reclaim", "bad_block").
  BlockMover(OpScheduler& ops, Ftl& ftl, const FlashGeometry& geometry, MetricSet& ftl_metrics,
             const std::string& prefix, std::function<bool(Lpn)> buffered);

  // Moves the block's data after the blocks queued before it.
  void move(BlockId block);
  bool idle() const { return !busy_ && queue_.empty(); }
  std::string describe() const;  // "" when idle

 private:
  void start_next();
  void read_next_page();
  void page_read(Ppn ppn, const HalResult& result);

  OpScheduler& ops_;
  Ftl& ftl_;
  FlashGeometry geo_;
  std::string prefix_;
  std::function<bool(Lpn)> buffered_;
  struct Queued {
    BlockId block;
    std::uint32_t epoch;  // its erases when it was queued: erased since, it needs no move
  };
  std::deque<Queued> queue_;
  bool busy_ = false;
  BlockId block_ = 0;
  std::uint32_t page_ = 0, epoch_ = 0;
  std::uint64_t &blocks_, &reads_, &writes_, &metadata_writes_;
};

}  // namespace ssd::fw
