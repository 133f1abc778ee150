#include "fw/ftl/hybrid/superblock.h"

#include "fw/ftl/common/page_ops.h"
#include "fw/ftl/hybrid/hybrid_params.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace ssd::fw {

SuperblockParams SuperblockParams::parse(SuperblockVariant variant, FtlOptions& o, const FlashGeometry& g) {
  const bool subgroup = variant == SuperblockVariant::kSubGroup;
  const std::string name = subgroup ? "subgroup" : "superblock";
  SuperblockParams p;
  // SubGroup's superblocks interleave over the channels (its point); SUPERBLOCK's are the papers'
  // single physical blocks.
  p.segment_planes = parse_hybrid_block_planes(o, g, subgroup ? HybridBlockDefault::kChannelStripe
                                                              : HybridBlockDefault::kPlaneBlock);
  p.concurrent_merges = parse_concurrent_merges(o, g);
  const double op = o.real("overprovisioning", 0.07, 0.0, 0.9, "share of blocks outside the superblocks (the pool)");
  p.superblock_blocks = static_cast<std::uint32_t>(
      o.integer("superblock_blocks", 4, 1, 64, "N: adjacent logical blocks per superblock"));
  p.extra_blocks = static_cast<std::uint32_t>(
      o.integer("extra_blocks", 2, 1, 64, "blocks a superblock may take from the pool beyond its N"));
  p.free_blocks = static_cast<std::uint32_t>(o.integer("free_blocks", 2, 1, 1024, "pool blocks only GC may take"));
  const double log_share = o.real("log_share", 0.03, 0.0, 0.5,
                                  "share of the blocks superblocks may hold beyond their N together: the update "
                                  "space, the other hybrids' log");
  if (subgroup) {
    p.hot_cold_host_writes = true;
    const std::uint32_t block_pages = p.segment_planes * g.pages_per_block;
    p.hot_window_pages = static_cast<std::uint32_t>(o.integer(
        "hot_window_pages", block_pages, 1, 1u << 30,
        "a host write of a page its superblock saw written within this many of its latest page writes is hot "
        "(default: one block's pages)"));
    const std::uint32_t module_groups = g.total_planes() / p.segment_planes;
    p.hot_module_groups = static_cast<std::uint32_t>(o.integer(
        "hot_module_groups", module_groups > 1 ? std::max<std::uint32_t>(1, module_groups / 4) : 0, 0,
        module_groups, "module groups the hot sub-group's blocks come from, the cold one's from the rest "
                       "(0: any, no static placement)"));
    if (p.hot_module_groups == module_groups && module_groups > 0) p.hot_module_groups = 0;  // nothing left for cold
  }
  o.reject_unread(name);
  p.blocks = g.total_planes() / p.segment_planes * g.blocks_per_plane;
  p.update_blocks = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(log_share * p.blocks)));
  const auto logical_blocks = static_cast<std::uint32_t>(std::floor(double(p.blocks) * (1.0 - op)));
  p.superblocks = logical_blocks / p.superblock_blocks;
  const std::uint32_t pool = p.blocks - p.superblocks * p.superblock_blocks;
  if (p.superblocks == 0 || pool < p.update_blocks + p.free_blocks + 2)
    throw FtlOptionError("ftl.overprovisioning = " + o.effective().at("overprovisioning") + " leaves a pool of " +
                         std::to_string(pool) + " blocks; " + name + " needs at least update blocks (ftl.log_share: " +
                         std::to_string(p.update_blocks) + ") + free_blocks + 2 = " +
                         std::to_string(p.update_blocks + p.free_blocks + 2) + " (and one superblock)");
  p.logical_pages = static_cast<Lpn>(std::uint64_t(p.superblocks) * p.superblock_blocks * p.segment_planes *
                                     g.pages_per_block);
  return p;
}

