// Long stand-in traces reconstructed from a short excerpt, with the excerpt's request-size mix,
// sequentiality and reuse (inter-reference) distance distribution. Looping an excerpt would
// rewrite every page once per pass and so distort reuse; this builds a new reference string
// instead, by two published methods:
//
// - The LRU stack-distance model of reference strings: Mattson, Gecsei, Slutz and Traiger,
//   "Evaluation techniques for storage hierarchies", IBM Systems Journal 9(2), 1970, define the
//   stack distance of a reference (its depth in the LRU stack of distinct addresses); Spirn,
//   "Program Behavior: Models and Measurements", Elsevier 1977, uses it as a generative model
//   (the "LRU stack model": each reference takes the address at an independently drawn depth of
//   the stack). Here the addresses are request start sectors.
// - Empirical per-request feature distributions, sampled to build a replayable synthetic trace:
//   Tarasov, Kumar, Ma, Hildebrand, Povzner, Kuenning and Zadok, "Extracting flexible,
//   replayable models from large block traces", FAST 2012 (request size, read/write,
//   sequentiality, inter-arrival time).
//
// Learning (learn_trace_model): every request of the excerpt becomes one feature tuple: read or
// write, size in sectors, the gap since the previous request, and its address class:
//   sequential: it starts where one of the last kSequentialLags (K = 8) requests ended; the
//               smallest such lag j (1 = the request just before) is kept;
//   reuse:      otherwise, its start sector started an earlier request: the LRU stack distance
//               d of that sector over the distinct start sectors seen so far (1 = the most
//               recently used one) is kept;
//   cold:       otherwise, a first reference (a cold miss); its start sector is kept with it.
// Flushes carry no data: learning leaves them out, and a stand-in holds none.
// The first request has no history, so its class says nothing about the mix: it is left out of
// the tuples (unless it is the only request or the only write); its start is kept apart.
//
// Generation (StandinWorkload): each request draws one whole tuple, uniformly from the excerpt's
// (so op, size, class, lag or distance and gap keep their correlations, and each marginal is the
// excerpt's), then places it:
//   sequential j: at the end of the request generated j back (cold while fewer exist);
//   reuse d:      at the d-th most recent distinct start sector of the generated stream (cold
//                 while the stack holds fewer than d);
//   cold:         at the tuple's own start sector, shifted by one region (the excerpt's span:
//                 its largest end address rounded up to a GiB) for each earlier draw of the
//                 tuple: the k-th draw of every cold tuple lands in region k, so each region
//                 takes the excerpt's cold misses with their own sizes once, the footprint grows
//                 per request as the excerpt's does, and no address is ever replayed. A sector
//                 the stream already used (or that a recent request ended at) is skipped for
//                 the tuple's next region. Sequential and reuse tuples placed as cold (early on)
//                 take a random cold tuple's start (the first request's when there is none).
// A reuse whose sector one of the last K requests ended at would be a sequential request, not
// a reuse: in the excerpt such a request was counted sequential, so the reuse tuples hold only
// re-references that were not. Such a draw is therefore replaced by another reuse tuple (up to
// kRedraws draws in all), which keeps the shares of the three classes the excerpt's instead of
// turning re-references at small depths into sequential requests.
// With StandinSpec::reuse_by_op, a reuse tuple instead carries whether its target's latest
// reference was a write or a read, and its depth d' among the sectors whose latest reference was
// of that operation (the stack split in two by operation, each part still an LRU stack); it takes
// the d'-th sector of the same part of the generated stream. Reason: in the plain model a
// reuse's sector is whatever sits at depth d, a read's in a read-heavy trace, so writes that
// rewrote written data in the excerpt (82% of hm_0's write re-references) land on sectors only
// read before and the written footprint grows faster than the excerpt's (hm_0, a million writes:
// 1.46 new pages per write against 0.98; 1.17 with reuse_by_op). The depth over all sectors is
// then no longer drawn but follows from how reads and writes interleave, which independent draws
// spread evenly: hm_0's p50 moves from 15 to 25, and YCSB's, whose writes come in bursts, from
// 92 to 1,146. Hence an option, not the default.
// Every start is folded into the range (StandinSpec::range_bytes): a region past the range
// wraps, and lap L of the range is shifted by frac(L x kLapShift) of a region (whole 4 KiB
// pages; a Weyl sequence, so any number of laps spreads evenly over the region) so that it lands
// where earlier laps left the region empty instead of on their addresses: an excerpt's footprint
// is mostly small clusters in a large span. The footprint grows on until the range fills up, as
// a real volume's stops at its size. A request that would cross the range's end is moved back
// inside it.
//
// Limits, as measured on the shared excerpts: tuples are drawn independently, so what ties
// consecutive requests together beyond the K-request window is lost; a sequential run continues
// whatever request came before rather than the new data it extended in the excerpt, so excerpts
// that write new files in runs get fewer new pages per write (rsrch_1 1.68 against 2.09, YCSB
// 66 against 72 pages). Re-references that the stand-in's own runs turn into sequential requests
// are redrawn (above), which shifts the reuse depths a little towards deeper ones (mds_0: p50 31
// against 20; p10 and p90 hold).
//
// Everything measured (TraceStats) comes from one classifier that sees the excerpt and the
// stand-in alike, so the two columns of the comparison are measured the same way, and the
// stand-in's figures are what it holds, not what the generator meant to produce.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

