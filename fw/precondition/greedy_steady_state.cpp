#include "fw/precondition/greedy_steady_state.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "common/log_structured_model.h"

namespace ssd::fw {

namespace {

// Prefix sums of valid counts per block, to draw "the block of a uniformly random live page".
class Fenwick {
 public:
  explicit Fenwick(std::size_t n) : tree_(n + 1, 0) {
    while ((std::size_t(1) << log_) <= n) ++log_;
  }
  void add(std::size_t i, std::int64_t d) {
    for (++i; i < tree_.size(); i += i & (~i + 1)) tree_[i] += d;
  }
  // The block holding the target-th live page (0-based): smallest i with prefix(i+1) > target.
  std::size_t find(std::int64_t target) const {
    std::size_t pos = 0;
    for (int step = log_; step >= 0; --step) {
      const std::size_t next = pos + (std::size_t(1) << step);
      if (next < tree_.size() && tree_[next] <= target) {
        pos = next;
        target -= tree_[next];
      }
    }
    return pos;
  }

 private:
  std::vector<std::int64_t> tree_;
  int log_ = 0;
};

// Closed blocks by valid count, for greedy's "fewest valid pages" in O(1) per change.
class Buckets {
 public:
  Buckets(std::uint32_t blocks, std::uint32_t max_count) : bucket_(max_count + 1), slot_(blocks, kNone) {}
  void insert(std::uint32_t block, std::uint32_t count) {
    slot_[block] = static_cast<std::uint32_t>(bucket_[count].size());
    bucket_[count].push_back(block);
    lowest_ = std::min(lowest_, count);
  }
  void erase(std::uint32_t block, std::uint32_t count) {
    auto& b = bucket_[count];
    const std::uint32_t moved = b.back();
    b[slot_[block]] = moved;
    slot_[moved] = slot_[block];
    b.pop_back();
    slot_[block] = kNone;
  }
  bool contains(std::uint32_t block) const { return slot_[block] != kNone; }
  // A closed block with the fewest valid pages; kNone when there is none. Buckets below
  // `lowest_` are empty, so the scan is amortized over the inserts that lowered it.
  std::uint32_t min_block() {
    for (; lowest_ < bucket_.size(); ++lowest_)
      if (!bucket_[lowest_].empty()) return bucket_[lowest_].back();
    lowest_ = static_cast<std::uint32_t>(bucket_.size());
    return kNone;
  }
  static constexpr std::uint32_t kNone = 0xffffffffu;

 private:
  std::vector<std::vector<std::uint32_t>> bucket_;
  std::vector<std::uint32_t> slot_;
  std::uint32_t lowest_ = 0;
};

class Domain {
 public:
  Domain(const GreedyDomainSpec& s, std::uint64_t seed)
      : s_(s),
        valid_(s.blocks, 0),
        programmed_(s.blocks, 0),
        sums_(s.blocks),
        closed_(s.blocks, s.pages_per_block),
        rng_(seed),
        pick_(0, std::int64_t(s.valid_pages) - 1) {
    // The sequential fill: live pages packed into the first blocks, the last one the host frontier.
    for (std::uint32_t b = s.blocks; b-- > 0;) free_.push_back(b);
    for (std::uint64_t i = 0; i < s.valid_pages; ++i) {
      const std::uint32_t b = host_page();
      set_valid(b, valid_[b] + 1);
    }
  }

  // One host overwrite of a uniformly random live page. Returns the GC copies it caused.
  std::uint64_t overwrite() {
    const std::uint32_t old = static_cast<std::uint32_t>(sums_.find(pick_(rng_)));
    set_valid(old, valid_[old] - 1);
    const std::uint32_t b = host_page();
    set_valid(b, valid_[b] + 1);
    std::uint64_t copies = 0;
    while (free_.size() < s_.gc_threshold) {
      const std::uint32_t victim = closed_.min_block();
      if (victim == Buckets::kNone) break;
      copies += reclaim(victim);
    }
    return copies;
  }

  GreedyDomainState state() const {
    GreedyDomainState st;
    st.free_blocks = static_cast<std::uint32_t>(free_.size());
    for (std::uint32_t b = 0; b < s_.blocks; ++b) {
      if (programmed_[b] == 0) continue;
      GreedyDomainState::Block blk;
      blk.valid = valid_[b];
      blk.programmed = programmed_[b];
      if (b == host_frontier_ && programmed_[b] < s_.pages_per_block)
        blk.role = GreedyDomainState::Block::Role::HostFrontier;
      if (b == gc_frontier_ && programmed_[b] < s_.pages_per_block)
        blk.role = GreedyDomainState::Block::Role::GcFrontier;
      st.used.push_back(blk);
    }
    return st;
  }

