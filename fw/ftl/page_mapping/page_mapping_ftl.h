// Pure page mapping: the "ideal page mapping" baseline of the seed papers.
//
// - Full L2P table (4 bytes per logical page) placed in SRAM when it fits, else in DRAM.
// - Capacity: logical pages = physical pages x (1 - ftl.overprovisioning).
// - Two write frontiers per plane (host, GC); GC copies stay in the victim's plane. Host writes
//   go where ftl.allocation says, skipping planes that have no block left for host data:
//   adaptive (default): channel_first's order over dies, each die's plane furthest behind in
//     page offset first (so its planes stay level), as long as no more host programs are in
//     flight than there are dies. With more in flight (the drive is write-saturated, so the die
//     is busy) the die's level planes take the writes after it: the programs queue side by side
//     and run as one multi-plane program, the first carrying a hint that its partner follows
//     (ftl.partner_wait_us, default 50: the die may hold it that long; a partner takes a host
//     round trip, and 20 us was too short at QD64). Fresh default drive, 8 KiB random writes:
//     QD64 on 8x4 dies 692 MB/s (bound 732) against 375 channel-first, and never less with
//     more dies (tests/integration/test_channel_sweep.cpp); QD16 and below as channel-first.
//     Choices made here: saturation is judged on the FTL's own host programs, not all programs
//     (GC copies kept dies busy on small drives and paired host writes behind them: -9% at QD4
//     on the tiny platform); an unsaturated write goes to the next die in order even when
//     another is idle (preferring idle dies cost MSR traces 1-4% mean latency). The price:
//     pairs put a request's consecutive pages on one die, so on bursty MSR traces (default
//     platform, --fold) the mean latency is 0-3% above channel_first (hm_0 537 vs 520 us,
//     rsrch_1 1,315 vs 1,307, proj_0 875 vs 874); with GC, 50% 8 KiB reads after fill+steady
//     at QD8/QD32 it is level with channel_first (39.3 vs 39.1, 67.3 vs 67.3 MB/s), and on the
//     4-die tiny platform (4 KiB, 50% reads, fill+random:0.5) at QD4/8/32 -0.4%/-2.4%/+0.4%.
//   channel_first: consecutive writes to different channels, then ways, dies and planes (a
//     die's planes are paired only when its queue happens to hold programs for each);
//   plane_first: consecutive writes fill the planes of one die (planes_per_die writes, each to
//     the die's plane with the fewest host pages so far, so their page offsets line up) before
//     moving to the next die in channel-first order. Pairs form when the die waits for the
//     second (nand.multiplane_wait_us): 8 KiB random writes at QD64 on 8x4 dies reach 695 MB/s
//     with a 50 us wait, but with no wait, on 8x8, 496 against 726 (a lone write then runs alone
//     and its partner queues behind it), and at QD16 (4 KiB writes) with a 20 us wait 56 MB/s
//     against 72 (half as many dies work).
// - Greedy GC per plane, started when the plane's free blocks fall below
//   ftl.gc_threshold_blocks, one victim at a time per plane. ftl.gc_pacing says when its copies
//   are issued:
//   paced (default): in step with the host's writes to the plane, v / (P - v) copies per host
//     page for a victim of v valid pages out of P (what keeps the plane's free space level:
//     freeing the victim gives the host P - v pages) times 1 + the blocks the plane is below
//     its threshold (so the free pool stays where threshold GC keeps it, and the WAF with it),
//     so reclaim work is spread between host writes instead of flooding the die queues; the
//     rest at once when the plane's free blocks fall to the reserve + 1 (counted as
//     gc_catch_ups) or a host write has to wait for space;
//   threshold: every valid page of the victim at once (all planes reaching the threshold
//     together then stop the host while they copy). A plane whose best victim has no
//   invalid page (full of valid data: relocating would free nothing) pauses GC until an
//   overwrite invalidates one of its pages; host writes go to other planes meanwhile. Victim pages are read; on each
//   read's completion the OOB's logical page is checked against the L2P and, if still current, the page is relocated
//   (mapping updated then). The victim is erased once all its reads completed, and returns to the free pool.
// - On TLC/QLC parts an SLC cache (ftl.slc_cache, off by default): fw/ftl/common/slc_cache.h.
// - ftl.gc_reserve_blocks per plane are kept for GC; a host write finding no plane with room
//   waits (deferred) until an erase frees a block.
#pragma once