constexpr std::uint32_t kSequentialLags = 8;                 // K: how far back a sequential start may look
constexpr std::uint64_t kRegionAlignBytes = 1ull << 30;      // a region is the excerpt's span rounded up to this
constexpr double kLapShift = 0.6180339887498949;             // of a region, per lap: the golden ratio's fraction
constexpr std::uint64_t kMaxDefaultRangeBytes = 4ull << 40;  // the default range's cap: a 4 TiB drive
constexpr int kRedraws = 8;                                  // draws of a request whose placement changes its class
constexpr std::size_t kColdTries = 64;                       // regions tried for a cold miss's unused sector

enum class AddressClass : std::uint8_t { Sequential, Reuse, Cold };

// One request as the model sees it.
struct RequestFeatures {
  bool write = false;
  std::uint32_t sectors = 0;
  std::uint64_t start = 0;   // start sector (the stand-in uses a cold miss's)
  std::uint64_t gap_ns = 0;  // since the previous request (0 for the first)
  AddressClass kind = AddressClass::Cold;
  std::uint64_t lag_or_distance = 0;  // Sequential: lag j in 1..K; Reuse: stack distance d >= 1; Cold: 0
  // Reuse, when the classifier keeps stacks by operation: whether the sector's latest reference
  // was a write, and its depth among the sectors whose latest reference was of that operation.
  bool target_written = false;
  std::uint64_t op_depth = 0;
};

// The LRU stack of distinct addresses, with the depth of an address and the address at a depth
// in O(log n): each reference takes a fresh time slot in a Fenwick tree that marks the slots still
// holding an address's latest reference, so the depth is one plus the marks after its slot.
class LruStack {
 public:
  std::uint64_t size() const { return distinct_; }
  // Depth of `address` (1 = most recently used), 0 when it was never referenced.
  std::uint64_t depth(std::uint64_t address) const;
  // The address at depth d, 1 <= d <= size().
  std::uint64_t at_depth(std::uint64_t d) const;
  // References `address`: it moves (or is pushed) to the top.
  void touch(std::uint64_t address);
  // Takes `address` out of the stack (nothing when it is not in it).
  void remove(std::uint64_t address);

 private:
  std::uint64_t prefix(std::uint64_t slot) const;  // marks in slots 1..slot
  void add(std::uint64_t slot, std::int32_t delta);
  void append(std::int32_t mark);  // a new last slot
  std::uint64_t find(std::uint64_t k) const;  // smallest slot whose prefix reaches k

  // Open addressing (linear probing) from address to its latest slot: millions of distinct
  // sectors in a fraction of std::unordered_map's memory. Keys are stored plus one (0 = empty).
  struct Slots {
    std::vector<std::uint64_t> keys;
    std::vector<std::uint32_t> slots;  // 0: removed
    std::uint64_t used = 0;
    std::uint64_t get(std::uint64_t address) const;  // 0 when absent
    void put(std::uint64_t address, std::uint64_t slot);
    std::size_t probe(std::uint64_t address) const;
    void grow();
  };

  std::vector<std::uint32_t> tree_{0};        // Fenwick tree over the slots, 1-based (tree_[0] unused)
  std::vector<std::uint64_t> address_of_{0};  // the address referenced in each slot
  Slots latest_;
  std::uint64_t distinct_ = 0;
};

// Classifies a request stream one request at a time (see the top of this file). With `by_op`
// it also keeps the stack split by the operation of each sector's latest reference (for
// RequestFeatures::target_written and op_depth), which costs twice the time and memory.
class ReferenceClassifier {
 public:
  explicit ReferenceClassifier(bool by_op = false) : by_op_(by_op) {}
  RequestFeatures observe(const HostRequest& r);
  const LruStack& stack() const { return stack_; }
  // With by_op: the start sectors whose latest reference was a write (or a read), LRU first.
  const LruStack& op_stack(bool written) const { return op_stacks_[written]; }
  std::uint64_t seen() const { return seen_; }
  // End sector of the request j back (1 = the last one), 1 <= j <= min(seen(), K).
  std::uint64_t end_back(std::uint32_t j) const { return ends_[(seen_ - j) % kSequentialLags]; }
  // The smallest lag j whose request ended at `sector` (a request starting there is sequential),
  // 0 when none of the last K did.
  std::uint32_t continues(std::uint64_t sector) const;

 private:
  bool by_op_;
  LruStack stack_;
  std::array<LruStack, 2> op_stacks_;  // [0]: latest reference a read, [1]: a write
  std::array<std::uint64_t, kSequentialLags> ends_{};
  std::uint64_t seen_ = 0, last_arrival_ns_ = 0;
};

// What the stand-in must match, measured on a stream. Request sizes in 4 KiB pages are
// ceil(bytes / 4 KiB); the written footprint counts every 4 KiB page a write touches.
struct TraceStats {
  static constexpr int kSizeBuckets = 5;  // 1, 2, 3-8, 9-32, >32 pages
  static const char* size_bucket_name(int i);

