// PageMappingFtl's SLC cache: where a host page goes, folding, and the idle clock (slc_cache.h).
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
  if (!ticking_) arm_idle_tick();
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

// The idle clock, ticking every quarter of slc_idle_fold_ms while the cache holds data and
// nothing folds for idleness. A tick sees the host active when a command reached the FTL since
// the tick before (its activity lies in the past quarter) or when a host program is in flight or
// waits for room (its activity goes on past this tick); the drive is idle once 4, respectively 5,
// quiet ticks have followed, so folding starts between 1 and 1.25 times slc_idle_fold_ms after
// the host's last command or the completion of its last program, whichever is later. (A host
// whose writes are all queued behind flash work sends no more commands for a while: no idle drive.)
void PageMappingFtl::note_host_command() {
  ++host_commands_;
  idle_folding_ = false;
  if (!ticking_ && slc_blocks_total_ > 0) arm_idle_tick();
}

void PageMappingFtl::arm_idle_tick() {
  if (params_.slc.idle_fold_ns == 0) return;
  ticking_ = true;
  OpScheduler::Attribution no_request(ctx_.ops, LatencyTrail{});  // the clock is no host command's work
  OpRef tick = ctx_.ops.timer(params_.slc.idle_fold_ns / 4);
  ctx_.ops.on_complete(tick, [this](const HalResult&) { idle_tick(); });
  ctx_.ops.submit(tick);
}

void PageMappingFtl::idle_tick() {
  ticking_ = false;
  const bool working = !deferred_.empty() || ctx_.ops.host_programs_in_flight() > 0;
  if (working || host_commands_ != host_commands_at_tick_) {
    host_commands_at_tick_ = host_commands_;
    quiet_ticks_ = 0;
    quiet_ticks_needed_ = working ? 5 : 4;
  } else if (++quiet_ticks_ == quiet_ticks_needed_) {
    quiet_ticks_ = 0;
    idle_folding_ = true;
    // A paced reclaim waits for host writes to pace it: idle, it finishes at once, and the die's
    // folds follow it (finish_gc).
    hurry_gc();
    for (std::uint32_t plane = 0; plane < slc_blocks_.size(); plane += blocks_.geometry().planes_per_die)
      start_fold(plane, FoldReason::Idle);
    return;  // the next host command starts the clock again
  }
  if (slc_blocks_total_ > 0) arm_idle_tick();
}

}  // namespace ssd::fw