SuperblockFtl::SuperblockFtl(FtlContext& ctx, SuperblockVariant variant)
    : ctx_(ctx),
      counts_(ctx.metrics),
      params_(SuperblockParams::parse(variant, ctx.options, ctx.hal.geometry())),
      space_(ctx.hal, ctx.costs, params_.segment_planes, {}, 0),
      superblock_pages_(params_.superblock_blocks * space_.segment_pages()),
      superblocks_(params_.superblocks),
      deferred_(ctx.ops, ctx.metrics.counter("deferred_writes")),
      gc_runs_(ctx.metrics.counter("gc_runs")),
      gc_copies_(ctx.metrics.counter("gc_copies")),
      switch_merges_(ctx.metrics.counter("switch_merges")),
      partial_merges_(ctx.metrics.counter("partial_merges")),
      full_merges_(ctx.metrics.counter("full_merges")),
      pool_reclaims_(ctx.metrics.counter("pool_reclaims")),
      overdraws_(ctx.metrics.counter("update_space_overdraws")),
      open_block_fallbacks_(ctx.metrics.counter("open_block_fallbacks")),
      hot_writes_(ctx.metrics.counter("hot_host_writes")),
      cold_writes_(ctx.metrics.counter("cold_host_writes")),
      placement_fallbacks_(ctx.metrics.counter("placement_fallbacks")) {
  write_pointer_.assign(space_.segments(), 0);
  map_.assign(params_.logical_pages, kNoSpn);
  map_table_ = ctx.hal.place_table("superblock_page_map", std::uint64_t(params_.logical_pages) * 4, MemoryKind::Sram);
  if (params_.hot_cold_host_writes) {
    last_write_.assign(params_.logical_pages, 0);
    sb_writes_.assign(params_.superblocks, 0);
    stamp_table_ = ctx.hal.place_table("subgroup_write_stamps", std::uint64_t(params_.logical_pages) * 4, MemoryKind::Sram);
  }
  if (params_.hot_module_groups > 0)
    for (std::uint32_t m = 0; m < space_.groups(); ++m)
      module_erases_.push_back(&ctx.metrics.gauge("module_group_" + std::to_string(m) + "_erases"));
  space_.set_capacity_need(params_.superblocks * params_.superblock_blocks + params_.update_blocks +
                           params_.free_blocks + 2);
}

// Stamps count from 1, so 0 is "never written"; differences are taken modulo 2^32.
bool SuperblockFtl::hot_write(std::uint32_t sb, Lpn lpn) const {
  ctx_.hal.touch(stamp_table_, std::uint64_t(lpn) * 4, 4, Access::Read);
  const std::uint32_t last = last_write_[lpn];
  return last != 0 && sb_writes_[sb] + 1 - last <= params_.hot_window_pages;
}

void SuperblockFtl::record_host_write(std::uint32_t sb, Lpn lpn, bool hot) {
  ctx_.hal.touch(stamp_table_, std::uint64_t(lpn) * 4, 4, Access::Write);
  last_write_[lpn] = ++sb_writes_[sb];
  ++*(hot ? &hot_writes_ : &cold_writes_);
}

// SUPERBLOCK: from any module group. SubGroup: the hot sub-group's from the first
// hot_module_groups groups, the cold one's from the rest, round-robin; any group when those have
// no free block (counted).
std::uint32_t SuperblockFtl::take_block(bool cold) {
  if (params_.hot_module_groups == 0) return space_.take(0);
  const std::uint32_t first = cold ? params_.hot_module_groups : 0;
  const std::uint32_t count = cold ? space_.groups() - params_.hot_module_groups : params_.hot_module_groups;
  std::uint32_t& next = cold ? next_cold_group_ : next_hot_group_;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t group = first + (next + i) % count;
    const std::uint32_t block = space_.take_in_group(0, group);
    if (block != SegmentSpace::kNoSegment) {
      next = (next + i + 1) % count;
      return block;
    }
  }
  ++placement_fallbacks_;
  return space_.take(0);
}

Ppn SuperblockFtl::locate(Lpn lpn) const {
  if (lpn >= params_.logical_pages || map_[lpn] == kNoSpn) return kNoPpn;
  return space_.to_ppn(map_[lpn]);
}

