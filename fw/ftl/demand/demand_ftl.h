// Demand-based page mapping: DFTL (Gupta et al., ASPLOS'09) and CAST (Xu et al., compact
// address mapping and parallel current data blocks). The full page map lives in translation
// pages on flash; SRAM holds the Global Translation Directory and a cache of mappings (DFTL's
// CMT, or CAST's CAMT of runs).
//
// Decisions are made at once, with the flash work expressed as dependent operations:
// - read hit: the data read. Miss: the translation page read, then the data read (the mapping
//   comes from that translation page); the entry enters the cache when the read completes
//   (evicting by the replacement policy; a dirty victim writes back its translation page).
// - write: the page goes to a current data block (DFTL: the one block; CAST: by address or
//   issuer); the cache takes the new mapping as dirty (lazy update). A miss also reads the
//   translation page to learn the old location, and with write_miss_waits the program waits for
//   it, as in DFTL's algorithm.
// - write-back of translation page v (batch update): every dirty cached entry of v, and GC's
//   pending updates for v, go into one read-modify-write of v into the current translation block.
// - GC, when free blocks fall below the threshold: one victim at a time, greedy or
//   cost-benefit, data and translation blocks alike. Data pages move to a current data block
//   (the one placement picks for them: DFTL's single block; CAST by address, or with GC as an
//   issuer of its own) as both papers do, or with gc_destination=own to a GC block of their own;
//   moved pages that are cached are updated in the cache, the others are held in an SRAM buffer
//   and written into their translation pages in one batch per translation page before the erase.
//   Translation pages move to the current translation block and the GTD follows them.
//   ftl.gc_pacing=paced (default) issues a data victim's copies in step with host writes (the
//   page-mapping FTL's rule: v / (S - v) per host page, steered by the free pages against
//   threshold x S, running on at the threshold, all at once at reserve + 1 or when writes wait);
//   threshold issues them all at once. Translation victims are always copied at once.
//
// Concurrency: a lookup's answer is taken from the firmware's state at decision time (cache,
// GC buffer, else the translation page's content), and the dependent data read is submitted at
// once, so the scheduler keeps its block from being erased until the read is done. Misses on a
// translation page share its in-flight read (share_translation_reads) unless the page was
// rewritten since that read was issued.
//
// A block here is a segment (see segment_space.h): by default one block per plane striped over
// the whole array, so "one current data block" still writes to every die in parallel.
//
// On TLC/QLC parts an SLC cache (ftl.slc_cache, off by default; fw/ftl/common/slc_cache.h and
// slc_cache.cpp here): host pages go to one SLC frontier of SLC-mode segments while the cache has
// room, whatever the placement policy would choose; the placement (CAST's ABL/IBL) decides where
// data settles, when GC folds it out of the cache into the current data blocks and when the cache
// is full and writes go native. Translation pages stay native.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "fw/ftl/common/deferred_writes.h"
#include "fw/ftl/common/ftl_counters.h"
#include "fw/ftl/common/gc_pacer.h"
#include "fw/ftl/common/idle_clock.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/ftl/demand/data_placement.h"
#include "fw/ftl/demand/demand_params.h"
#include "fw/ftl/demand/mapping_cache.h"
#include "fw/ftl/demand/translation_directory.h"
#include "fw/ftl/ftl.h"

namespace ssd::fw {

class DemandFtl : public Ftl, public SteadyStatePreload {
 public:
  // A cached (or buffered) mapping of a trimmed page, not yet in its translation page: unmapped.
  // Never a segment page; each use turns it into kNoSpn (unless_trimmed).
  static constexpr Spn kTrimmedSpn = kNoSpn - 1;
  static Spn unless_trimmed(Spn s) { return s == kTrimmedSpn ? kNoSpn : s; }

  DemandFtl(FtlContext& ctx, DemandVariant variant);

