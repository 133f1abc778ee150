// PageMappingFtl's SLC cache (fw/ftl/common/slc_cache.h): where a host page goes, and folding.
#include <vector>

#include "fw/ftl/page_mapping/page_mapping_ftl.h"

namespace ssd::fw {

std::uint32_t PageMappingFtl::host_frontier(std::uint32_t plane) const {
  const std::uint32_t native = blocks_.plane_frontier(plane, kHostStream);
  if (!params_.slc.on()) return native;
  const std::uint32_t slc = blocks_.plane_frontier(plane, kSlcStream);
  if (blocks_.frontier_room(slc) > 0) return slc;
  const std::uint32_t free = blocks_.free_segments_in_group(plane);
  const std::uint32_t above_threshold = free > gc_threshold_ ? free - gc_threshold_ : 0;
  if (params_.slc.may_grow(slc_blocks_[plane], above_threshold) && blocks_.can_allocate(slc, false)) return slc;
  // No room in the cache. A plane with SLC blocks to fold folds first, if so asked.
  if (params_.slc.when_full == SlcCacheParams::WhenFull::Fold && slc_blocks_[plane] > 0) return kFoldFirst;
  return native;
}

void PageMappingFtl::opened_slc_block(std::uint32_t plane) {
  ++slc_blocks_[plane];
  ++slc_blocks_total_;
  ++*slc_counts_.blocks_opened;
  ctx_.hal.note_state(slc_trace_, slc_blocks_total_);
  idle_.start();
}

void PageMappingFtl::slc_block_reclaimed(std::uint32_t plane) {
  --slc_blocks_[plane];
  --slc_blocks_total_;
  ++*slc_counts_.blocks_folded;
  ctx_.hal.note_state(slc_trace_, slc_blocks_total_);
}

bool PageMappingFtl::is_slc_page(Ppn ppn) const {
  return blocks_.kind(blocks_.segment_of(blocks_.to_spn(ppn))) == kSlcKind;
}

// A fold takes the plane's die, once none of its planes reclaims anything (a reclaim under way is
// hurried, all its copies at once, for a paced one would wait for host writes the fold holds
// back; the last one to finish looks again): every plane of it with a closed SLC block folds one,
// and their copies are issued a word line of each plane in turn, so the programs of the die's
// planes reach its queue side by side and run as multi-plane programs (folded one plane after
// another, a QLC die programmed each word line alone: 4x slower).
void PageMappingFtl::start_fold(std::uint32_t plane, FoldReason why) {
  const std::uint32_t planes = blocks_.geometry().planes_per_die, first = plane - plane % planes;
  bool reclaiming = false;
  for (std::uint32_t p = first; p < first + planes; ++p)
    if (gc_[p].running) {
      issue_copies(p, GcPacer::kAll);
      reclaiming = true;
    }
  if (reclaiming) return;
  std::vector<std::uint32_t> folding;
  for (std::uint32_t p = first; p < first + planes; ++p) {
    const std::uint32_t victim = blocks_.fewest_valid_of_kind(p, kSlcKind);
    if (victim == SegmentSpace::kNoSegment) continue;  // only the open SLC block, or none
    ++*(why == FoldReason::Idle ? slc_counts_.idle_folds : slc_counts_.foreground_folds);
    start_reclaim(p, victim, false);
    folding.push_back(p);
  }
  const std::uint32_t word_line = ctx_.bits_per_cell, pages = blocks_.geometry().pages_per_block;
  for (bool more = !folding.empty(); more;) {
    more = false;
    for (const std::uint32_t p : folding) {
      issue_copies(p, word_line);  // and the erase after the last copy
      more = more || gc_[p].next_page < pages;
    }
  }
}

// The idle clock (fw/ftl/common/idle_clock.h) says the host went quiet: a paced reclaim waits for
// host writes to pace it, so it finishes at once, and the dies' folds follow it (finish_gc); each
// die folds one SLC block after another until the next host command.
void PageMappingFtl::fold_when_idle() {
  hurry_gc();
  for (std::uint32_t plane = 0; plane < slc_blocks_.size(); plane += blocks_.geometry().planes_per_die)
    start_fold(plane, FoldReason::Idle);
}

}  // namespace ssd::fw