OpRef SuperblockFtl::read(const PageRead& page) {
  counts_.count_read(page);
  ctx_.hal.charge_cycles(ctx_.costs.map_lookup, FirmwareWork::MapLookup);
  ctx_.hal.touch(map_table_, std::uint64_t(page.lpn) * 4, 4, Access::Read);
  const Spn spn = map_[page.lpn];
  return read_mapped_page(ctx_.ops, spn == kNoSpn ? kNoPpn : space_.to_ppn(spn), page.sink, counts_.unmapped_reads);
}

bool SuperblockFtl::may_take_block(std::uint32_t sb, bool for_gc, bool overdraw) const {
  const std::size_t held = superblocks_[sb].blocks.size();
  const std::size_t limit = params_.superblock_blocks + params_.extra_blocks;
  if (for_gc) return space_.free_segments() > 0 && held < limit + 1;  // GC may go one over, from the reserve
  // Beyond its N a superblock borrows update space, shared by all up to update_blocks.
  const bool within_n = held < params_.superblock_blocks;
  return space_.free_segments() > params_.free_blocks &&
         (within_n || (held < limit && (overdraw || borrowed_ < params_.update_blocks)));
}

// Every block the pool may lend is held by a superblock that cannot give one back: its valid pages
// fill its other blocks. With word-line safety that happens to superblocks whose logical pages are
// all valid: the padding left in their blocks keeps them from fitting back into N blocks.
std::runtime_error SuperblockFtl::out_of_space(Lpn lpn) const {
  std::uint32_t holders = 0;
  for (const Superblock& s : superblocks_) holders += s.blocks.size() > params_.superblock_blocks;
  const std::string padding = ctx_.ops.copy_word_line_pages() > 1 ? " and word-line padding" : "";
  return FtlOptionError(
      "superblock FTL: out of space for logical page " + std::to_string(lpn) + ": the pool of " +
      std::to_string(params_.blocks - params_.superblocks * params_.superblock_blocks) +
      " blocks (ftl.overprovisioning) is spent, " + std::to_string(holders) +
      " superblocks hold blocks beyond their N and none can reclaim one (their valid pages" + padding +
      " fill the rest); raise ftl.overprovisioning or lower ftl.superblock_blocks");
}

bool SuperblockFtl::has_room(std::uint32_t block) const {
  return block != kNone && write_pointer_[block] < space_.segment_pages() && !space_.retiring(block);
}

Spn SuperblockFtl::next_page(std::uint32_t block) {
  ctx_.hal.charge_cycles(ctx_.costs.page_allocate, FirmwareWork::PageAllocate);
  return space_.first_spn(block) + write_pointer_[block]++;
}

Spn SuperblockFtl::take_page(std::uint32_t sb, bool cold, bool for_gc, bool overdraw) {
  Superblock& s = superblocks_[sb];
  std::uint32_t& open = cold ? s.cold : s.hot;
  if (!has_room(open)) {
    if (!may_take_block(sb, for_gc, overdraw)) return kNoSpn;
    open = take_block(cold);
    s.blocks.push_back(open);
    if (s.blocks.size() > params_.superblock_blocks) ++borrowed_;
  }
  return next_page(open);
}

Spn SuperblockFtl::take_other_open_page(std::uint32_t sb, bool cold) {
  const std::uint32_t other = cold ? superblocks_[sb].hot : superblocks_[sb].cold;
  return has_room(other) ? next_page(other) : kNoSpn;
}

void SuperblockFtl::remap(Lpn lpn, Spn spn) {
  ctx_.hal.charge_cycles(ctx_.costs.map_update, FirmwareWork::MapUpdate);
  ctx_.hal.touch(map_table_, std::uint64_t(lpn) * 4, 4, Access::Write);
  if (map_[lpn] != kNoSpn) space_.invalidate(map_[lpn], now_);
  map_[lpn] = spn;
  space_.mark_valid(spn);
}