  Lpn logical_pages() const override { return params_.logical_pages; }
  OpRef read(const PageRead& page) override;
  WriteOutcome write(const PageWrite& page) override;
  // The mapping becomes kTrimmedSpn in the cache (dirty, a lookup's miss first loading the
  // translation page, as a write's does), so the translation page holds the page as unmapped after
  // its next write-back.
  OpRef trim(Lpn lpn) override;
  SegmentSpace* segment_space() override { return &space_; }
  bool relocate_metadata(Lpn marker) override;
  std::uint32_t close_word_lines(std::uint32_t word_line_pages, BlockId only) override;
  Ppn locate(Lpn lpn) const override;
  bool holds_valid_page(Ppn ppn) const override { return space_.holds_valid(ppn); }
  // The global translation directory (a 4-byte page a translation page) and the cached mapping
  // table whole (its budget): the map itself is on flash already, in the translation pages, and
  // the cached entries are what they do not yet hold; the translation pages written since are
  // found by the boot's scan.
  std::uint64_t checkpoint_bytes() const override {
    return std::uint64_t(directory_.pages()) * 4 + cache_.budget_bytes();
  }
  SteadyStatePreload* steady_state_preload() override { return this; }
  // All segments but the GC threshold's (data and translation pages alike).
  std::uint64_t pages_before_gc() const override {
    return std::uint64_t(space_.segments() - params_.gc_threshold_segments) * space_.segment_pages();
  }
  std::string check_metadata(const PageReader& read_page) const override;
  // Data segments laid out as random writes leave them, translation pages packed after them;
  // see steady_state_preload.cpp.
  std::string preload_random_steady_state(std::uint64_t seed, const std::function<Token(Lpn)>& token_of) override;
  // A fill of every logical page, one page at a time in order, made without operations; declines
  // when the cache cannot hold a translation page's runs. See sequential_fill_preload.cpp.
  bool preload_sequential_fill(const std::function<Token(Lpn)>& token_of) override;
  // Writes back every translation page with dirty cached runs or GC moves waiting in SRAM (as
  // far as the host path may write translation pages: the GC reserve stays GC's).
  std::uint64_t flush_mapping() override;
  // See mount.cpp.
  std::string mount(const MountImage& image, std::function<void()> settled) override;

  const DemandParams& params() const { return params_; }
  const MappingCache& cache() const { return cache_; }
  const SegmentSpace& space() const { return space_; }
  const TranslationDirectory& directory() const { return directory_; }

 private:
  enum Kind : std::uint8_t { kDataKind = 0, kTranslationKind = 1, kSlcKind = 2 };
  enum Path : std::uint8_t { kHostPath = 0, kGcPath = 1 };
  struct Load {
    OpRef read;
    Spn from = kNoSpn;
    std::shared_ptr<std::vector<Lpn>> lpns;
  };

  Spn mapping(Lpn lpn) const;  // current mapping, without charge
  // The mapping if SRAM holds it (the cache, else GC's buffer of moved pages), counting the hit
  // in `cache_hits` or gc_buffer_hits; kNoSpn on a miss, kTrimmedSpn for a page trimmed since its
  // translation page was written.
  Spn lookup_sram(Lpn lpn, std::uint64_t& cache_hits);
  OpRef load(Lpn lpn);         // read of lpn's translation page; invalid when it was never written
  void loaded(std::uint32_t vpn, Spn from, const std::vector<Lpn>& lpns, const HalResult& page);
  // Where a host page goes: the SLC cache (if it has room), else native_frontier; kFoldFirst
  // when the cache must fold first (slc_when_full = fold), kNoFrontier when there is no room.
  std::uint32_t writable_frontier(const HostRequestInfo& request);
  std::uint32_t native_frontier(const HostRequestInfo& request);  // the placement's current block
  OpRef place_write(const PageWrite& page, std::uint32_t frontier);
  void write_back(std::uint32_t vpn, Path path);
  // write_back's steps that the sequential-fill preload shares: the cache's dirty runs and GC's
  // buffered moves of translation page vpn into the directory; a page for its new version; the
  // version in place (valid, in the GTD, counted).
  void gather_updates(std::uint32_t vpn);
  Spn allocate_translation_page(std::uint32_t vpn);
  void commit_translation_page(std::uint32_t vpn, Spn at, Path path);
  void maybe_start_gc();
  void begin_gc(std::uint32_t victim, bool all_now);
  std::string space_state() const;
  // Whether a translation page may be written now: the host path never takes the blocks only GC
  // may use; GC's write-backs leave it the blocks its copies may need.
  bool may_write_translation(Path path) const;
  // A dirty run leaving the cache whose translation page may not be written now: its entries wait
  // in the GC buffer (consulted by every lookup) until a write-back of that page.
  void defer_write_back(Lpn run_first);
  void buffer_mapping(Lpn lpn, Spn spn);
  void issue_gc_reads(std::uint32_t count);  // up to `count` (GcPacer::kAll) more copies of the victim
  void pace_gc();                            // after a host page write
  void pace_write_backs();                   // after a host page write: GC's mapping updates owed
  void relocate_data(Spn old, const HalResult& page);
  void relocate_translation(Spn old, const HalResult& page);
  void finish_copies();
  void finish_gc();
  void retry_deferred();
  void refresh_gauges();

