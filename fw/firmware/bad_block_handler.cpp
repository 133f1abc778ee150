#include "fw/firmware/bad_block_handler.h"

#include <algorithm>

namespace ssd::fw {

BadBlockHandler::BadBlockHandler(Hal& hal, OpScheduler& ops, Ftl& ftl, SegmentSpace& space, MetricSet& ftl_metrics,
                                 const std::function<bool(Lpn)>& buffered)
    : hal_(hal),
      ops_(ops),
      ftl_(ftl),
      space_(space),
      buffered_(buffered),
      ftl_metrics_(ftl_metrics),
      mover_(ops, ftl, hal.geometry(), ftl_metrics, "bad_block", buffered),
      program_failures_(ftl_metrics.counter("program_failures")),
      erase_failures_(ftl_metrics.counter("erase_failures")),
      rewrites_(ftl_metrics.counter("failed_page_rewrites")),
      metadata_rewrites_(ftl_metrics.counter("failed_metadata_rewrites")) {
  space.publish_bad_blocks(ftl_metrics);
}

void BadBlockHandler::on_failure(const OpScheduler::OpFailure& failure) {
  const BlockId block = hal_.geometry().block_of(failure.ppn);
  const bool newly_bad = space_.mark_bad(block) != SegmentSpace::kNoSegment;
  if (failure.kind == OpKind::Erase) {
    ++erase_failures_;
  } else {
    ++program_failures_;
    rewrite(failure);
    if (newly_bad) mover_.move(block);
  }
}

std::string BadBlockHandler::read_only_reason() const {
  if (!read_only()) return "";
  const SegmentSpace::BadBlockCounts c = space_.bad_block_counts();
  return "the drive is read-only since tick " + std::to_string(space_.read_only_since()) + " with " +
         std::to_string(space_.usable_segments()) + " usable segments, " + std::to_string(space_.free_segments()) +
         " of them free (" + std::to_string(c.grown) + " grown and " +
         std::to_string(c.factory) + " factory bad blocks): too few spare blocks were left for the work in flight "
         "(firmware.read_only_margin)";
}

// The failed page's data (still in the data buffer), as the mover moves a page it read.
void BadBlockHandler::rewrite(const OpScheduler::OpFailure& failure) {
  const PageMove moved = move_page(ops_, ftl_, buffered_, failure.lpn, failure.token, failure.ppn);
  if (moved == PageMove::Data) ++rewrites_;
  if (moved == PageMove::Metadata) ++metadata_rewrites_;
}

}  // namespace ssd::fw
