#include "fw/ftl/demand/demand_ftl.h"

#include "fw/ftl/common/page_ops.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace ssd::fw {

namespace {
constexpr std::uint32_t kGcIssuer = 0xffffffffu;  // GC's writes, for issuer-based placement

std::vector<std::uint8_t> frontier_kinds(std::uint32_t data_blocks, bool slc_cache) {
  std::vector<std::uint8_t> kinds(data_blocks + 1, 0);  // current data blocks, then GC's
  kinds.push_back(1);                                   // the current translation block
  if (slc_cache) kinds.push_back(2);                    // the SLC cache's (make_slc_frontier)
  return kinds;
}
}  // namespace

DemandFtl::DemandFtl(FtlContext& ctx, DemandVariant variant)
    : ctx_(ctx),
      counts_(ctx.metrics),
      params_(DemandParams::parse(variant, ctx.options, ctx.hal.geometry(), ctx.bits_per_cell)),
      gc_frontier_(params_.current_blocks),
      translation_frontier_(params_.current_blocks + 1),
      cache_(ctx.hal, ctx.costs, params_.cache, ctx.metrics),
      directory_(ctx.hal, params_.logical_pages, params_.cache.boundary),
      space_(ctx.hal, ctx.costs, params_.segment_planes, frontier_kinds(params_.current_blocks, params_.slc.on()),
             params_.gc_reserve_segments),
      placement_(params_.placement, params_.current_blocks, params_.new_block_distance, 0),
      deferred_(ctx.ops, ctx.metrics.counter("deferred_writes")),
      idle_(ctx.ops, params_.slc.idle_fold_ns,
            {[this] { return slc_segments_ > 0; }, [this] { return !deferred_.empty(); },
             [this] { fold_when_idle(); }}),
      gc_runs_(ctx.metrics.counter("gc_runs")),
      gc_copies_(ctx.metrics.counter("gc_copies")),
      gc_superseded_(ctx.metrics.counter("gc_pages_superseded")),
      read_hits_(ctx.metrics.counter("cmt_read_hits")),
      read_misses_(ctx.metrics.counter("cmt_read_misses")),
      write_hits_(ctx.metrics.counter("cmt_write_hits")),
      write_misses_(ctx.metrics.counter("cmt_write_misses")),
      gc_buffer_hits_(ctx.metrics.counter("gc_buffer_hits")),
      shared_loads_(ctx.metrics.counter("translation_reads_shared")),
      stale_loads_(ctx.metrics.counter("translation_reads_stale")),
      deferred_write_backs_(ctx.metrics.counter("deferred_write_backs")),
      capacity_gauge_(ctx.metrics.gauge("cmt_capacity_entries")),
      entries_gauge_(ctx.metrics.gauge("cmt_entries")),
      covered_gauge_(ctx.metrics.gauge("cmt_covered_pages")),
      run_length_gauge_(ctx.metrics.gauge("cmt_average_run_length")),
      coverage_bytes_gauge_(ctx.metrics.gauge("cmt_coverage_bytes")) {
  translation_reads_[kHostPath] = &ctx.metrics.counter("translation_reads_host");
  translation_reads_[kGcPath] = &ctx.metrics.counter("translation_reads_gc");
  translation_writes_[kHostPath] = &ctx.metrics.counter("translation_writes_host");
  translation_writes_[kGcPath] = &ctx.metrics.counter("translation_writes_gc");
  gc_runs_by_kind_[kDataKind] = &ctx.metrics.counter("gc_runs_data");
  gc_runs_by_kind_[kTranslationKind] = &ctx.metrics.counter("gc_runs_translation");
  gc_copies_by_kind_[kDataKind] = &ctx.metrics.counter("gc_copies_data");
  gc_copies_by_kind_[kTranslationKind] = &ctx.metrics.counter("gc_copies_translation");
  if (cache_.table().memory != MemoryKind::Sram)
    throw FtlOptionError("ftl.cmt_bytes = " + std::to_string(params_.cache.budget_bytes) +
                         " does not fit in the controller's SRAM (the mapping cache must live there)");
  cache_.on_dirty_eviction = [this](Lpn lpn) {
    if (may_write_translation(path_))
      write_back(directory_.page_of(lpn), path_);
    else
      defer_write_back(lpn);
  };
  gc_buffer_table_ =
      ctx.hal.place_table("gc_mapping_buffer", std::uint64_t(space_.segment_pages()) * 8, MemoryKind::Sram);
  if (params_.slc.on()) {
    slc_frontier_ = translation_frontier_ + 1;
    space_.make_slc_frontier(slc_frontier_, kSlcKind, params_.slc.pages);
    slc_counts_ = SlcCounters::registered(ctx.metrics);
    slc_trace_ = ctx.hal.trace_state("ftl.slc_blocks", 32);
  }
  // The host data and its translation pages, the GC reserve and every frontier's open block.
  const std::uint64_t pages = std::uint64_t(params_.logical_pages) + directory_.pages();
  space_.set_capacity_need(static_cast<std::uint32_t>((pages + space_.segment_pages() - 1) / space_.segment_pages()) +
                           params_.gc_reserve_segments + params_.current_blocks + 2 + (params_.slc.on() ? 1 : 0));
  refresh_gauges();
}