OpRef SuperblockFtl::trim(Lpn lpn) {
  deferred_.drop(lpn);  // a write waiting for its superblock's GC came before the trim
  ctx_.hal.charge_cycles(ctx_.costs.map_update, FirmwareWork::MapUpdate);
  ctx_.hal.touch(map_table_, std::uint64_t(lpn) * 4, 4, Access::Write);
  if (map_[lpn] == kNoSpn) return OpRef{};
  space_.invalidate(map_[lpn], now_);  // GC copies only valid pages
  map_[lpn] = kNoSpn;
  counts_.count_trimmed_page();
  return OpRef{};
}

WriteOutcome SuperblockFtl::write(const PageWrite& page) {
  if (!page.relocation) ++counts_.host_pages_written;
  // Serial: every write waits behind the oldest waiting one. Concurrent: only behind one of its
  // own superblock (which waits for that superblock's GC).
  const std::uint32_t key = params_.concurrent_merges ? superblock_of(page.lpn) : 0;
  if (params_.concurrent_merges ? deferred_.waiting(key) : !deferred_.empty()) return deferred_.defer(page, key);
  const OpRef p = try_place(page);
  return p.valid() ? WriteOutcome{p, true} : deferred_.defer(page, key);
}

OpRef SuperblockFtl::try_place(const PageWrite& page) {
  const std::uint32_t sb = superblock_of(page.lpn);
  // SubGroup classifies a write when it is placed (a deferred one again on retry) and records it
  // once placed.
  const bool cold = params_.hot_cold_host_writes && !hot_write(sb, page.lpn);
  Spn spn = take_page(sb, cold, false);
  if (spn == kNoSpn) {
    // Reclaim inside the superblock; if it has nothing to give, the pool's biggest borrower does.
    if (!superblocks_[sb].gc_running) start_gc(sb);
    if (!superblocks_[sb].gc_running) {  // borrowers of the pool, most blocks beyond N first
      std::vector<std::uint32_t> borrowers;
      for (std::uint32_t i = 0; i < superblocks_.size(); ++i)
        if (!superblocks_[i].gc_running && superblocks_[i].blocks.size() > params_.superblock_blocks)
          borrowers.push_back(i);
      std::stable_sort(borrowers.begin(), borrowers.end(), [this](std::uint32_t a, std::uint32_t b) {
        return superblocks_[a].blocks.size() > superblocks_[b].blocks.size();
      });
      for (std::uint32_t borrower : borrowers) {
        start_gc(borrower);
        if (superblocks_[borrower].gc_running) {
          ++pool_reclaims_;
          break;
        }
      }
    }
    if (gc_in_flight_ > 0) return OpRef{};
    // Nothing anywhere can be reclaimed: the update space is held by open blocks' unused pages.
    // The superblock's other open block takes the write if it has room (mixing hot and cold
    // data); else a block is overdrawn from the free pool rather than stall.
    spn = take_other_open_page(sb, cold);
    if (spn != kNoSpn) {
      ++open_block_fallbacks_;
    } else {
      spn = take_page(sb, cold, false, true);
      if (spn == kNoSpn) throw out_of_space(page.lpn);
      ++overdraws_;
    }
  }
  ++now_;
  if (params_.hot_cold_host_writes) record_host_write(sb, page.lpn, !cold);
  remap(page.lpn, spn);
  OpRef p = ctx_.ops.program(space_.to_ppn(spn), page.lpn, page.token, page.merge_with);
  ctx_.ops.depend(page.data_ready, p);
  ctx_.ops.submit(p);
  ++counts_.flash_pages_programmed;
  return p;
}

