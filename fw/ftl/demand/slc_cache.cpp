// DemandFtl's SLC cache (fw/ftl/common/slc_cache.h): where a host page goes, and folding. The
// cache's unit is the space's segment (one block on each plane of a plane group), written in SLC
// mode to slc_pages pages a block; "slc_blocks per plane" is slc_blocks segments per plane group.
// A fold is a GC run of an SLC segment: its valid pages go where GC's copies go (the placement's
// current data block, or GC's own block with gc_destination = own), programmed natively.
#include "fw/ftl/demand/demand_ftl.h"

namespace ssd::fw {

std::uint32_t DemandFtl::cache_frontier() const {
  if (space_.frontier_room(slc_frontier_) > 0) return slc_frontier_;
  const std::uint32_t free = space_.free_segments(), threshold = params_.gc_threshold_segments;
  const std::uint32_t above_threshold = free > threshold ? free - threshold : 0;
  if (params_.slc.may_grow(slc_segments_, above_threshold, space_.groups()) &&
      space_.can_allocate(slc_frontier_, false))
    return slc_frontier_;
  // No room in the cache (its open segment is full, so every SLC segment is closed or being
  // reclaimed): fold first, if so asked.
  if (params_.slc.when_full == SlcCacheParams::WhenFull::Fold && slc_segments_ > 0) return kFoldFirst;
  return kNoFrontier;
}

std::uint32_t DemandFtl::fewest_valid_slc_segment() const {
  std::uint32_t best = SegmentSpace::kNoSegment;
  for (std::uint32_t group = 0; group < space_.groups(); ++group) {
    const std::uint32_t s = space_.fewest_valid_of_kind(group, kSlcKind);
    if (s != SegmentSpace::kNoSegment &&
        (best == SegmentSpace::kNoSegment || space_.valid_count(s) < space_.valid_count(best)))
      best = s;
  }
  return best;
}

// One victim at a time, as all of this FTL's GC: a reclaim under way is hurried (all its copies
// at once: a paced one would wait for host writes the fold holds back), and finish_gc comes back
// here when the cache is still needed (writes waiting for a fold, or an idle drive).
void DemandFtl::start_fold(FoldReason why) {
  if (gc_victim_ != SegmentSpace::kNoSegment) {
    issue_gc_reads(GcPacer::kAll);
    return;
  }
  const std::uint32_t victim = fewest_valid_slc_segment();
  if (victim == SegmentSpace::kNoSegment) return;  // only the open SLC segment, or none
  ++*(why == FoldReason::Idle ? slc_counts_.idle_folds : slc_counts_.foreground_folds);
  gc_fold_ = true;
  begin_gc(victim, true);
}

// The idle clock (fw/ftl/common/idle_clock.h) says the host went quiet: the closed SLC segments
// fold one after another (finish_gc starts the next) until the next host command.
void DemandFtl::fold_when_idle() { start_fold(FoldReason::Idle); }

void DemandFtl::slc_segment_reclaimed() {
  --slc_segments_;
  ++*slc_counts_.blocks_folded;
  ctx_.hal.note_state(slc_trace_, slc_segments_);
}

}  // namespace ssd::fw