  std::uint64_t requests = 0, writes = 0;
  std::array<std::uint64_t, kSizeBuckets> size_buckets{};
  std::uint64_t sectors = 0;  // summed request sizes
  std::uint64_t sequential = 0, reuse = 0, cold = 0;
  std::uint64_t distance_p10 = 0, distance_p50 = 0, distance_p90 = 0;  // over reuse requests; 0 when none
  std::uint64_t written_pages = 0;
  std::uint64_t duration_ns = 0;       // first to last arrival
  std::uint64_t max_end_sector = 0;    // highest sector touched, plus one

  double share(std::uint64_t n) const { return requests ? double(n) / double(requests) : 0.0; }
  double mean_kib() const { return requests ? double(sectors) * 0.5 / double(requests) : 0.0; }
  double mean_gap_us() const { return requests > 1 ? double(duration_ns) * 1e-3 / double(requests - 1) : 0.0; }
  double written_pages_per_write() const { return writes ? double(written_pages) / double(writes) : 0.0; }
};

// Accumulates TraceStats from requests and their classification.
class StatsCollector {
 public:
  void add(const HostRequest& r, const RequestFeatures& f);
  TraceStats result() const;  // quantiles computed here

 private:
  TraceStats stats_;
  std::vector<std::uint64_t> distances_;  // reuse requests per stack distance
  std::map<std::uint64_t, std::uint64_t> written_;  // written 4 KiB pages as disjoint [first, end) runs
  std::uint64_t first_arrival_ns_ = 0;
};

struct TraceModel {
  std::vector<RequestFeatures> tuples;     // one per request but the first (see the top)
  std::uint64_t first_start = 0;           // the excerpt's first request's start sector
  std::uint64_t region_sectors = 0;        // the excerpt's span rounded up to kRegionAlignBytes
  std::uint32_t largest_request = 0;       // sectors
  TraceStats excerpt;                      // measured on the whole excerpt
};

// Reads `excerpt` to its end. Throws WorkloadError when it holds no request (the reader's own
// errors pass through).
TraceModel learn_trace_model(Workload& excerpt);

struct StandinSpec {
  std::uint64_t writes = 0;    // stop once this many writes are generated (> 0), or
  std::uint64_t requests = 0;  // stop after this many requests (when writes is 0)
  std::uint64_t range_bytes = 0;  // addressed range; 0 = default_range_bytes()
  std::uint64_t seed = 1;
  // A reuse takes its sector by its depth among the sectors last read, or last written, as its
  // excerpt request's target was (see the top of this file), instead of by its depth in the
  // one stack of all sectors.
  bool reuse_by_op = false;
  // Every gap times this (> 0): a stand-in of a sparse excerpt would span more trace time than a
  // trace reader accepts (a year, TextTrace::kMaxSpanNs) or a run simulates.
  double time_scale = 1.0;
};

// Passes through the excerpt the stand-in needs: ceil(stand-in writes / excerpt writes), or of
// requests over requests.
std::uint64_t passes_needed(const TraceModel& model, const StandinSpec& spec);
// The region times passes_needed(), capped at kMaxDefaultRangeBytes (as whole regions, but never
// below one).
std::uint64_t default_range_bytes(const TraceModel& model, const StandinSpec& spec);

// The stand-in as a workload (deterministic for a seed; keeps its own copy of the model).
// Arrivals start at 0.
class StandinWorkload : public Workload {
 public:
  // Throws WorkloadError for an impossible spec: no writes and no requests asked for, writes
  // asked of an excerpt without a write, a range that is not a positive multiple of 4 KiB or
  // smaller than the excerpt's largest request.
  StandinWorkload(TraceModel model, const StandinSpec& spec);

  bool next(HostRequest& r) override;
  std::string describe() const override;
  double fraction_done() const override;

  std::uint64_t range_bytes() const { return range_sectors_ * 512; }
  TraceStats stats() const { return stats_.result(); }  // of what was generated so far

 private:
  std::uint64_t uniform_below(std::uint64_t n);  // unbiased, the same on every standard library
  std::uint64_t fold(unsigned __int128 start, std::uint32_t sectors) const;
  std::uint64_t next_cold(std::size_t tuple);

  TraceModel model_;
  StandinSpec spec_;
  std::uint64_t range_sectors_ = 0;
  std::uint64_t lap_pages_ = 0, lap_shift_pages_ = 0;  // a lap's shift: lap x lap_shift_pages_ mod lap_pages_
  std::vector<std::size_t> reuse_tuples_;  // indices of the reuse tuples, for redraws
  std::mt19937_64 rng_;
  ReferenceClassifier classifier_;
  StatsCollector stats_;
  std::vector<std::size_t> cold_tuples_;  // indices of the cold tuples
  std::vector<std::uint64_t> cold_draws_;  // per tuple (and one more for the first request): regions used
  std::uint64_t generated_ = 0, written_ = 0, clock_ns_ = 0;
};

}  // namespace ssd::stimuli
