#include "fw/ftl/hybrid/hybrid_ftl.h"

#include "fw/ftl/common/page_ops.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace ssd::fw {

HybridFtl::HybridFtl(FtlContext& ctx, const HybridParams& params)
    : ctx_(ctx),
      counts_(ctx.metrics),
      params_(params),
      space_(ctx.hal, ctx.costs, params.segment_planes, {}, 0),
      deferred_(ctx.ops, ctx.metrics.counter("deferred_writes")),
      switch_merges_(ctx.metrics.counter("switch_merges")),
      partial_merges_(ctx.metrics.counter("partial_merges")),
      full_merges_(ctx.metrics.counter("full_merges")),
      dead_blocks_(ctx.metrics.counter("dead_block_erases")),
      recycled_blocks_(ctx.metrics.counter("recycled_log_blocks")),
      merge_copies_(ctx.metrics.counter("merge_copies")),
      padding_pages_(ctx.metrics.counter("padding_pages")),
      full_merge_associativity_(ctx.metrics.counter("full_merge_associated_blocks")),
      in_place_writes_(ctx.metrics.counter("in_place_writes")),
      log_writes_(ctx.metrics.counter("log_writes")),
      max_associativity_(ctx.metrics.gauge("full_merge_max_associativity")),
      associativity_histogram_(ctx.metrics.histogram("full_merge_associativity")) {
  data_block_.assign(params_.logical_blocks, kNone);
  write_pointer_.assign(space_.segments(), 0);
  log_copy_.assign(params_.logical_pages, kNoSpn);
  page_lpn_.assign(space_.total_pages(), kNoLpn);
  deallocated_.assign(params_.logical_pages, false);
  block_map_table_ = ctx.hal.place_table("block_map", std::uint64_t(params_.logical_blocks) * 4, MemoryKind::Sram);
  log_map_table_ = ctx.hal.place_table(
      "log_page_map", std::uint64_t(params_.log_blocks + 1) * space_.segment_pages() * 4, MemoryKind::Sram);
  space_.set_capacity_need(params_.logical_blocks + std::max<std::uint32_t>(params_.log_blocks_needed, 1) + params_.free_blocks);
}

Spn HybridFtl::current(Lpn lpn) const {
  if (log_copy_[lpn] != kNoSpn) return log_copy_[lpn];
  const std::uint32_t block = data_block_[lbn_of(lpn)], off = offset_of(lpn);
  if (block == kNone || off >= write_pointer_[block]) return kNoSpn;
  const Spn spn = space_.first_spn(block) + off;
  return space_.is_valid(spn) ? spn : kNoSpn;
}

Ppn HybridFtl::locate(Lpn lpn) const {
  if (lpn >= params_.logical_pages) return kNoPpn;
  const Spn s = current(lpn);
  return s == kNoSpn ? kNoPpn : space_.to_ppn(s);
}

OpRef HybridFtl::read(const PageRead& page) {
  counts_.count_read(page);
  ctx_.hal.charge_cycles(ctx_.costs.map_lookup, FirmwareWork::MapLookup);
  ctx_.hal.touch(block_map_table_, std::uint64_t(lbn_of(page.lpn)) * 4, 4, Access::Read);
  const Spn spn = current(page.lpn);
  if (log_copy_[page.lpn] != kNoSpn) ctx_.hal.touch(log_map_table_, 0, 4, Access::Read);
  return read_mapped_page(ctx_.ops, spn == kNoSpn ? kNoPpn : space_.to_ppn(spn), page.sink, counts_.unmapped_reads);
}

WriteOutcome HybridFtl::write(const PageWrite& page) {
  if (!page.relocation) ++counts_.host_pages_written;
  on_host_write(page);
  if (!params_.concurrent_merges) {
    if (!deferred_.empty() || !merges_.empty()) return deferred_.defer(page);
    const OpRef p = try_place(page);
    if (!p.valid()) return deferred_.defer(page);
    return WriteOutcome{p, true};
  }
  const std::uint32_t lbn = lbn_of(page.lpn);
  if (deferred_.waiting(lbn)) return deferred_.defer(page, lbn);  // never ahead of its logical block's
  std::uint32_t awaits = DeferredWrites::kNoTag;
  const OpRef p = try_place(page, &awaits);
  return p.valid() ? WriteOutcome{p, true} : deferred_.defer(page, lbn, awaits);
}