Spn DemandFtl::mapping(Lpn lpn) const {
  if (Spn s = cache_.peek(lpn); s != kNoSpn) return unless_trimmed(s);
  if (auto it = gc_buffer_.find(lpn); it != gc_buffer_.end()) return unless_trimmed(it->second);
  return directory_.stored(lpn);
}

Ppn DemandFtl::locate(Lpn lpn) const {
  Spn s = kNoSpn;
  if (is_translation_lpn(lpn)) {
    const std::uint32_t vpn = lpn - kTranslationLpnBase;
    if (vpn < directory_.pages()) s = directory_.peek_location(vpn);
  } else if (lpn < params_.logical_pages) {
    s = mapping(lpn);
  }
  return s == kNoSpn ? kNoPpn : space_.to_ppn(s);
}

void DemandFtl::refresh_gauges() {
  capacity_gauge_ = cache_.capacity();
  entries_gauge_ = cache_.entries();
  covered_gauge_ = double(cache_.covered_pages());
  run_length_gauge_ = cache_.entries() ? double(cache_.covered_pages()) / cache_.entries() : 0.0;
  coverage_bytes_gauge_ = double(cache_.covered_pages()) * ctx_.hal.geometry().page_bytes;
}

OpRef DemandFtl::load(Lpn lpn) {
  const std::uint32_t vpn = directory_.page_of(lpn);
  const Spn at = directory_.location(vpn);
  if (at == kNoSpn) return OpRef{};  // the GTD knows the whole page was never written
  if (params_.share_translation_reads) {
    auto it = loads_.find(vpn);
    if (it != loads_.end() && it->second.from == at && ctx_.ops.alive(it->second.read)) {
      it->second.lpns->push_back(lpn);
      ++shared_loads_;
      return it->second.read;
    }
  }
  auto lpns = std::make_shared<std::vector<Lpn>>(1, lpn);
  OpScheduler::Purpose mapping(ctx_.ops, OpOrigin::Mapping);
  OpRef read = ctx_.ops.read(space_.to_ppn(at));
  ctx_.ops.on_complete(read, [this, vpn, at, lpns](const HalResult& page) { loaded(vpn, at, *lpns, page); });
  ++*translation_reads_[kHostPath];
  loads_[vpn] = Load{read, at, lpns};
  ctx_.ops.submit(read);
  return read;
}

void DemandFtl::loaded(std::uint32_t vpn, Spn from, const std::vector<Lpn>& lpns, const HalResult& page) {
  if (auto it = loads_.find(vpn); it != loads_.end() && it->second.from == from) loads_.erase(it);
  if (page.lpn != kTranslationLpnBase + vpn)
    throw std::logic_error("translation page " + std::to_string(vpn) + " read at segment page " +
                           std::to_string(from) + " found OOB logical page " + std::to_string(page.lpn));
  if (directory_.peek_location(vpn) != from) {  // rewritten meanwhile: the newer version is what counts
    ++stale_loads_;
    return;
  }
  if (page.token != directory_.checksum(vpn))
    throw std::logic_error("translation page " + std::to_string(vpn) + " read back token " +
                           std::to_string(page.token) + ", but its content's checksum is " +
                           std::to_string(directory_.checksum(vpn)));
  for (Lpn lpn : lpns) {
    if (cache_.peek(lpn) != kNoSpn || gc_buffer_.count(lpn)) continue;  // written or moved meanwhile
    const Spn stored = directory_.stored(lpn);
    if (stored != kNoSpn) cache_.set(lpn, stored, false);
  }
  refresh_gauges();
}

