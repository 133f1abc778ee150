// What the firmware does when a program or erase reports failure (hw/nand/block_failures.h):
// the block is marked bad in the FTL's block space (fw/ftl/common/segment_space.h: its segment
// stops taking writes, and once empty is repaired with a spare or retired); a failed program's
// page is written again at once from the data buffer, which still holds it (through the FTL, as
// a relocation; a metadata page by the FTL itself); and the block's other valid pages are moved
// (fw/firmware/block_mover.h). Once retired segments leave the FTL less than it needs, the
// drive is read-only: host writes complete with Namespace Is Write Protected, reads go on.
//
// Counted in ftl_metrics: program_failures, erase_failures, failed_page_rewrites (host data),
// failed_metadata_rewrites (the FTL's own pages), and the mover's bad_block_* counters.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/metrics.h"
#include "fw/firmware/block_mover.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/ftl/ftl.h"
#include "fw/hal/hal.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

class BadBlockHandler {
 public:
  BadBlockHandler(Hal& hal, OpScheduler& ops, Ftl& ftl, SegmentSpace& space, MetricSet& ftl_metrics,
                  const std::function<bool(Lpn)>& buffered);

  void on_failure(const OpScheduler::OpFailure& failure);
  bool read_only() const { return space_.read_only(); }
  // Kernel ticks when the drive turned read-only (0: it has not; at format: 1).
  std::uint64_t read_only_since() const { return space_.read_only_since(); }
  bool idle() const { return mover_.idle(); }
  std::string describe() const { return mover_.describe(); }  // "" when idle
  // Sets the block space's gauges again (after the metrics were reset, e.g. past preconditioning).
  void refresh_gauges() { space_.publish_bad_blocks(ftl_metrics_); }
  // Why work may be stuck: the drive is read-only, out of spare blocks ("" when it is not).
  std::string read_only_reason() const;

 private:
  void rewrite(const OpScheduler::OpFailure& failure);

  Hal& hal_;
  OpScheduler& ops_;
  Ftl& ftl_;
  SegmentSpace& space_;
  std::function<bool(Lpn)> buffered_;
  MetricSet& ftl_metrics_;
  BlockMover mover_;
  std::uint64_t &program_failures_, &erase_failures_, &rewrites_, &metadata_rewrites_;
};

}  // namespace ssd::fw