OpRef HybridFtl::trim(Lpn lpn) {
  deferred_.drop(lpn);  // a write waiting for a merge or a free block came before the trim
  ctx_.hal.charge_cycles(ctx_.costs.map_update, FirmwareWork::MapUpdate);
  ctx_.hal.touch(block_map_table_, std::uint64_t(lbn_of(lpn)) * 4, 4, Access::Read);
  deallocated_[lpn] = true;
  const Spn old = current(lpn);
  if (old == kNoSpn) return OpRef{};
  // The copy is invalid from now on: a merge pads its offset with a page never valid (reads of it
  // return unwritten, as of a page never written), a log block left without valid pages dies (one erase).
  space_.invalidate(old, now_);
  on_invalidated(old, false);  // not a host rewrite (ADAPT counts only those for its second chances)
  if (log_copy_[lpn] != kNoSpn) {
    log_copy_[lpn] = kNoSpn;
    ctx_.hal.touch(log_map_table_, 0, 4, Access::Write);
  }
  counts_.count_trimmed_page();
  return OpRef{};
}

OpRef HybridFtl::try_place(const PageWrite& page, std::uint32_t* awaits) {
  const std::uint32_t lbn = lbn_of(page.lpn), off = offset_of(page.lpn);
  ctx_.hal.charge_cycles(ctx_.costs.map_lookup, FirmwareWork::MapLookup);
  ctx_.hal.touch(block_map_table_, std::uint64_t(lbn) * 4, 4, Access::Read);
  // In place: the data block's next page (a logical block's first page opens its data block).
  std::uint32_t data = data_block_[lbn];
  if (data == kNone && off == 0 && space_.free_segments() > params_.free_blocks) {
    data = space_.take(kData);
    data_block_[lbn] = data;
    ctx_.hal.touch(block_map_table_, std::uint64_t(lbn) * 4, 4, Access::Write);
  }
  if (data != kNone && write_pointer_[data] == off && !space_.retiring(data)) {
    ++in_place_writes_;
    return program_host_page(data, page);
  }
  for (std::uint32_t attempts = 0; attempts <= params_.log_blocks + 2; ++attempts) {
    const LogTarget t = log_target(page);
    if (t.block != kNone) {
      ++log_writes_;
      return program_host_page(t.block, page);
    }
    if (t.victim == kNone && merges_.empty() && pending_erases_ == 0)
      throw std::logic_error("hybrid FTL: no log block and no free block for logical page " +
                             std::to_string(page.lpn) + ", and nothing in flight that would free one");
    if (t.victim == kNone) return OpRef{};  // wait for a free block or a log slot
    if (params_.concurrent_merges && !may_start_merge(t.victim)) return OpRef{};  // wait for the running merges
    if (!start_merge(t.victim)) {  // wait for this merge
      if (awaits != nullptr) *awaits = t.victim;
      return OpRef{};
    }
  }
  throw std::logic_error("hybrid FTL: no log block for logical page " + std::to_string(page.lpn) +
                         " after merging every log block");
}

void HybridFtl::supersede(Lpn lpn, Spn now_at, bool by_host) {
  deallocated_[lpn] = false;
  const Spn old = current(lpn);
  if (old != kNoSpn) {
    space_.invalidate(old, now_);
    on_invalidated(old, by_host);
  }
  const bool in_log = space_.kind(space_.segment_of(now_at)) == kLog;
  log_copy_[lpn] = in_log ? now_at : kNoSpn;
  if (in_log) {
    page_lpn_[now_at] = lpn;
    ctx_.hal.touch(log_map_table_, 0, 4, Access::Write);
  }
  space_.mark_valid(now_at);
  ctx_.hal.charge_cycles(ctx_.costs.map_update, FirmwareWork::MapUpdate);
}