Spn DemandFtl::lookup_sram(Lpn lpn, std::uint64_t& cache_hits) {
  if (const Spn s = cache_.lookup(lpn); s != kNoSpn) {
    ++cache_hits;
    return s;
  }
  auto it = gc_buffer_.find(lpn);
  if (it == gc_buffer_.end()) return kNoSpn;
  ctx_.hal.touch(gc_buffer_table_, 0, 8, Access::Read);
  ++gc_buffer_hits_;
  return it->second;
}

OpRef DemandFtl::read(const PageRead& page) {
  const Lpn lpn = page.lpn;
  counts_.count_read(page);
  if (params_.slc.on() && !page.for_partial_write) idle_.note_command();
  Spn spn = lookup_sram(lpn, read_hits_);
  OpRef wait;
  if (spn == kNoSpn) {
    ++read_misses_;
    wait = load(lpn);
    spn = directory_.stored(lpn);
  }
  spn = unless_trimmed(spn);
  if (spn == kNoSpn) {  // never written (or trimmed): known from the GTD at once, the cache or the translation page
    ++counts_.unmapped_reads;
    *page.sink = kUnwrittenToken;
    if (!wait.valid()) return OpRef{};
    OpRef done = ctx_.ops.join();
    ctx_.ops.depend(wait, done);
    ctx_.ops.submit(done);
    return done;
  }
  OpRef r = ctx_.ops.read(space_.to_ppn(spn), page.sink);
  ctx_.ops.depend(wait, r);
  ctx_.ops.submit(r);
  return r;
}

OpRef DemandFtl::trim(Lpn lpn) {
  deferred_.drop(lpn);  // a write waiting for room came before the trim
  Spn old = lookup_sram(lpn, write_hits_);
  OpRef wait;
  if (old == kNoSpn) {
    ++write_misses_;
    wait = load(lpn);  // the mapping is in the translation page
    old = directory_.stored(lpn);
  }
  if (unless_trimmed(old) == kNoSpn) return wait;  // nothing mapped
  space_.invalidate(old, now_);
  gc_buffer_.erase(lpn);  // a GC move waiting for its write-back: the cache takes over its entry
  cache_.set(lpn, kTrimmedSpn, true);
  counts_.count_trimmed_page();
  refresh_gauges();
  maybe_start_gc();
  return wait;
}

std::uint32_t DemandFtl::writable_frontier(const HostRequestInfo& request) {
  if (params_.slc.on())
    if (const std::uint32_t cache = cache_frontier(); cache != kNoFrontier) return cache;
  return native_frontier(request);
}

std::uint32_t DemandFtl::native_frontier(const HostRequestInfo& request) {
  const std::uint32_t chosen = placement_.choose(request, space_);
  if (space_.can_allocate(chosen, false)) return chosen;
  for (std::uint32_t f = 0; f < params_.current_blocks; ++f)
    if (space_.can_allocate(f, false)) return f;
  return kNoFrontier;
}

WriteOutcome DemandFtl::write(const PageWrite& page) {
  if (!page.relocation) ++counts_.host_pages_written;
  if (params_.slc.on() && !page.relocation) idle_.note_command();
  const std::uint32_t frontier = deferred_.empty() ? writable_frontier(page.request) : kNoFrontier;
  if (frontier == kNoFrontier || frontier == kFoldFirst) {  // no room: wait for GC, which must not wait for host writes
    if (frontier == kFoldFirst) start_fold(FoldReason::Foreground);
    issue_gc_reads(GcPacer::kAll);
    return deferred_.defer(page);
  }
  return WriteOutcome{place_write(page, frontier), true};
}

