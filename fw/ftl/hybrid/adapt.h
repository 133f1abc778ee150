// ADAPT (Wang & Wong: workload-sensitive flash management based on adaptation, prediction and
// aggregation), section III, on the hybrid log-block infrastructure.
//
// - Log space: a sequential area of block-associative log blocks, each written in page order
//   from offset 0 (as LAST's, so it leaves by a switch or partial merge), and a random area, a
//   fully associative FIFO of blocks as in FAST/FASTer. A request of more than `threshold`
//   pages is sequential (the paper's "same as LAST" reading of ADAPT-2); a sequential page that
//   does not continue its block in order (a large request starting mid-block) goes to the random
//   area, as in our LAST.
// - Adaptive partitioning (Algorithm 1): every interval_writes host write requests,
//   delta = (switch + partial merges) / sequential block allocations and phi = merged pages per
//   full merge of the random head, both over the interval. delta > 0.4 moves one block to the
//   sequential area, else phi >= pages_per_block / 2 moves one back; the sequential area stays
//   within [1, max_sequential_blocks] (1/16 of the log). Choice: a move takes effect when the
//   area that loses the block next needs room (the random head, or the sequential victim, is
//   merged then), not by an extra merge at the interval's end; the merge count is the same.
// - Adaptive threshold: when delta < 0.1 in an interval with sequential allocations, the
//   threshold jumps between its bounds (2 and 32 pages): up if it was at the lower bound, else
//   down (section III-B). An interval without sequential allocations leaves delta undefined and
//   the partition as it is. The threshold (idle_interval): at its upper bound such an interval
//   means nothing was large enough to be sequential, the sequential area was "not very
//   effective", so it is lowered (idle_interval=lower, the default; without it a threshold
//   raised once stays up for good when the large requests are smaller than it); at the lower
//   bound raising it could not make anything sequential, so it stays. idle_interval=keep: an
//   idle interval changes nothing.
// - What delta counts as a sequential allocation (misfit_delta): "a smaller delta implies more
//   requests were incorrectly treated as sequential" (III-B), so a request classified as
//   sequential whose pages could not continue a sequential block in order (they went to the
//   random area) counts as one sequential allocation that ended without a switch or partial
//   merge (misfit_delta=allocation, the default); misfit_delta=ignore counts only the blocks
//   the sequential area really opened (our reading before; an ablation). Counted once per
//   request, when its first misfit page is placed.
// - Predictive transfers (section III-C): the Historical Access Table, a hashed queue of the
//   last hat_bytes / 6 write requests (base page 4 bytes + page count 2 bytes, so a count is
//   kept up to 65,535 pages). A request whose base address and size are both in the HAT moves
//   that entry to the rear, any other is enqueued as a new entry (the paper's rule,
//   hat_key=base_and_size; hat_key=base: the same base alone moves the entry, with the new
//   size, our reading before). During a merge of the random head a valid page covered by an entry
//   (base <= page < base + count; hat_match=base: the base only) is copied to the rear block
//   (second chance), the others are merged. Table III's "prediction hit rate" is Algorithm 2's
//   IsHATHit: HAT hits over HAT lookups (prediction_hit_rate). How many second-chance copies were
//   rewritten by the host while still in the log is our own measure of whether the chance was
//   deserved (second_chance_rewrites, second_chance_precision). No cap on second chances, as the paper; but when
//   every page of a head with no invalid page would be moved, the merge would free nothing, so
//   all of them are merged instead.
// - Aggregated data movement (Algorithm 2): if the head has at least tau valid pages and the
//   next block fewer, the head is relinked at the rear (no copy) and the next block is merged.
// - Early reuse (ERL): a random log block, written full, with no valid page left is reclaimed
//   (one erase) as soon as the random area needs a block, ahead of merging the head. Choice: the
//   paper erases it at once; in our firmware erases go with merges, and the erase is the same.
// - Per-block valid counts (1 byte each) and the HAT live in SRAM; every access is charged.
// Ablations (section IV): ADAPT-sw = adaptive_partition=false (one sequential block),
// ADAPT-2 / ADAPT-32 = adaptive_threshold=false with sequential_threshold_pages 2 / 32,
// ADAPT-nd = early_reuse=false; hat_bytes, aggregate_threshold_pages (tau) and interval_writes.
#pragma once

#include <deque>
#include <unordered_map>
#include <vector>

#include "fw/ftl/hybrid/hybrid_ftl.h"
#include "fw/ftl/hybrid/sequential_log.h"