OpRef HybridFtl::program_host_page(std::uint32_t block, const PageWrite& page) {
  if (full(block)) throw std::logic_error("hybrid FTL: write into full block " + std::to_string(block));
  ctx_.hal.charge_cycles(ctx_.costs.page_allocate, FirmwareWork::PageAllocate);
  const Spn spn = space_.first_spn(block) + write_pointer_[block]++;
  ++now_;
  supersede(page.lpn, spn, true);
  OpRef p = ctx_.ops.program(space_.to_ppn(spn), page.lpn, page.token, page.merge_with);
  ctx_.ops.depend(page.data_ready, p);
  ctx_.ops.submit(p);
  ++counts_.flash_pages_programmed;
  if (space_.kind(block) == kLog) on_log_page(spn, false);
  return p;
}

std::uint32_t HybridFtl::open_log_block(bool beyond_cap) {
  if ((!beyond_cap && log_count_ >= params_.log_blocks) || space_.free_segments() == 0) return kNone;
  const std::uint32_t block = space_.take(kLog);
  ++log_count_;
  return block;
}

std::uint32_t HybridFtl::open_log_block_in(std::uint32_t group) {
  if (log_count_ >= params_.log_blocks) return kNone;
  const std::uint32_t block = space_.take_in_group(kLog, group);
  if (block != kNone) ++log_count_;
  return block;
}

void HybridFtl::copy_to_log(Spn from, std::uint32_t to) {
  const Lpn lpn = page_lpn_[from];
  if (full(to) || lpn == kNoLpn || current(lpn) != from)
    throw std::logic_error("hybrid FTL: bad second-chance copy of segment page " + std::to_string(from));
  OpScheduler::Purpose merge_work(ctx_.ops, OpOrigin::Gc);  // merges show as GC on the waveform's dies
  const Spn spn = space_.first_spn(to) + write_pointer_[to]++;
  auto buffer = std::make_shared<Token>(0);
  OpRef r = ctx_.ops.read(space_.to_ppn(from), buffer.get());
  OpRef p = ctx_.ops.program_copy(space_.to_ppn(spn), lpn, buffer.get());
  ctx_.ops.depend(r, p);
  ctx_.ops.on_complete(p, [buffer](const HalResult&) {});  // keeps the buffer until issued
  ctx_.ops.submit(r);
  supersede(lpn, spn, false);
  ctx_.ops.submit(p);
  ++merge_copies_;
  ++counts_.flash_pages_programmed;
  on_copy(spn);
  on_log_page(spn, true);
}

// --- merges ---

std::uint32_t HybridFtl::sole_owner(std::uint32_t block) const {
  std::uint32_t owner = kNone;
  const Spn first = space_.first_spn(block);
  for (std::uint32_t k = 0; k < write_pointer_[block]; ++k) {
    if (!space_.is_valid(first + k)) continue;
    const std::uint32_t lbn = lbn_of(page_lpn_[first + k]);
    if (owner != kNone && owner != lbn) return kNone;
    owner = lbn;
  }
  return owner;
}

bool HybridFtl::in_order_prefix(std::uint32_t block, std::uint32_t lbn) const {
  const Spn first = space_.first_spn(block);
  const Lpn base = Lpn(lbn) * space_.segment_pages();
  for (std::uint32_t k = 0; k < write_pointer_[block]; ++k)
    if (!space_.is_valid(first + k) || page_lpn_[first + k] != base + k) return false;
  return write_pointer_[block] > 0;
}

std::uint32_t HybridFtl::associativity(std::uint32_t block) const {
  std::set<std::uint32_t> lbns;
  const Spn first = space_.first_spn(block);
  for (std::uint32_t k = 0; k < write_pointer_[block]; ++k)
    if (space_.is_valid(first + k)) lbns.insert(lbn_of(page_lpn_[first + k]));
  return static_cast<std::uint32_t>(lbns.size());
}