OpRef DemandFtl::place_write(const PageWrite& page, std::uint32_t frontier) {
  const Lpn lpn = page.lpn;
  const bool slc = frontier == slc_frontier_;
  const std::uint64_t generation = space_.frontier_generation(frontier);
  const Spn spn = space_.allocate(frontier, false, now_++);
  if (!slc) {
    placement_.record(frontier, page.request, space_);
  } else if (space_.frontier_generation(frontier) != generation) {  // a segment more in the cache
    ++slc_segments_;
    ++*slc_counts_.blocks_opened;
    ctx_.hal.note_state(slc_trace_, slc_segments_);
    idle_.start();
  }
  Spn old = lookup_sram(lpn, write_hits_);
  gc_buffer_.erase(lpn);  // superseded, if GC had moved it: the cache takes over its entry
  OpRef wait;
  if (old == kNoSpn) {
    ++write_misses_;
    wait = load(lpn);  // the old location is in the translation page
    old = directory_.stored(lpn);
  }
  if (unless_trimmed(old) != kNoSpn) space_.invalidate(old, now_);
  space_.mark_valid(spn);
  path_ = kHostPath;
  cache_.set(lpn, spn, true);
  OpRef p = ctx_.ops.program(space_.to_ppn(spn), lpn, page.token, page.merge_with);
  if (slc) {
    ctx_.ops.program_in_slc_mode(p);
    ++*slc_counts_.pages_written;
  }
  ctx_.ops.depend(page.data_ready, p);
  if (params_.write_miss_waits) ctx_.ops.depend(wait, p);
  ctx_.ops.submit(p);
  ++counts_.flash_pages_programmed;
  refresh_gauges();
  maybe_start_gc();
  pace_gc();
  pace_write_backs();
  return p;
}

void DemandFtl::pace_write_backs() {
  OpScheduler::Background gc_work(ctx_.ops);
  write_back_credit_ += write_back_rate_;
  path_ = kGcPath;
  // In a cyclic sweep of the translation pages, so each is rewritten in the same order every
  // round and translation segments empty in the order they filled (restarting at the lowest
  // page after every victim mixed their ages: 18x the translation GC copies, +5% WAF on DFTL).
  for (; write_back_credit_ >= 1 && !gc_buffer_pages_.empty() && may_write_translation(kGcPath);
       write_back_credit_ -= 1) {
    auto next = gc_buffer_pages_.lower_bound(write_back_cursor_);
    if (next == gc_buffer_pages_.end()) next = gc_buffer_pages_.begin();
    write_back_cursor_ = next->first + 1;
    write_back(next->first, kGcPath);
  }
  path_ = kHostPath;
  if (gc_buffer_pages_.empty()) write_back_rate_ = write_back_credit_ = 0;
}

void DemandFtl::write_back(std::uint32_t vpn, Path path) {
  OpScheduler::Purpose mapping(ctx_.ops, OpOrigin::Mapping);
  gather_updates(vpn);
  const Spn old = directory_.location(vpn);
  const Spn at = allocate_translation_page(vpn);
  OpRef merge;  // read-modify-write: the entries not cached come from the old version
  if (old != kNoSpn) {
    merge = ctx_.ops.read(space_.to_ppn(old));
    ctx_.ops.submit(merge);
    ++*translation_reads_[path];
    space_.invalidate(old, now_);
  }
  OpRef p = ctx_.ops.program(space_.to_ppn(at), kTranslationLpnBase + vpn, directory_.checksum(vpn));
  ctx_.ops.depend(merge, p);
  ctx_.ops.submit(p);
  commit_translation_page(vpn, at, path);
}

// A translation page out of a block being emptied: written back now, as GC's write-backs are.
bool DemandFtl::relocate_metadata(Lpn marker) {
  if (!is_translation_lpn(marker) || marker - kTranslationLpnBase >= directory_.pages() ||
      !may_write_translation(kGcPath))
    return false;
  const Path saved = path_;
  path_ = kGcPath;
  write_back(marker - kTranslationLpnBase, kGcPath);
  path_ = saved;
  maybe_start_gc();
  return true;
}