#include <vector>

#include "fw/ftl/common/deferred_writes.h"
#include "fw/ftl/common/ftl_counters.h"
#include "fw/ftl/common/gc_pacer.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/ftl/ftl.h"
#include "fw/ftl/common/idle_clock.h"
#include "fw/ftl/common/slc_cache.h"

namespace ssd::fw {

// The FTL's parameters, read and checked from the options (also by `ssdsim validate`).
struct PageMappingParams {
  enum class Allocation : std::uint8_t { Adaptive, PlaneFirst, ChannelFirst };
  enum class GcPacing : std::uint8_t { Paced, Threshold };
  GcPacing gc_pacing = GcPacing::Paced;
  double overprovisioning = 0.07;
  Allocation allocation = Allocation::Adaptive;
  std::uint32_t partner_wait_ns = 50000;
  std::uint32_t gc_reserve_blocks = 1;
  std::uint32_t gc_threshold_blocks = 0;
  Lpn logical_pages = 0;
  SlcCacheParams slc;
  // Throws FtlOptionError naming the parameter; rejects parameters it does not know.
  static PageMappingParams parse(FtlOptions& options, const FlashGeometry& geometry, std::uint32_t bits_per_cell = 1);
};

class PageMappingFtl : public Ftl, public SteadyStatePreload {
 public:
  explicit PageMappingFtl(FtlContext& ctx);

  Lpn logical_pages() const override { return logical_pages_; }
  OpRef read(const PageRead& page) override;
  WriteOutcome write(const PageWrite& page) override;
  OpRef trim(Lpn lpn) override;
  SegmentSpace* segment_space() override { return &blocks_; }
  std::uint32_t close_word_lines(std::uint32_t word_line_pages, BlockId only) override;
  Ppn locate(Lpn lpn) const override { return lpn < logical_pages_ ? l2p_[lpn] : kNoPpn; }
  bool holds_valid_page(Ppn ppn) const override { return blocks_.is_valid(blocks_.to_spn(ppn)); }
  void locate_range(Lpn first, std::uint32_t count, Ppn* out) const override;
  void holds_valid_pages(const Ppn* ppns, std::uint32_t count, std::uint8_t* out) const override;
  SteadyStatePreload* steady_state_preload() override { return this; }
  // Every plane fills all but its GC threshold's blocks before GC starts on it.
  std::uint64_t pages_before_gc() const override;
  // Each plane laid out as greedy GC leaves it (fw/precondition/greedy_steady_state.h); see the
  // definition for how planes, blocks and pages are dealt out.
  std::string preload_random_steady_state(std::uint64_t seed, const std::function<Token(Lpn)>& token_of) override;
  // See sequential_fill_preload.cpp.
  bool preload_sequential_fill(const std::function<Token(Lpn)>& token_of) override;
  // See mount.cpp.
  std::string mount(const MountImage& image, std::function<void()> settled) override;

  // Test hook: make the mapping of `a` point where `b` lives (a deliberately corrupted mapping).
  void corrupt_mapping_for_test(Lpn a, Lpn b) { l2p_[a] = l2p_[b]; }
  // Test hook: count a stale page as live again (a lost invalidation).
  void revalidate_for_test(Ppn ppn) { blocks_.mark_valid(blocks_.to_spn(ppn)); }
  // Its blocks: a segment space of single blocks, one host and one GC frontier per plane.
  const SegmentSpace& blocks() const { return blocks_; }

 private:
  enum Stream : std::uint32_t { kHostStream = 0, kGcStream = 1, kSlcStream = 2 };
  static constexpr std::uint8_t kSlcKind = 1;  // the segment kind of SLC-mode blocks

