// Read reclaim: the firmware's defence against read disturb. Every read of a block nudges the
// other pages' cells; past firmware.read_reclaim_reads reads since the block's erase
// (OpScheduler::watch_reads), the block's data is moved before the disturb errors pile up.
//
// The block's pages are read in order, one at a time in the background (each a flash read, as
// real firmware reads a page to move it); a page whose logical page still maps to it (the FTL's
// mapping) and whose newest copy is not in the write buffer is written again through the FTL,
// as any write is placed (PageWrite::relocation: not a host page). The block then holds no valid
// data, and GC or a merge erases it as any other. Pages of the FTL's own metadata (a logical
// page beyond the host's, e.g. DFTL's translation pages) are left: moving them is the FTL's own
// business and not modeled yet. A block erased since it reached the threshold, or with an erase
// pending, needs no more reclaim: it is skipped, or its reclaim stops.
//
// Counted in the report's ftl_metrics: read_reclaim_blocks (reclaims begun), read_reclaim_reads
// (pages read), read_reclaim_writes (pages written again; not one a host write waiting in the
// FTL supersedes, fw/ftl/common/deferred_writes.h).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>

#include "common/metrics.h"
#include "fw/ftl/ftl.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

class ReadReclaim {
 public:
  // `buffered(lpn)`: the write buffer holds a newer copy of lpn (it will be written anyway).
  ReadReclaim(OpScheduler& ops, Ftl& ftl, const FlashGeometry& geometry, MetricSet& ftl_metrics,
              std::function<bool(Lpn)> buffered);

  // The block reached the read threshold: its data is moved after the blocks queued before it.
  void reclaim(BlockId block);
  bool idle() const { return !busy_ && queue_.empty(); }
  std::string describe() const;  // "" when idle

 private:
  void start_next();
  void read_next_page();
  void page_read(Ppn ppn, const HalResult& result);

  OpScheduler& ops_;
  Ftl& ftl_;
  FlashGeometry geo_;
  std::function<bool(Lpn)> buffered_;
  struct Queued {
    BlockId block;
    std::uint32_t epoch;  // its erases when it reached the threshold: erased since, it needs no reclaim
  };
  std::deque<Queued> queue_;
  bool busy_ = false;
  BlockId block_ = 0;
  std::uint32_t page_ = 0, epoch_ = 0;
  std::uint64_t &blocks_, &reads_, &writes_;
};

}  // namespace ssd::fw