std::uint64_t DemandFtl::flush_mapping() {
  std::set<std::uint32_t> pages;  // in order, so a flush writes the same way every run
  for (Lpn first : cache_.dirty_runs()) pages.insert(directory_.page_of(first));
  for (const auto& pending : gc_buffer_pages_) pages.insert(pending.first);
  std::uint64_t written = 0;
  for (std::uint32_t vpn : pages) {
    if (!may_write_translation(kHostPath)) break;  // the rest stays in SRAM, as deferred write-backs do
    write_back(vpn, kHostPath);
    ++written;
    maybe_start_gc();
  }
  refresh_gauges();
  return written;
}

void DemandFtl::gather_updates(std::uint32_t vpn) {
  const Lpn first = directory_.first_lpn(vpn);
  const Lpn count = std::min<Lpn>(directory_.entries_per_page(), params_.logical_pages - first);
  cache_.clean_range(first, count, [this](Lpn lpn, Spn spn) {
    ctx_.hal.charge_cycles(ctx_.costs.map_update, FirmwareWork::MapUpdate);
    directory_.store(lpn, unless_trimmed(spn));
  });
  if (auto pending = gc_buffer_pages_.find(vpn); pending != gc_buffer_pages_.end()) {
    for (Lpn lpn : pending->second) {
      auto it = gc_buffer_.find(lpn);
      if (it == gc_buffer_.end()) continue;  // overwritten by the host since
      ctx_.hal.charge_cycles(ctx_.costs.map_update, FirmwareWork::MapUpdate);
      ctx_.hal.touch(gc_buffer_table_, 0, 8, Access::Read);
      directory_.store(lpn, unless_trimmed(it->second));
      gc_buffer_.erase(it);
    }
    gc_buffer_pages_.erase(pending);
  }
}

Spn DemandFtl::allocate_translation_page(std::uint32_t vpn) {
  const Spn at = space_.allocate(translation_frontier_, true, now_++);
  if (at == kNoSpn)
    throw std::logic_error("no free block left for translation page " + std::to_string(vpn) + " (" + space_state() +
                           "; raise ftl.gc_reserve_segments or overprovisioning)");
  return at;
}

void DemandFtl::commit_translation_page(std::uint32_t vpn, Spn at, Path path) {
  space_.mark_valid(at);
  directory_.move(vpn, at);
  ++*translation_writes_[path];
  ++counts_.flash_pages_programmed;
}

bool DemandFtl::may_write_translation(Path path) const {
  if (path == kHostPath) return space_.can_allocate(translation_frontier_, false);
  const std::uint32_t copy_blocks = params_.gc_copies_to_current ? params_.current_blocks : 1;
  return space_.frontier_room(translation_frontier_) > 0 || space_.free_segments() > copy_blocks;
}

void DemandFtl::defer_write_back(Lpn run_first) {
  ++deferred_write_backs_;
  cache_.clean_range(run_first, 1, [this](Lpn lpn, Spn spn) { buffer_mapping(lpn, spn); });
}

// A mapping not yet in its translation page waits in the buffer (which every lookup consults),
// due for that page's next write-back; listed there once however often it changes meanwhile.
void DemandFtl::buffer_mapping(Lpn lpn, Spn spn) {
  ctx_.hal.touch(gc_buffer_table_, std::uint64_t(gc_buffer_.size() % space_.segment_pages()) * 8, 8, Access::Write);
  if (gc_buffer_.insert_or_assign(lpn, spn).second) gc_buffer_pages_[directory_.page_of(lpn)].push_back(lpn);
}

// For errors: where the free space went.
std::string DemandFtl::space_state() const {
  return "free blocks " + std::to_string(space_.free_segments()) + ", GC reserve " +
         std::to_string(params_.gc_reserve_segments) + ", GC threshold " + std::to_string(params_.gc_threshold_segments) +
         ", GC victim " + (gc_victim_ == SegmentSpace::kNoSegment ? std::string("none")
                           : std::to_string(gc_victim_) + " (" + std::to_string(gc_victim_valid_) + " valid pages)") +
         ", translation writes by the host path " + std::to_string(*translation_writes_[kHostPath]) + " and by GC " +
         std::to_string(*translation_writes_[kGcPath]) + ", deferred host writes " + std::to_string(deferred_.size());
}