bool HybridFtl::holds_page_of(std::uint32_t block, std::uint32_t lbn) const {
  const Spn first = space_.first_spn(block);
  for (std::uint32_t k = 0; k < write_pointer_[block]; ++k)
    if (space_.is_valid(first + k) && lbn_of(page_lpn_[first + k]) == lbn) return true;
  return false;
}

HybridFtl::MergeRef HybridFtl::find_merge(std::uint32_t victim) {
  return std::find_if(merges_.begin(), merges_.end(), [victim](const Merge& m) { return m.victim == victim; });
}

bool HybridFtl::merge_in_flight(std::uint32_t victim) {
  return find_merge(victim) != merges_.end();
}

bool HybridFtl::may_start_merge(std::uint32_t victim) const {
  if (merges_.empty() || space_.valid_count(victim) == 0 || merges_as_prefix(victim)) return true;  // no free block needed
  for (const Merge& m : merges_)
    if (!m.plan.empty()) return false;  // one already waits for free blocks: it goes first
  return space_.free_segments() >= associativity(victim) + params_.free_blocks;
}

bool HybridFtl::start_merge(std::uint32_t victim) {
  ctx_.hal.note_gc(static_cast<std::uint32_t>(merges_.size()) + 1);
  before_merge(victim);
  ctx_.hal.charge_cycles(std::uint64_t(ctx_.costs.gc_scan_per_block) * write_pointer_[victim], FirmwareWork::GcScan);
  if (space_.valid_count(victim) == 0) {  // dead: one erase, or kept by the scheme
    on_log_block_gone(victim);
    if (recycles(victim)) {
      ++recycled_blocks_;
      ctx_.hal.note_gc(static_cast<std::uint32_t>(merges_.size()));
      return true;
    }
    ++dead_blocks_;
    merges_.push_back(Merge{victim, {}, false});
    erase_log_block(victim);
    return false;
  }
  const std::uint32_t owner = sole_owner(victim);
  // (A block holding a grown bad block is written no further: a full merge moves its pages.)
  if (owner != kNone && !space_.retiring(victim) && in_order_prefix(victim, owner)) {
    on_log_block_gone(victim);
    if (full(victim)) {
      ++switch_merges_;
      switch_to_data(victim, owner);
    } else {
      ++partial_merges_;
      partial_merge(victim, owner);
    }
    ctx_.hal.note_gc(static_cast<std::uint32_t>(merges_.size()));
    return true;
  }
  // Full merge: every logical block with a valid page in the victim gets a new data block.
  std::set<std::uint32_t> associated;
  const Spn first = space_.first_spn(victim);
  for (std::uint32_t k = 0; k < write_pointer_[victim]; ++k)
    if (space_.is_valid(first + k)) associated.insert(lbn_of(page_lpn_[first + k]));
  ++full_merges_;
  full_merge_associativity_ += associated.size();
  max_associativity_ = std::max<double>(max_associativity_, double(associated.size()));
  associativity_histogram_.record(associated.size());
  on_log_block_gone(victim);
  const MergeRef merge = merges_.insert(merges_.end(), Merge{victim, {associated.rbegin(), associated.rend()}, true});
  if (continue_full_merge(merge)) return true;  // a recycled victim ends the merge at once: the log has room again
  merge->starting = false;
  return false;
}