  std::uint32_t next_host_plane();  // kNoPlane when none has room
  std::uint32_t next_plane_first();
  std::uint32_t next_adaptive();
  std::uint32_t most_behind_plane(std::uint32_t first_plane_of_die);  // kNoPlane: none has room
  std::uint32_t next_host_offset(std::uint32_t plane) const;          // page offset of its next host page
  bool has_host_room(std::uint32_t plane);                            // hurries the plane's GC when it has none
  std::uint32_t frontier_pages(std::uint32_t frontier) const;         // pages its blocks take (kFoldFirst: native)
  static constexpr std::uint32_t kNoPlane = 0xffffffffu;
  OpRef place_write(std::uint32_t plane, const PageWrite& page);
  Ppn remap(Lpn lpn, Ppn new_ppn);  // returns the page it replaced (kNoPpn if none)
  void after_overwrite(Ppn old);
  void maybe_start_gc(std::uint32_t plane);
  // Issues up to `count` more copies of the plane's victim (all with GcPacer::kAll), then its erase.
  void issue_copies(std::uint32_t plane, std::uint32_t count);
  void pace_gc(std::uint32_t plane);  // after a host write to the plane
  void hurry_gc();                    // a host write waits for space: every victim at once
  void relocate(Ppn old_ppn, const HalResult& page);
  void finish_gc(std::uint32_t victim);  // a segment of the space: one block
  void retry_deferred();
  // The plane's reclaim of `victim` begins; all its copies at once with `all_now`.
  void start_reclaim(std::uint32_t plane, std::uint32_t victim, bool all_now);

  // The SLC cache (slc_cache.cpp, fw/ftl/common/slc_cache.h).
  static constexpr std::uint32_t kFoldFirst = 0xfffffffeu;  // host_frontier: the plane must fold first
  std::uint32_t host_frontier(std::uint32_t plane) const;   // where the plane's next host page goes
  void opened_slc_block(std::uint32_t plane);
  enum class FoldReason : std::uint8_t { Idle, Foreground };
  void start_fold(std::uint32_t plane, FoldReason why);  // nothing when the plane reclaims already
  void slc_block_reclaimed(std::uint32_t plane);
  bool is_slc_page(Ppn ppn) const;
  void fold_when_idle();

  FtlContext ctx_;  // a copy: it holds references only
  FtlCounters counts_;
  PageMappingParams params_;
  SegmentSpace blocks_;
  Lpn logical_pages_;
  std::uint32_t gc_threshold_;
  std::vector<Ppn> l2p_;
  TableRegion l2p_table_;
  // A plane's reclaim in progress: its victim and the next of its pages to copy.
  struct PlaneGc {
    bool running = false;
    BlockId victim_block = 0;
    std::uint32_t victim = 0;     // its segment
    std::uint32_t next_page = 0;  // page offset in the victim of the next copy to consider
    GcPacer pacer;                // paced: copies owed to the host's writes
  };
  std::vector<PlaneGc> gc_;                // per plane
  std::uint32_t gc_active_ = 0;            // planes with GC running
  std::uint64_t stripe_cursor_ = 0;        // channel_first: planes in channel-first order
  std::uint64_t die_cursor_ = 0;           // plane_first: dies in channel-first order
  std::uint32_t die_round_ = 0;            // plane_first: writes given to the current die
  std::vector<std::uint64_t> host_pages_;  // plane_first: host pages allocated per plane
  static constexpr std::uint32_t kNoDie = 0xffffffffu;
  std::uint32_t pair_die_ = kNoDie;  // adaptive: a busy die whose level planes take the next pages
  std::uint32_t pair_offset_ = 0;    // adaptive: the page offset they are level at
  bool expect_partner_ = false;      // adaptive: the page being placed opens a pair
  DeferredWrites deferred_;
  std::uint64_t &gc_runs_, &gc_copies_, &gc_superseded_, &gc_catch_ups_;
  // The SLC cache's state: SLC blocks holding data per plane (open, closed or being folded), and
  // the idle clock (idle(): folding for idleness).
  std::vector<std::uint32_t> slc_blocks_;
  std::uint32_t slc_blocks_total_ = 0;
  IdleClock idle_;
  SlcCounters slc_counts_;
  int slc_trace_ = -1;
};

}  // namespace ssd::fw