void DemandFtl::maybe_start_gc() {
  // Paced GC runs on at the threshold itself (its rate follows the free space, in pace_gc).
  const std::uint32_t start_below = params_.gc_threshold_segments + (params_.gc_paced ? 1 : 0);
  if (gc_victim_ != SegmentSpace::kNoSegment || space_.free_segments() >= start_below) return;
  const std::uint32_t victim = space_.choose_victim(params_.victim_policy, now_);
  if (victim == SegmentSpace::kNoSegment) return;
  // A victim with no invalid page would free nothing: the drive is full of valid data. Wait
  // until an overwrite invalidates a page (every write calls back here).
  // (Static wear leveling's victim goes even so: its cold data leaves a young block.)
  if (space_.valid_count(victim) == space_.segment_pages() && !space_.wear_victim(victim)) return;
  // Translation victims are small work, copied at once; so is everything without pacing, or
  // when writes already wait for space (no host write would pace the copies), or on an idle
  // drive (the SLC cache's idle folding: none will come either).
  // (a victim with every page valid, wear leveling's, frees no page to pace against)
  begin_gc(victim, space_.kind(victim) == kTranslationKind || !params_.gc_paced || !deferred_.empty() ||
                       space_.valid_count(victim) == space_.segment_pages() || idle_.idle());
}

void DemandFtl::begin_gc(std::uint32_t victim, bool all_now) {
  gc_victim_ = victim;
  ctx_.hal.note_gc(1);
  space_.begin_reclaim(victim);
  const bool translation = space_.kind(victim) == kTranslationKind;
  ++gc_runs_;
  ++*gc_runs_by_kind_[translation ? kTranslationKind : kDataKind];
  gc_reads_left_ = 0;
  gc_next_ = 0;
  gc_all_issued_ = false;
  gc_victim_valid_ = space_.valid_count(victim);
  gc_pacer_.start(gc_victim_valid_, space_.segment_pages());
  if (all_now) issue_gc_reads(GcPacer::kAll);
}

// Paced (fw/ftl/common/gc_pacer.h) against the free pages: free segments and the room left in
// the open ones.
void DemandFtl::pace_gc() {
  if (gc_victim_ == SegmentSpace::kNoSegment || gc_all_issued_) return;
  const std::uint32_t S = space_.segment_pages();
  const double free_pages = double(space_.free_segments()) * S + double(space_.open_room());
  const std::uint32_t owed = gc_pacer_.owed(space_.free_segments(), params_.gc_reserve_segments,
                                            params_.gc_threshold_segments, S, free_pages);
  if (owed > 0) issue_gc_reads(owed);
}

void DemandFtl::issue_gc_reads(std::uint32_t count) {
  if (gc_victim_ == SegmentSpace::kNoSegment || gc_all_issued_) return;
  OpScheduler::Background gc_work(ctx_.ops);
  const bool translation = space_.kind(gc_victim_) == kTranslationKind;
  const Spn first = space_.first_spn(gc_victim_);
  const std::uint32_t pages = space_.segment_pages();
  for (; gc_next_ < pages && count > 0; ++gc_next_) {
    const Spn spn = first + gc_next_;
    if (!space_.is_valid(spn)) continue;
    OpRef r = ctx_.ops.read(space_.to_ppn(spn));
    ctx_.ops.on_complete(r, [this, spn, translation](const HalResult& page) {
      if (translation)
        relocate_translation(spn, page);
      else
        relocate_data(spn, page);
      if (--gc_reads_left_ == 0 && gc_all_issued_) finish_copies();
    });
    if (translation) ++*translation_reads_[kGcPath];
    ++gc_reads_left_;
    ctx_.ops.submit(r);
    --count;
  }
  while (gc_next_ < pages && !space_.is_valid(first + gc_next_)) ++gc_next_;
  if (gc_next_ < pages) return;
  gc_all_issued_ = true;
  if (gc_reads_left_ == 0) finish_copies();
}

