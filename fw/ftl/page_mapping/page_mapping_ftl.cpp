#include "fw/ftl/page_mapping/page_mapping_ftl.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/narrow_division.h"
#include "fw/ftl/common/page_ops.h"

namespace ssd::fw {

PageMappingParams PageMappingParams::parse(FtlOptions& o, const FlashGeometry& g, std::uint32_t bits_per_cell) {
  PageMappingParams p;
  p.overprovisioning = o.real("overprovisioning", 0.07, 0.0, 0.9, "share of physical pages hidden from the host");
  p.gc_reserve_blocks =
      static_cast<std::uint32_t>(o.integer("gc_reserve_blocks", 1, 1, 64, "free blocks per plane only GC may take"));
  p.gc_threshold_blocks = static_cast<std::uint32_t>(o.integer(
      "gc_threshold_blocks", std::max<std::int64_t>(p.gc_reserve_blocks + 2, g.blocks_per_plane / 64),
      p.gc_reserve_blocks + 1, g.blocks_per_plane, "start GC on a plane when its free blocks fall below this"));
  p.allocation = o.choice_of<Allocation>(
      "allocation", "adaptive",
      {{"adaptive", Allocation::Adaptive},
       {"channel_first", Allocation::ChannelFirst},
       {"plane_first", Allocation::PlaneFirst}},
      "host write placement: adaptive (channel-first over dies; with more host programs in flight than dies, a "
      "die's planes take consecutive pages, so they run as one multi-plane program), channel_first (consecutive "
      "writes to different channels) or plane_first (always fill a die's planes together, dies channel-first)");
  p.partner_wait_ns = static_cast<std::uint32_t>(std::lround(
      1000 * o.real("partner_wait_us", 50, 0, 1000,
                    "adaptive: how long a die may hold the first program of a plane pair for its partner")));
  p.gc_pacing =
      o.choice_of<GcPacing>("gc_pacing", "paced", {{"paced", GcPacing::Paced}, {"threshold", GcPacing::Threshold}},
                            "when GC copies are issued: paced (in step with host writes, v/(P-v) per host "
                            "page) or threshold (the whole victim at once)");
  p.slc = SlcCacheParams::parse(o, g, bits_per_cell);
  o.reject_unread("page_mapping");
  p.logical_pages = static_cast<Lpn>(std::floor(double(g.total_pages()) * (1.0 - p.overprovisioning)));
  // Every plane needs room for its two frontiers, the GC threshold, and one victim's worth of
  // relocation beyond what the host may fill.
  const std::uint64_t spare_per_plane =
      std::uint64_t(g.blocks_per_plane) -
      std::uint64_t(std::ceil(double(p.logical_pages) / g.pages_per_block / g.total_planes()));
  if (spare_per_plane < p.gc_threshold_blocks + 2)
    throw FtlOptionError("ftl.overprovisioning = " + o.effective().at("overprovisioning") + " leaves " +
                         std::to_string(spare_per_plane) +
                         " spare blocks per plane; page_mapping needs at least gc_threshold_blocks + 2 = " +
                         std::to_string(p.gc_threshold_blocks + 2));
  // The SLC frontier, and the cache's floor full of data that has not been folded yet.
  if (p.slc.on() && spare_per_plane < p.gc_threshold_blocks + 3 + p.slc.blocks)
    throw FtlOptionError("ftl.slc_blocks = " + std::to_string(p.slc.blocks) + ": with ftl.overprovisioning = " +
                         o.effective().at("overprovisioning") + " a plane has " + std::to_string(spare_per_plane) +
                         " spare blocks; the SLC cache needs gc_threshold_blocks + 3 + slc_blocks = " +
                         std::to_string(p.gc_threshold_blocks + 3 + p.slc.blocks));
  return p;
}

PageMappingFtl::PageMappingFtl(FtlContext& ctx)
    : ctx_(ctx),
      counts_(ctx.metrics),
      params_(PageMappingParams::parse(ctx.options, ctx.hal.geometry(), ctx.bits_per_cell)),
      blocks_(ctx.hal, ctx.costs, SegmentSpace::PlaneBlocks{params_.slc.on() ? 3u : 2u}, params_.gc_reserve_blocks),
      logical_pages_(params_.logical_pages),
      gc_threshold_(params_.gc_threshold_blocks),
      deferred_(ctx.ops, ctx.metrics.counter("deferred_writes")),
      gc_runs_(ctx.metrics.counter("gc_runs")),
      gc_copies_(ctx.metrics.counter("gc_copies")),
      gc_superseded_(ctx.metrics.counter("gc_pages_superseded")),
      gc_catch_ups_(ctx.metrics.counter("gc_catch_ups")),
      idle_(ctx.ops, params_.slc.idle_fold_ns,
            {[this] { return slc_blocks_total_ > 0; }, [this] { return !deferred_.empty(); },
             [this] { fold_when_idle(); }}) {
  l2p_.assign(logical_pages_, kNoPpn);
  l2p_table_ = ctx.hal.place_table("l2p", std::uint64_t(logical_pages_) * sizeof(Ppn), MemoryKind::Sram);
  gc_.assign(blocks_.geometry().total_planes(), PlaneGc{});
  host_pages_.assign(blocks_.geometry().total_planes(), 0);
  // Per plane: its share of the host data (or the data it holds, if more), the free blocks GC
  // works at (its threshold, which holds the reserve) and the two frontiers. (With the reserve
  // alone, a plane driven to its end of life under skewed writes ran out of blocks for GC: a
  // victim whose erase fails gives nothing back.)
  const FlashGeometry& g = blocks_.geometry();
  const std::uint32_t overhead = gc_threshold_ + (params_.slc.on() ? 3 : 2);
  if (params_.slc.on()) {
    for (std::uint32_t plane = 0; plane < g.total_planes(); ++plane)
      blocks_.make_slc_frontier(blocks_.plane_frontier(plane, kSlcStream), kSlcKind, params_.slc.pages);
    slc_blocks_.assign(g.total_planes(), 0);
    slc_counts_ = SlcCounters::registered(ctx.metrics);
    slc_trace_ = ctx.hal.trace_state("ftl.slc_blocks", 32);
  }
  blocks_.set_capacity_need(
      static_cast<std::uint32_t>(std::ceil(double(logical_pages_) / g.pages_per_block / g.total_planes())) + overhead,
      overhead);
}

std::uint64_t PageMappingFtl::pages_before_gc() const {
  const FlashGeometry& g = blocks_.geometry();
  return std::uint64_t(g.total_planes()) * (g.blocks_per_plane - gc_threshold_) * g.pages_per_block;
}

OpRef PageMappingFtl::read(const PageRead& page) {
  const Lpn lpn = page.lpn;
  Token* sink = page.sink;
  counts_.count_read(page);
  if (params_.slc.on() && !page.for_partial_write) idle_.note_command();
  ctx_.hal.charge_cycles(ctx_.costs.map_lookup, FirmwareWork::MapLookup);
  ctx_.hal.touch(l2p_table_, std::uint64_t(lpn) * sizeof(Ppn), sizeof(Ppn), Access::Read);
  return read_mapped_page(ctx_.ops, l2p_[lpn], sink, counts_.unmapped_reads);
}

std::uint32_t PageMappingFtl::next_host_plane() {
  if (params_.allocation == PageMappingParams::Allocation::PlaneFirst) return next_plane_first();
  if (params_.allocation == PageMappingParams::Allocation::Adaptive) return next_adaptive();
  for (std::uint32_t tries = 0; tries < blocks_.geometry().total_planes(); ++tries) {
    std::uint32_t plane = blocks_.stripe_plane(stripe_cursor_++);
    if (has_host_room(plane)) return plane;
  }
  return kNoPlane;
}

bool PageMappingFtl::has_host_room(std::uint32_t plane) {
  const std::uint32_t frontier = host_frontier(plane);
  if (frontier == kFoldFirst) {
    start_fold(plane, FoldReason::Foreground);
    return false;
  }
  if (blocks_.can_allocate(frontier, false)) return true;
  // Skipped by the host, the plane's paced GC would get no writes to keep pace with.
  if (gc_[plane].running) issue_copies(plane, GcPacer::kAll);
  return false;
}

std::uint32_t PageMappingFtl::next_plane_first() {
  const FlashGeometry& g = blocks_.geometry();
  const std::uint32_t dies = g.total_dies(), planes = g.planes_per_die;
  for (std::uint32_t tries = 0; tries <= dies; ++tries) {
    const std::uint32_t first = blocks_.stripe_plane(remainder_of(die_cursor_, dies));  // plane 0 of the die
    std::uint32_t best = kNoPlane;
    for (std::uint32_t plane = first; plane < first + planes; ++plane)
      if (has_host_room(plane) && (best == kNoPlane || host_pages_[plane] < host_pages_[best])) best = plane;
    if (best == kNoPlane || ++die_round_ >= planes) {
      die_round_ = 0;
      ++die_cursor_;
    }
    if (best != kNoPlane) {
      ++host_pages_[best];
      return best;
    }
  }
  return kNoPlane;
}

std::uint32_t PageMappingFtl::frontier_pages(std::uint32_t frontier) const {
  return frontier != kFoldFirst && blocks_.slc_frontier(frontier) ? params_.slc.pages
                                                                  : blocks_.geometry().pages_per_block;
}

std::uint32_t PageMappingFtl::next_host_offset(std::uint32_t plane) const {
  std::uint32_t f = host_frontier(plane);
  if (f == kFoldFirst) f = blocks_.plane_frontier(plane, kHostStream);
  const std::uint32_t P = frontier_pages(f);
  return (P - blocks_.frontier_room(f)) % P;
}

std::uint32_t PageMappingFtl::next_adaptive() {
  const FlashGeometry& g = blocks_.geometry();
  const std::uint32_t planes = g.planes_per_die, dies = g.total_dies();
  if (pair_die_ != kNoDie) {  // a partner for the page just placed while the drive is saturated
    const std::uint32_t first = pair_die_ * planes;
    pair_die_ = kNoDie;
    std::uint32_t partners = 0, partner = kNoPlane;
    for (std::uint32_t plane = first + planes; plane-- > first;)
      if (next_host_offset(plane) == pair_offset_ && has_host_room(plane)) {
        partner = plane;  // the lowest
        ++partners;
      }
    if (partners > 1) pair_die_ = first / planes;  // more than two planes: keep filling the die
    if (partner != kNoPlane) return partner;
  }
  // Dies in channel-first order; with more host programs in flight than dies (the drive is
  // write-saturated), the die's level planes take the pages after this one (see the header).
  const bool saturated = planes > 1 && ctx_.ops.host_programs_in_flight() > dies;
  for (std::uint32_t tries = 0; tries < dies; ++tries) {
    const std::uint32_t first = blocks_.stripe_plane(remainder_of(die_cursor_++, dies));  // plane 0 of the die
    const std::uint32_t best = most_behind_plane(first);
    if (best == kNoPlane) continue;
    if (saturated) {
      pair_offset_ = next_host_offset(best);
      pair_die_ = first / planes;
      expect_partner_ = true;
    }
    return best;
  }
  return kNoPlane;
}

std::uint32_t PageMappingFtl::most_behind_plane(std::uint32_t first) {
  // The plane furthest behind in page offset, counted circularly from the first plane with room
  // (so the die's planes are pulled level and their pages can pair); the lowest on ties.
  const std::uint32_t P = frontier_pages(host_frontier(first));
  std::uint32_t best = kNoPlane, reference = 0;
  long best_lag = 0;
  for (std::uint32_t plane = first; plane < first + blocks_.geometry().planes_per_die; ++plane) {
    if (!has_host_room(plane)) continue;
    const std::uint32_t off = next_host_offset(plane);
    if (best == kNoPlane) reference = off;
    long lag = long((off + P - reference) % P);
    if (lag > long(P / 2)) lag -= long(P);
    if (best == kNoPlane || lag < best_lag) {
      best = plane;
      best_lag = lag;
    }
  }
  return best;
}

WriteOutcome PageMappingFtl::write(const PageWrite& page) {
  if (!page.relocation) ++counts_.host_pages_written;
  if (params_.slc.on() && !page.relocation) idle_.note_command();
  std::uint32_t plane = deferred_.empty() ? next_host_plane() : kNoPlane;
  if (plane == kNoPlane) {  // no room: wait for GC, which must not wait for more host writes
    hurry_gc();
    return deferred_.defer(page);
  }
  return WriteOutcome{place_write(plane, page), true};
}

OpRef PageMappingFtl::trim(Lpn lpn) {
  deferred_.drop(lpn);  // a write waiting for room came before the trim
  ctx_.hal.charge_cycles(ctx_.costs.map_update, FirmwareWork::MapUpdate);
  ctx_.hal.touch(l2p_table_, std::uint64_t(lpn) * sizeof(Ppn), sizeof(Ppn), Access::Read);
  const Ppn old = l2p_[lpn];
  if (old == kNoPpn) return OpRef{};
  blocks_.invalidate(blocks_.to_spn(old), 0);
  l2p_[lpn] = kNoPpn;
  ctx_.hal.touch(l2p_table_, std::uint64_t(lpn) * sizeof(Ppn), sizeof(Ppn), Access::Write);
  counts_.count_trimmed_page();
  after_overwrite(old);  // a plane whose GC waited for an invalid page may reclaim now
  return OpRef{};
}

OpRef PageMappingFtl::place_write(std::uint32_t plane, const PageWrite& page) {
  const std::uint32_t frontier = host_frontier(plane);  // has_host_room said it is no kFoldFirst
  const bool slc = blocks_.slc_frontier(frontier);
  const std::uint64_t generation = blocks_.frontier_generation(frontier);
  Ppn ppn = blocks_.to_ppn(blocks_.allocate(frontier, false, 0));
  if (slc && blocks_.frontier_generation(frontier) != generation) opened_slc_block(plane);
  const Ppn old = remap(page.lpn, ppn);
  OpRef p = ctx_.ops.program(ppn, page.lpn, page.token, page.merge_with);
  if (slc) {
    ctx_.ops.program_in_slc_mode(p);
    ++*slc_counts_.pages_written;
  }
  if (expect_partner_) ctx_.ops.expect_partner(p, params_.partner_wait_ns);
  expect_partner_ = false;
  ctx_.ops.depend(page.data_ready, p);
  ctx_.ops.submit(p);
  ++counts_.flash_pages_programmed;
  maybe_start_gc(plane);
  pace_gc(plane);
  after_overwrite(old);
  return p;
}

Ppn PageMappingFtl::remap(Lpn lpn, Ppn new_ppn) {
  ctx_.hal.charge_cycles(ctx_.costs.map_update, FirmwareWork::MapUpdate);
  ctx_.hal.touch(l2p_table_, std::uint64_t(lpn) * sizeof(Ppn), sizeof(Ppn), Access::Read);
  const Ppn old = l2p_[lpn];
  if (old != kNoPpn) blocks_.invalidate(blocks_.to_spn(old), 0);
  l2p_[lpn] = new_ppn;
  ctx_.hal.touch(l2p_table_, std::uint64_t(lpn) * sizeof(Ppn), sizeof(Ppn), Access::Write);
  blocks_.mark_valid(blocks_.to_spn(new_ppn));
  return old;
}

void PageMappingFtl::after_overwrite(Ppn old) {
  // A plane whose GC paused for lack of invalid pages may have something to reclaim now. Called
  // only once the new page's program is submitted: GC may pick that page's block at once.
  if (old != kNoPpn) maybe_start_gc(blocks_.geometry().plane_of_block(blocks_.geometry().block_of(old)));
}

void PageMappingFtl::maybe_start_gc(std::uint32_t plane) {
  // Planes are the space's groups, blocks its segments.
  // Paced GC runs on at the threshold itself (its rate follows the free space, below); stopping
  // there until a block is used up would leave every plane without GC at once, in bursts.
  const bool paced = params_.gc_pacing == PageMappingParams::GcPacing::Paced;
  if (gc_[plane].running || blocks_.free_segments_in_group(plane) > gc_threshold_ - (paced ? 0 : 1)) return;
  const std::uint32_t victim = blocks_.choose_victim_in_group(plane, VictimPolicy::Greedy, 0);
  if (victim == SegmentSpace::kNoSegment) return;  // nothing closed yet
  // A victim with no invalid page would free nothing (relocating it takes a whole block): the
  // plane is full of valid data. Wait until an overwrite invalidates one of its pages.
  // (Static wear leveling's victim goes even so: its cold data leaves a young block.)
  if (blocks_.valid_count(victim) == blocks_.geometry().pages_per_block && !blocks_.wear_victim(victim)) return;
  // Paced copies follow host writes; with writes already waiting for space none may come, a
  // victim with every page valid (wear leveling's) frees none to pace against, and an idle drive
  // (the SLC cache's idle folding) has none coming.
  start_reclaim(plane, victim,
                params_.gc_pacing == PageMappingParams::GcPacing::Threshold || !deferred_.empty() ||
                    blocks_.valid_count(victim) == blocks_.geometry().pages_per_block || idle_.idle());
}

void PageMappingFtl::start_reclaim(std::uint32_t plane, std::uint32_t victim, bool all_now) {
  ctx_.hal.note_gc(++gc_active_);
  ++gc_runs_;
  blocks_.begin_reclaim(victim);
  PlaneGc& gc = gc_[plane];
  gc = PlaneGc{true, blocks_.blocks(victim).front(), victim, 0, {}};
  gc.pacer.start(blocks_.valid_count(victim), blocks_.geometry().pages_per_block);
  if (all_now) issue_copies(plane, GcPacer::kAll);
}

void PageMappingFtl::pace_gc(std::uint32_t plane) {
  PlaneGc& gc = gc_[plane];
  const std::uint32_t P = blocks_.geometry().pages_per_block;
  if (!gc.running || gc.next_page >= P) return;
  // The plane's free pages: its free blocks and the room left in its two frontiers.
  const std::uint32_t free_blocks = blocks_.free_segments_in_group(plane);
  double free_pages = double(free_blocks) * P + blocks_.frontier_room(blocks_.plane_frontier(plane, kHostStream)) +
                      blocks_.frontier_room(blocks_.plane_frontier(plane, kGcStream));
  if (params_.slc.on()) free_pages += blocks_.frontier_room(blocks_.plane_frontier(plane, kSlcStream));
  const std::uint32_t owed = gc.pacer.owed(free_blocks, params_.gc_reserve_blocks, gc_threshold_, P, free_pages);
  if (owed == GcPacer::kAll) ++gc_catch_ups_;  // behind: catch up
  if (owed > 0) issue_copies(plane, owed);
}

void PageMappingFtl::hurry_gc() {
  for (std::uint32_t plane = 0; plane < gc_.size(); ++plane)
    if (gc_[plane].running) issue_copies(plane, GcPacer::kAll);
}

void PageMappingFtl::issue_copies(std::uint32_t plane, std::uint32_t count) {
  OpScheduler::Background gc_work(ctx_.ops);
  PlaneGc& gc = gc_[plane];
  const FlashGeometry& g = blocks_.geometry();
  if (gc.next_page >= g.pages_per_block) return;  // all issued, the erase too
  const Ppn first = g.first_page(gc.victim_block);
  for (; gc.next_page < g.pages_per_block && count > 0; ++gc.next_page) {
    const Ppn ppn = first + gc.next_page;
    if (!blocks_.is_valid(blocks_.to_spn(ppn))) continue;
    OpRef r = ctx_.ops.read(ppn);
    ctx_.ops.on_complete(r, [this, ppn](const HalResult& page) { relocate(ppn, page); });
    ctx_.ops.submit(r);
    --count;
  }
  // Past the last valid page: the erase, which the scheduler holds behind every read of the block.
  while (gc.next_page < g.pages_per_block && !blocks_.is_valid(blocks_.to_spn(first + gc.next_page))) ++gc.next_page;
  if (gc.next_page < g.pages_per_block) return;
  OpRef erase = ctx_.ops.erase(gc.victim_block);
  const std::uint32_t victim = gc.victim;
  ctx_.ops.on_complete(erase, [this, victim](const HalResult&) { finish_gc(victim); });
  ctx_.ops.submit(erase);
}

void PageMappingFtl::relocate(Ppn old_ppn, const HalResult& page) {
  if (page.lpn >= logical_pages_)
    throw std::logic_error("GC read of valid page " + std::to_string(old_ppn) + " found no logical page in its OOB");
  ctx_.hal.charge_cycles(ctx_.costs.map_lookup, FirmwareWork::MapLookup);
  ctx_.hal.touch(l2p_table_, std::uint64_t(page.lpn) * sizeof(Ppn), sizeof(Ppn), Access::Read);
  if (l2p_[page.lpn] != old_ppn) {  // overwritten by the host since the victim was chosen
    ++gc_superseded_;
    return;
  }
  const std::uint32_t plane = blocks_.geometry().plane_of_block(blocks_.geometry().block_of(old_ppn));
  OpScheduler::Background gc_work(ctx_.ops);
  const Spn spn = blocks_.allocate(blocks_.plane_frontier(plane, kGcStream), true, 0);
  const Ppn ppn = spn == kNoSpn ? kNoPpn : blocks_.to_ppn(spn);
  if (ppn == kNoPpn)
    throw std::logic_error("GC on plane " + std::to_string(plane) + " has no free block to relocate into (" +
                           std::to_string(blocks_.usable_in_group(plane)) + " usable blocks" +
                           (blocks_.read_only() ? ", read-only" : "") + ")");
  if (params_.slc.on() && is_slc_page(old_ppn)) ++*slc_counts_.fold_copies;
  const Ppn old = remap(page.lpn, ppn);
  OpRef p = ctx_.ops.program(ppn, page.lpn, page.token);
  ctx_.ops.submit(p);
  after_overwrite(old);
  ++gc_copies_;
  ++counts_.flash_pages_programmed;
}

void PageMappingFtl::finish_gc(std::uint32_t victim) {
  const std::uint32_t plane = blocks_.group_of(victim);
  const bool slc = params_.slc.on() && blocks_.kind(victim) == kSlcKind;
  blocks_.finish_reclaim(victim);
  if (slc) slc_block_reclaimed(plane);
  ++counts_.erases;
  gc_[plane].running = false;
  ctx_.hal.note_gc(--gc_active_);
  retry_deferred();
  maybe_start_gc(plane);
  if (idle_.idle()) start_fold(plane, FoldReason::Idle);
  if (!deferred_.empty()) hurry_gc();  // writes still wait: no host write will pace the others
}

void PageMappingFtl::retry_deferred() {
  deferred_.retry([this](const PageWrite& page) {
    const std::uint32_t plane = next_host_plane();
    return plane == kNoPlane ? OpRef{} : place_write(plane, page);
  });
}

std::uint32_t PageMappingFtl::close_word_lines(std::uint32_t word_line_pages, BlockId only) {
  const std::uint32_t padded = close_frontiers(ctx_.ops, blocks_, word_line_pages, only);
  counts_.count_word_line_padding(padded);
  return padded;
}

void PageMappingFtl::locate_range(Lpn first, std::uint32_t count, Ppn* out) const {
  const std::uint32_t mapped = first < logical_pages_ ? static_cast<std::uint32_t>(std::min<std::uint64_t>(count, logical_pages_ - first)) : 0;
  if (mapped) std::copy_n(l2p_.begin() + first, mapped, out);
  std::fill(out + mapped, out + count, kNoPpn);  // beyond the logical pages: the FTL's markers, never mapped here
}

void PageMappingFtl::holds_valid_pages(const Ppn* ppns, std::uint32_t count, std::uint8_t* out) const {
  const std::uint64_t total = blocks_.geometry().total_pages();
  for (std::uint32_t i = 0; i < count; ++i)
    out[i] = ppns[i] < total && blocks_.is_valid(blocks_.to_spn(ppns[i]));
}

}  // namespace ssd::fw