void HybridFtl::copy_pages(std::uint32_t lbn, std::uint32_t block, std::uint32_t from) {
  OpScheduler::Purpose merge_work(ctx_.ops, OpOrigin::Gc);
  const Lpn base = Lpn(lbn) * space_.segment_pages();
  auto kept = [this](Lpn lpn) { return log_copy_[lpn] != kNoSpn && keeps_log_copy(log_copy_[lpn]); };
  std::uint32_t last = kNone;  // last offset with a copy to merge
  for (std::uint32_t off = space_.segment_pages(); off-- > from;)
    if (current(base + off) != kNoSpn && !kept(base + off)) {
      last = off;
      break;
    }
  if (last == kNone) return;
  auto buffer = std::make_shared<std::vector<Token>>(last + 1, kUnwrittenToken);
  OpRef done = ctx_.ops.join();
  for (std::uint32_t off = from; off <= last; ++off) {
    const Lpn lpn = base + off;
    const Spn src = current(lpn);
    if (write_pointer_[block] != off)
      throw std::logic_error("hybrid FTL: merge into block " + std::to_string(block) + " out of order");
    const Spn dst = space_.first_spn(block) + write_pointer_[block]++;
    OpRef p;
    // Stays in its log block, or trimmed: padding, never valid here.
    if ((src != kNoSpn && kept(lpn)) || (src == kNoSpn && deallocated_[lpn])) {
      p = ctx_.ops.program(space_.to_ppn(dst), lpn, kUnwrittenToken);
      ++padding_pages_;
      ctx_.ops.depend(p, done);
      ctx_.ops.submit(p);
      ++counts_.flash_pages_programmed;
      continue;
    }
    if (src == kNoSpn) {  // never written: padding keeps the block's pages in program order
      p = ctx_.ops.program(space_.to_ppn(dst), lpn, kUnwrittenToken);
      ++padding_pages_;
    } else {
      OpRef r = ctx_.ops.read(space_.to_ppn(src), &(*buffer)[off]);
      p = ctx_.ops.program_copy(space_.to_ppn(dst), lpn, &(*buffer)[off]);
      ctx_.ops.depend(r, p);
      ctx_.ops.submit(r);
      space_.invalidate(src, now_);
      on_invalidated(src, false);
      ++merge_copies_;
      on_copy(dst);
    }
    log_copy_[lpn] = kNoSpn;
    space_.mark_valid(dst);
    ctx_.ops.depend(p, done);
    ctx_.ops.submit(p);
    ++counts_.flash_pages_programmed;
  }
  ctx_.ops.on_complete(done, [buffer](const HalResult&) {});  // the copies' tokens live until then
  ctx_.ops.submit(done);
}

void HybridFtl::switch_to_data(std::uint32_t block, std::uint32_t lbn) {
  const std::uint32_t old = data_block_[lbn];
  const Lpn base = Lpn(lbn) * space_.segment_pages();
  for (std::uint32_t k = 0; k < write_pointer_[block]; ++k) log_copy_[base + k] = kNoSpn;
  space_.set_kind(block, kData);
  data_block_[lbn] = block;
  --log_count_;
  ctx_.hal.touch(block_map_table_, std::uint64_t(lbn) * 4, 4, Access::Write);
  if (old != kNone) retire_data_block(old);
}

void HybridFtl::partial_merge(std::uint32_t block, std::uint32_t lbn) {
  copy_pages(lbn, block, write_pointer_[block]);
  switch_to_data(block, lbn);
}

bool HybridFtl::continue_full_merge(MergeRef merge) {
  while (!merge->plan.empty() && space_.free_segments() > 0) {
    const std::uint32_t lbn = merge->plan.back();
    merge->plan.pop_back();
    // With concurrent merges a later merge may have merged this logical block already, or host
    // writes superseded its pages in the victim: nothing of it is left to merge.
    if (params_.concurrent_merges && !holds_page_of(merge->victim, lbn)) continue;
    merge_logical_block(lbn);
  }
  const std::uint32_t victim = merge->victim;
  if (!merge->plan.empty() || space_.state(victim) == SegmentState::Reclaiming) return false;
  if (space_.valid_count(victim) != 0)
    throw std::logic_error("hybrid FTL: full merge left valid pages in log block " + std::to_string(victim));
  if (recycles(victim)) {  // kept, not erased: the merge ends here
    ++recycled_blocks_;
    if (merge->starting)
      end_merge(merge);  // inside start_merge: its caller places the page (no retry from within)
    else
      merge_done(victim);
    return true;
  }
  erase_log_block(victim);
  return false;
}