void DemandFtl::relocate_data(Spn old, const HalResult& page) {
  OpScheduler::Background gc_work(ctx_.ops);
  if (!space_.is_valid(old)) {  // overwritten by the host since the victim was chosen
    ++gc_superseded_;
    return;
  }
  const Lpn lpn = page.lpn;
  if (lpn >= params_.logical_pages || mapping(lpn) != old)
    throw std::logic_error("GC: valid segment page " + std::to_string(old) + " has OOB logical page " +
                           std::to_string(lpn) + " whose mapping points elsewhere");
  // The current data block placement picks for this page (GC is an issuer of its own for
  // IBL), or GC's own block.
  // A fold's copy is the first time the page reaches a current block (the SLC cache took it from
  // the host): ABL records its address there, as a host write's, or every fold would choose the
  // same block, none having recorded anything.
  std::uint32_t frontier = gc_frontier_;
  const bool fold = params_.slc.on() && space_.kind(space_.segment_of(old)) == kSlcKind;
  if (params_.gc_copies_to_current) {
    const HostRequestInfo as_gc{kGcIssuer, 0, lpn};
    frontier = placement_.choose(as_gc, space_);
    if (params_.placement == PlacementPolicy::IssuerBased || fold) placement_.record(frontier, as_gc, space_);
  }
  const Spn spn = space_.allocate(frontier, true, now_++);
  if (spn == kNoSpn) throw std::logic_error("GC has no free block to relocate into (" + space_state() + ")");
  if (fold) ++*slc_counts_.fold_copies;
  space_.invalidate(old, now_);
  space_.mark_valid(spn);
  if (cache_.peek(lpn) != kNoSpn) {
    path_ = kGcPath;
    cache_.set(lpn, spn, true);
    path_ = kHostPath;
  } else {
    buffer_mapping(lpn, spn);
  }
  OpRef p = ctx_.ops.program(space_.to_ppn(spn), lpn, page.token);
  ctx_.ops.submit(p);
  ++gc_copies_;
  ++*gc_copies_by_kind_[kDataKind];
  ++counts_.flash_pages_programmed;
}

void DemandFtl::relocate_translation(Spn old, const HalResult& page) {
  OpScheduler::Background gc_work(ctx_.ops);
  if (!space_.is_valid(old)) {  // rewritten since the victim was chosen
    ++gc_superseded_;
    return;
  }
  const std::uint32_t vpn = page.lpn - kTranslationLpnBase;
  if (!is_translation_lpn(page.lpn) || vpn >= directory_.pages() || directory_.peek_location(vpn) != old)
    throw std::logic_error("GC: valid translation segment page " + std::to_string(old) + " has OOB logical page " +
                           std::to_string(page.lpn) + " that the GTD does not place there");
  const Spn at = space_.allocate(translation_frontier_, true, now_++);
  if (at == kNoSpn) throw std::logic_error("GC has no free block to move translation page " + std::to_string(vpn));
  space_.invalidate(old, now_);
  space_.mark_valid(at);
  directory_.move(vpn, at);
  OpRef p = ctx_.ops.program(space_.to_ppn(at), page.lpn, page.token);
  ctx_.ops.submit(p);
  ++*translation_writes_[kGcPath];
  ++gc_copies_;
  ++*gc_copies_by_kind_[kTranslationKind];
  ++counts_.flash_pages_programmed;
}

void DemandFtl::finish_copies() {
  OpScheduler::Background gc_work(ctx_.ops);
  // GC's mapping updates: one read-modify-write per translation page they touch. Batch
  // (gc_write_back=batch, or threshold GC): all before the erase. Paced (the default with paced
  // GC): spread over the host writes the victim's free pages take (S - v), so they drain as the
  // next victims fill the buffer, and erase at once (lookups see the buffer meanwhile); see
  // fw/ftl/demand/README.md for what it buys and costs.
  // A translation victim's moves go straight to the directory: it adds nothing to write back, and
  // the data victims' pending pages keep their pace. A fold's (start_fold: the cache full) and
  // every victim's on an idle drive go in a batch: no host writes are coming to pace them, and
  // back-to-back idle reclaims would otherwise pile their moves up in SRAM.
  if (params_.gc_paced && params_.gc_write_back_paced && !gc_fold_ && !idle_.idle()) {
    if (space_.kind(gc_victim_) != kTranslationKind)
      write_back_rate_ =
          double(gc_buffer_pages_.size()) / double(std::max<std::uint32_t>(1, space_.segment_pages() - gc_victim_valid_));
  } else {
    path_ = kGcPath;
    // All before the erase, as far as the blocks GC's next copies need allow; the rest wait in the
    // buffer (lookups see it) for the next victim's write-backs.
    while (!gc_buffer_pages_.empty() && may_write_translation(kGcPath))
      write_back(gc_buffer_pages_.begin()->first, kGcPath);
    path_ = kHostPath;
  }
  erase_segment(ctx_.ops, space_, gc_victim_, [this](const HalResult&) { finish_gc(); });
  refresh_gauges();
}