namespace ssd::fw {

struct AdaptParams {
  HybridParams base;
  std::uint32_t max_sequential_blocks = 1;
  bool adaptive_partition = true;
  bool adaptive_threshold = true;
  std::uint32_t threshold_low = 2, threshold_high = 32, initial_threshold = 2;
  std::uint32_t interval_writes = 4000;
  double grow_delta = 0.4, threshold_delta = 0.1;
  std::uint32_t hat_entries = 170;
  bool hat_covers_range = true;
  bool hat_key_has_size = true;      // hat_key=base_and_size (the paper's) or base
  bool misfits_count_in_delta = true;  // misfit_delta=allocation (default) or ignore
  bool idle_interval_lowers = true;    // idle_interval=lower (default) or keep
  std::uint32_t tau = 56;
  bool early_reuse = true;
  static AdaptParams parse(FtlOptions& options, const FlashGeometry& geometry);
};

class AdaptFtl : public HybridFtl {
 public:
  explicit AdaptFtl(FtlContext& ctx) : AdaptFtl(ctx, AdaptParams::parse(ctx.options, ctx.hal.geometry())) {}
  AdaptFtl(FtlContext& ctx, const AdaptParams& params);

 protected:
  LogTarget log_target(const PageWrite& page) override;
  void on_log_block_gone(std::uint32_t block) override;
  void before_merge(std::uint32_t victim) override;
  void on_log_page(Spn spn, bool copied) override;
  void on_host_write(const PageWrite& page) override;
  // What a fill's one-page requests leave in the request history and the interval.
  void on_sequential_fill() override;
  void on_invalidated(Spn spn, bool by_host) override;

 private:
  enum Role : std::uint8_t { kNoRole, kSequential, kRandom };
  struct HatEntry {
    Lpn base;
    std::uint32_t pages;  // the paper's 2-byte field: at most 65,535
  };
  // A request's identity for the misfit count of delta (once per request).
  struct RequestKey {
    Lpn first_lpn = kNoLpn;
    std::uint32_t sectors = 0, issuer = 0;
    bool operator==(const RequestKey& o) const {
      return first_lpn == o.first_lpn && sectors == o.sectors && issuer == o.issuer;
    }
  };
  LogTarget sequential_target(const PageWrite& page);
  LogTarget random_target(Lpn lpn);
  std::uint32_t dead_random_block();
  void end_of_interval();
  void flip_threshold();
  void publish_precision();
  void record_request(Lpn base, std::uint32_t pages);
  bool hat_hit(Lpn lpn);
  std::uint64_t hat_key(const HatEntry& e) const;
  void count_misfit(const PageWrite& page);
  void publish_partition();

  AdaptParams p_;
  std::uint32_t sequential_cap_, random_cap_, threshold_;
  std::uint64_t threshold_bytes_;
  std::vector<Role> role_;                     // per block
  SequentialLog sequential_;                   // the sequential area
  std::deque<std::uint32_t> random_;           // front: head (next victim), back: being filled
  std::vector<std::uint32_t> dead_;            // random blocks found with no valid page (ERL)
  std::vector<bool> chanced_;                  // per segment page: holds a second-chance copy
  std::deque<HatEntry> hat_;                   // front: least recent request
  std::unordered_map<std::uint64_t, std::uint32_t> hat_keys_;  // entry key -> entries with it (hat_key)
  std::unordered_map<Lpn, std::uint32_t> hat_bases_;          // base -> entries with it (hat_match=base)
  std::unordered_map<Lpn, std::uint32_t> hat_cover_;   // page -> entries covering it
  TableRegion hat_table_, valid_count_table_;
  std::uint64_t clock_ = 0;
  std::uint32_t writes_in_interval_ = 0;
  RequestKey last_misfit_request_;  // the request whose misfit delta counted last
  // Interval counters (Algorithm 1): full merges and their pages, and where the totals of
  // sequential allocations and switch/partial merges stood when the interval began.
  std::uint64_t full_merges_ = 0, merged_pages_ = 0;
  struct {
    std::uint64_t allocations = 0, switch_partial = 0;
  } interval_start_;
  std::uint64_t &aggregated_moves_, &second_chance_copies_, &second_chance_rewrites_, &hat_lookups_, &hat_hits_,
      &early_reuses_, &to_sequential_, &to_random_, &threshold_changes_, &sequential_log_writes_, &misfits_,
      &misfit_requests_, &sequential_allocations_, &switch_partial_merges_;
  double &sequential_gauge_, &random_gauge_, &threshold_gauge_, &hit_rate_gauge_, &precision_gauge_, &delta_gauge_,
      &hat_used_gauge_;
  int sequential_trace_ = -1, random_trace_ = -1, threshold_trace_ = -1;  // waveform handles
};

}  // namespace ssd::fw