void HybridFtl::feed_waiting_merges() {
  std::vector<std::uint32_t> waiting;  // by victim: continuing one may end another
  for (const Merge& m : merges_)
    if (!m.plan.empty()) waiting.push_back(m.victim);
  for (std::uint32_t victim : waiting) {
    if (space_.free_segments() == 0) return;
    if (const MergeRef m = find_merge(victim); m != merges_.end()) continue_full_merge(m);
  }
}

void HybridFtl::merge_logical_block(std::uint32_t lbn) {
  const std::uint32_t old = data_block_[lbn];
  const std::uint32_t block = space_.take(kData);
  copy_pages(lbn, block, 0);
  data_block_[lbn] = block;
  ctx_.hal.touch(block_map_table_, std::uint64_t(lbn) * 4, 4, Access::Write);
  if (old != kNone) retire_data_block(old);
}

void HybridFtl::retire_data_block(std::uint32_t block) {
  if (space_.valid_count(block) != 0)
    throw std::logic_error("hybrid FTL: data block " + std::to_string(block) + " retired with valid pages");
  space_.begin_reclaim(block);
  ++pending_erases_;
  OpScheduler::Purpose merge_work(ctx_.ops, OpOrigin::Gc);
  counts_.erases += erase_segment(ctx_.ops, space_, block, [this, block](const HalResult&) {
    block_erased(block);
    if (params_.concurrent_merges) {
      feed_waiting_merges();  // full merges may be waiting for this free block
      retry_deferred();       // and writes
    } else if (!merges_.empty()) {
      continue_full_merge(merges_.begin());  // the merge may be waiting for this free block
    } else {
      retry_deferred();  // or writes
    }
  });
}

void HybridFtl::erase_log_block(std::uint32_t block) {
  OpScheduler::Purpose merge_work(ctx_.ops, OpOrigin::Gc);
  space_.begin_reclaim(block);
  ++pending_erases_;
  counts_.erases += erase_segment(ctx_.ops, space_, block, [this, block](const HalResult&) {
    block_erased(block);
    --log_count_;
    merge_done(block);
  });
}

void HybridFtl::block_erased(std::uint32_t block) {
  --pending_erases_;
  const Spn first = space_.first_spn(block);
  std::fill(page_lpn_.begin() + first, page_lpn_.begin() + first + space_.segment_pages(), kNoLpn);
  write_pointer_[block] = 0;
  space_.finish_reclaim(block);
}

void HybridFtl::end_merge(MergeRef merge) {
  merges_.erase(merge);
  ctx_.hal.note_gc(static_cast<std::uint32_t>(merges_.size()));
}

void HybridFtl::merge_done(std::uint32_t victim) {
  const MergeRef merge = find_merge(victim);
  if (merge == merges_.end()) throw std::logic_error("hybrid FTL: no merge of log block " + std::to_string(victim));
  end_merge(merge);
  if (params_.concurrent_merges) feed_waiting_merges();  // the victim's block is free again
  if (mount_settled_) return next_mount_merge();  // a mount's merge: the next one (no host write waits)
  retry_deferred();
}

void HybridFtl::retry_deferred() {
  if (!params_.concurrent_merges) {
    deferred_.retry([this](const PageWrite& page) { return merges_.empty() ? try_place(page) : OpRef{}; });
    return;
  }
  deferred_.retry_each([this](const PageWrite& page, std::uint32_t& awaits) {
    if (awaits != DeferredWrites::kNoTag && merge_in_flight(awaits)) return OpRef{};  // its merge runs on
    awaits = DeferredWrites::kNoTag;
    return try_place(page, &awaits);
  });
}

std::uint32_t HybridFtl::close_word_lines(std::uint32_t word_line_pages, BlockId only) {
  const std::uint32_t padded =
      close_write_pointers(ctx_.ops, space_, ctx_.costs, ctx_.hal, write_pointer_, word_line_pages, only);
  counts_.count_word_line_padding(padded);
  return padded;
}

}  // namespace ssd::fw