void DemandFtl::finish_gc() {
  const bool slc = params_.slc.on() && space_.kind(gc_victim_) == kSlcKind;
  space_.finish_reclaim(gc_victim_);
  if (slc) slc_segment_reclaimed();
  counts_.erases += space_.segment_planes();
  gc_victim_ = SegmentSpace::kNoSegment;
  gc_fold_ = false;
  ctx_.hal.note_gc(0);
  retry_deferred();
  maybe_start_gc();
  if (params_.slc.on() && idle_.idle()) start_fold(FoldReason::Idle);
  if (!deferred_.empty()) issue_gc_reads(GcPacer::kAll);  // writes still wait: nothing will pace it
}

void DemandFtl::retry_deferred() {
  deferred_.retry([this](const PageWrite& page) {
    const std::uint32_t frontier = writable_frontier(page.request);
    if (frontier == kFoldFirst) start_fold(FoldReason::Foreground);
    return frontier == kNoFrontier || frontier == kFoldFirst ? OpRef{} : place_write(page, frontier);
  });
}

std::string DemandFtl::check_metadata(const PageReader& read_page) const {
  for (std::uint32_t vpn = 0; vpn < directory_.pages(); ++vpn) {
    const Spn at = directory_.peek_location(vpn);
    if (at == kNoSpn) continue;
    const HalResult page = read_page(space_.to_ppn(at));
    if (page.lpn != kTranslationLpnBase + vpn)
      return "translation page " + std::to_string(vpn) + " is placed at physical page " +
             std::to_string(space_.to_ppn(at)) + " whose OOB names logical page " + std::to_string(page.lpn);
    if (page.token != directory_.recompute_checksum(vpn))
      return "translation page " + std::to_string(vpn) + " on flash has token " + std::to_string(page.token) +
             " but the entries it should hold sum to " + std::to_string(directory_.recompute_checksum(vpn));
  }
  for (Lpn lpn = 0; lpn < params_.logical_pages; ++lpn) {
    const Spn cached = unless_trimmed(cache_.peek(lpn));
    if (cached != kNoSpn && !cache_.peek_dirty(lpn) && cached != directory_.stored(lpn))
      return "logical page " + std::to_string(lpn) + " is cached clean at segment page " + std::to_string(cached) +
             " but its translation page says " + std::to_string(directory_.stored(lpn));
  }
  // GC's moves are written back when its victim's copies are done (paced GC: in step with the
  // host writes after it), so the buffer may hold moves at the end of a run; lookups consult it.
  // Each must still be due for write-back with its translation page.
  for (const auto& [lpn, spn] : gc_buffer_) {
    const auto due = gc_buffer_pages_.find(directory_.page_of(lpn));
    if (due == gc_buffer_pages_.end() || std::find(due->second.begin(), due->second.end(), lpn) == due->second.end())
      return "GC moved logical page " + std::to_string(lpn) + " to segment page " + std::to_string(spn) +
             " but no write-back of its translation page is due";
  }
  return "";
}

// Data, GC and translation frontiers alike: a translation page is what recovery reads first.
std::uint32_t DemandFtl::close_word_lines(std::uint32_t word_line_pages, BlockId only) {
  const std::uint32_t padded = close_frontiers(ctx_.ops, space_, word_line_pages, only);
  counts_.count_word_line_padding(padded);
  return padded;
}

}  // namespace ssd::fw