 private:
  void set_valid(std::uint32_t b, std::uint32_t v) {
    if (closed_.contains(b)) {
      closed_.erase(b, valid_[b]);
      closed_.insert(b, v);
    }
    sums_.add(b, std::int64_t(v) - std::int64_t(valid_[b]));
    valid_[b] = v;
  }
  std::uint32_t open_block() {
    if (free_.empty()) throw std::logic_error("greedy steady state: no free block left");
    const std::uint32_t b = free_.back();
    free_.pop_back();
    programmed_[b] = 0;
    return b;
  }
  void close_if_full(std::uint32_t b) {
    if (programmed_[b] == s_.pages_per_block) closed_.insert(b, valid_[b]);
  }
  std::uint32_t host_page() {
    if (host_frontier_ == kNone || programmed_[host_frontier_] == s_.pages_per_block) host_frontier_ = open_block();
    const std::uint32_t b = host_frontier_;
    ++programmed_[b];
    close_if_full(b);  // the caller's set_valid then moves it to its bucket with this page counted
    return b;
  }
  std::uint64_t reclaim(std::uint32_t victim) {
    closed_.erase(victim, valid_[victim]);
    // A full frontier can be the victim: it is not a frontier any more once erased.
    if (victim == gc_frontier_) gc_frontier_ = kNone;
    if (victim == host_frontier_) host_frontier_ = kNone;
    const std::uint32_t copies = valid_[victim];
    std::uint32_t left = copies;
    set_valid(victim, 0);
    while (left > 0) {
      if (gc_frontier_ == kNone || programmed_[gc_frontier_] == s_.pages_per_block) gc_frontier_ = open_block();
      const std::uint32_t room = s_.pages_per_block - programmed_[gc_frontier_];
      const std::uint32_t n = left < room ? left : room;
      programmed_[gc_frontier_] += n;
      set_valid(gc_frontier_, valid_[gc_frontier_] + n);
      close_if_full(gc_frontier_);
      left -= n;
    }
    programmed_[victim] = 0;
    free_.push_back(victim);
    return copies;
  }

  static constexpr std::uint32_t kNone = 0xffffffffu;
  GreedyDomainSpec s_;
  std::vector<std::uint32_t> valid_, programmed_;
  Fenwick sums_;
  Buckets closed_;
  std::vector<std::uint32_t> free_;
  std::uint32_t host_frontier_ = kNone, gc_frontier_ = kNone;
  std::mt19937_64 rng_;
  std::uniform_int_distribution<std::int64_t> pick_;
};

}  // namespace

namespace {
void check_fits(const GreedyDomainSpec& s) {
  if (s.blocks == 0 || s.pages_per_block == 0 || s.valid_pages == 0)
    throw std::invalid_argument("greedy steady state: empty domain");
  const std::uint64_t room = std::uint64_t(s.blocks) - s.gc_threshold - 2;
  if (s.gc_threshold + 2 >= s.blocks || s.valid_pages > room * s.pages_per_block)
    throw std::invalid_argument("greedy steady state: " + std::to_string(s.valid_pages) + " live pages do not fit in " +
                                std::to_string(s.blocks) + " blocks of " + std::to_string(s.pages_per_block) +
                                " pages with " + std::to_string(s.gc_threshold) + " free and two frontiers");
}
}  // namespace

GreedyDomainState fifo_steady_state(const GreedyDomainSpec& s) {
  check_fits(s);
  const std::uint32_t used = s.blocks - s.gc_threshold;
  const double pages = double(s.pages_per_block), physical = double(used) * pages, live = double(s.valid_pages);
  const double u = fifo_victim_valid_share(physical / live), k = (1.0 - u) / live;
  GreedyDomainState st;
  st.free_blocks = s.gc_threshold;
  st.write_amplification = 1.0 / (1.0 - u);
  st.settled = true;
  // Live pages programmed at most `a` programs ago: (1 - e^{-k a}) / k, scaled to total exactly U.
  auto live_younger_than = [&](double a) { return live * (1.0 - std::exp(-k * a)) / (1.0 - std::exp(-k * physical)); };
  std::uint64_t before = 0;
  for (std::uint32_t i = 0; i < used; ++i) {  // i blocks ago
    const auto upto = static_cast<std::uint64_t>(std::llround(live_younger_than(double(i + 1) * pages)));
    GreedyDomainState::Block b;
    b.programmed = s.pages_per_block;
    b.valid = static_cast<std::uint32_t>(std::min<std::uint64_t>(upto - before, s.pages_per_block));
    before += b.valid;
    st.used.push_back(b);
  }
  if (before != s.valid_pages)
    throw std::logic_error("FIFO steady state: laid out " + std::to_string(before) + " of " +
                           std::to_string(s.valid_pages) + " live pages");
  return st;
}

GreedyDomainState random_write_steady_state(const GreedyDomainSpec& spec, std::uint64_t seed) {
  return spec.pages_per_block <= kSimulatedPagesPerBlock ? simulate_greedy_steady_state(spec, seed)
                                                         : fifo_steady_state(spec);
}

GreedyDomainState simulate_greedy_steady_state(const GreedyDomainSpec& s, std::uint64_t seed) {
  check_fits(s);
  Domain d(s, seed);
  double previous = 0, waf = 0;
  std::uint32_t capacities = 0;
  bool settled = false;
  while (!settled && capacities < 20) {
    std::uint64_t copies = 0;
    for (std::uint64_t i = 0; i < s.valid_pages; ++i) copies += d.overwrite();
    ++capacities;
    previous = waf;
    waf = 1.0 + double(copies) / double(s.valid_pages);
    settled = capacities >= 3 && std::abs(waf - previous) <= 0.005 * previous;
  }
  GreedyDomainState st = d.state();
  st.capacities = capacities;
  st.write_amplification = waf;
  st.settled = settled;
  return st;
}

}  // namespace ssd::fw