  // The SLC cache (slc_cache.cpp).
  static constexpr std::uint32_t kFoldFirst = 0xfffffffeu;
  std::uint32_t cache_frontier() const;  // the SLC frontier, kFoldFirst, or kNoFrontier (no cache room)
  enum class FoldReason : std::uint8_t { Idle, Foreground };
  void start_fold(FoldReason why);  // a GC under way is hurried instead (finish_gc looks again)
  void fold_when_idle();
  std::uint32_t fewest_valid_slc_segment() const;
  void slc_segment_reclaimed();

  static constexpr std::uint32_t kNoFrontier = 0xffffffffu;

  FtlContext ctx_;
  FtlCounters counts_;
  DemandParams params_;
  std::uint32_t gc_frontier_, translation_frontier_;
  MappingCache cache_;
  TranslationDirectory directory_;
  SegmentSpace space_;
  DataPlacement placement_;
  std::uint64_t now_ = 0;  // virtual clock: pages programmed
  Path path_ = kHostPath;  // who is causing cache evictions right now
  std::unordered_map<std::uint32_t, Load> loads_;  // shareable in-flight translation reads, per page
  std::unordered_map<Lpn, Spn> gc_buffer_;         // GC moves not yet in translation pages
  std::map<std::uint32_t, std::vector<Lpn>> gc_buffer_pages_;  // the same, per translation page
  TableRegion gc_buffer_table_;
  std::uint32_t gc_victim_ = SegmentSpace::kNoSegment;
  std::uint32_t gc_reads_left_ = 0;
  std::uint32_t gc_next_ = 0;        // offset in the victim of the next page to consider copying
  bool gc_all_issued_ = true;        // every copy of the victim issued (its completions may be due)
  GcPacer gc_pacer_;                 // paced: copies owed to the host's writes
  std::uint32_t gc_victim_valid_ = 0;  // the victim's valid pages when it was chosen
  // Paced: translation pages of GC's buffered moves written back per host page, and the credit.
  double write_back_rate_ = 0, write_back_credit_ = 0;
  std::uint32_t write_back_cursor_ = 0;  // paced write-backs sweep translation pages cyclically
  bool gc_fold_ = false;             // the victim is an SLC segment start_fold chose
  DeferredWrites deferred_;
  // The SLC cache: its frontier, the SLC segments holding data (open, closed or being folded).
  std::uint32_t slc_frontier_ = kNoFrontier;
  std::uint32_t slc_segments_ = 0;
  IdleClock idle_;
  SlcCounters slc_counts_;
  int slc_trace_ = -1;
  std::uint64_t &gc_runs_, &gc_copies_, &gc_superseded_, &read_hits_, &read_misses_, &write_hits_, &write_misses_,
      &gc_buffer_hits_, &shared_loads_, &stale_loads_, &deferred_write_backs_;
  double &capacity_gauge_, &entries_gauge_, &covered_gauge_, &run_length_gauge_, &coverage_bytes_gauge_;
  std::uint64_t* translation_reads_[2];
  std::uint64_t* translation_writes_[2];
  std::uint64_t* gc_runs_by_kind_[2];
  std::uint64_t* gc_copies_by_kind_[2];
};

}  // namespace ssd::fw