void SuperblockFtl::start_gc(std::uint32_t sb) {
  // Each running GC may still take one free block for its survivors; concurrent superblocks
  // start another only while the pool holds one more than those may take.
  if (params_.concurrent_merges && space_.free_segments() <= gc_in_flight_) return;
  Superblock& s = superblocks_[sb];
  // A reclaim must gain pages: with word-line safety the copies' last word line is padded before
  // the victim may be erased, which can cost up to a word line's pages less one; a victim with no
  // more invalid pages than that could be copied again and again for nothing (a livelock).
  const std::uint32_t word_line = ctx_.ops.copy_word_line_pages();
  const std::uint32_t padding = word_line > 1 ? space_.segment_planes() * word_line - 1 : 0;
  std::uint32_t victim = kNone, fewest = space_.segment_pages() - padding;
  ctx_.hal.charge_cycles(std::uint64_t(ctx_.costs.gc_scan_per_block) * s.blocks.size(), FirmwareWork::GcScan);
  for (std::uint32_t b : s.blocks) {
    // Any block but the open cold one (where survivors go): a partly written hot block counts
    // too, so the space two open blocks leave unused can always be won back.
    const bool open_cold = b == s.cold && write_pointer_[b] != space_.segment_pages();
    if (open_cold || write_pointer_[b] == 0) continue;
    if (space_.valid_count(b) < fewest) {
      fewest = space_.valid_count(b);
      victim = b;
    }
  }
  if (victim == kNone) return;  // no block would gain a page
  if (s.hot == victim) s.hot = kNone;  // the next page opens another
  if (s.cold == victim) s.cold = kNone;
  s.gc_running = true;
  ctx_.hal.note_gc(++gc_in_flight_);
  ++gc_runs_;
  OpScheduler::Purpose gc_work(ctx_.ops, OpOrigin::Gc);  // the waveform's die origin
  space_.begin_reclaim(victim);
  auto copies = std::make_shared<std::uint64_t>(0);
  const Spn first = space_.first_spn(victim);
  for (Spn spn = first; spn < first + space_.segment_pages(); ++spn) {
    if (!space_.is_valid(spn)) continue;
    OpRef r = ctx_.ops.read(space_.to_ppn(spn));
    ctx_.ops.on_complete(r, [this, sb, spn, copies](const HalResult& page) {
      if (!space_.is_valid(spn)) return;  // rewritten by the host meanwhile
      if (page.lpn >= params_.logical_pages || map_[page.lpn] != spn)
        throw std::logic_error("superblock GC: valid page " + std::to_string(spn) + " has OOB logical page " +
                               std::to_string(page.lpn) + " mapped elsewhere");
      const Spn to = take_page(sb, true, true);
      if (to == kNoSpn) throw std::logic_error("superblock GC: no block for the survivors of superblock " + std::to_string(sb));
      remap(page.lpn, to);
      OpScheduler::Purpose gc_copy(ctx_.ops, OpOrigin::Gc);
      OpRef p = ctx_.ops.program(space_.to_ppn(to), page.lpn, page.token);
      ctx_.ops.submit(p);
      ++*copies;
      ++gc_copies_;
      ++counts_.flash_pages_programmed;
    });
    ctx_.ops.submit(r);
  }
  counts_.erases += erase_segment(ctx_.ops, space_, victim, [this, sb, victim, copies](const HalResult&) {
    ++*(*copies ? &partial_merges_ : &switch_merges_);
    finish_gc(sb, victim);
  });
}

void SuperblockFtl::finish_gc(std::uint32_t sb, std::uint32_t victim) {
  Superblock& s = superblocks_[sb];
  if (s.blocks.size() > params_.superblock_blocks) --borrowed_;
  s.blocks.erase(std::find(s.blocks.begin(), s.blocks.end(), victim));
  write_pointer_[victim] = 0;
  space_.finish_reclaim(victim);
  for (std::uint32_t m = 0; m < module_erases_.size(); ++m) *module_erases_[m] = double(space_.erases_in_group(m));
  s.gc_running = false;
  ctx_.hal.note_gc(--gc_in_flight_);
  retry_deferred();
}

void SuperblockFtl::retry_deferred() {
  if (params_.concurrent_merges)
    deferred_.retry_each([this](const PageWrite& page, std::uint32_t&) { return try_place(page); });
  else
    deferred_.retry([this](const PageWrite& page) { return try_place(page); });
}

std::uint32_t SuperblockFtl::close_word_lines(std::uint32_t word_line_pages, BlockId only) {
  const std::uint32_t padded =
      close_write_pointers(ctx_.ops, space_, ctx_.costs, ctx_.hal, write_pointer_, word_line_pages, only);
  counts_.count_word_line_padding(padded);
  return padded;
}

}  // namespace ssd::fw
