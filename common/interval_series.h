// Throughput and latency over time: completions counted in fixed-length intervals of simulated
// time. The interval starts at `initial_ns` and doubles (merging neighbours) whenever the run
// outgrows `max_intervals`, so any run length gives at most that many points.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ssd {

class IntervalSeries {
 public:
  struct Interval {
    std::uint64_t reads = 0, writes = 0, bytes = 0;
    std::uint64_t latency_sum_ns = 0, latency_max_ns = 0;
  };

  explicit IntervalSeries(std::uint64_t initial_ns = 1'000'000, std::size_t max_intervals = 1000)
      : length_ns_(initial_ns), max_(max_intervals) {}

  void record(std::uint64_t completion_ns, std::uint64_t latency_ns, std::uint64_t bytes, bool write) {
    std::uint64_t index = completion_ns / length_ns_;
    while (index >= max_) {
      coarsen();
      index = completion_ns / length_ns_;
    }
    if (index >= intervals_.size()) intervals_.resize(index + 1);
    Interval& i = intervals_[index];
    ++(write ? i.writes : i.reads);
    i.bytes += bytes;
    i.latency_sum_ns += latency_ns;
    i.latency_max_ns = std::max(i.latency_max_ns, latency_ns);
  }

  std::uint64_t length_ns() const { return length_ns_; }
  const std::vector<Interval>& intervals() const { return intervals_; }
  void reset() { intervals_.clear(); }

 private:
  void coarsen() {  // double the interval: interval i absorbs 2i and 2i + 1
    std::vector<Interval> merged((intervals_.size() + 1) / 2);
    for (std::size_t k = 0; k < intervals_.size(); ++k) {
      Interval& m = merged[k / 2];
      const Interval& i = intervals_[k];
      m.reads += i.reads;
      m.writes += i.writes;
      m.bytes += i.bytes;
      m.latency_sum_ns += i.latency_sum_ns;
      m.latency_max_ns = std::max(m.latency_max_ns, i.latency_max_ns);
    }
    intervals_ = std::move(merged);
    length_ns_ *= 2;
  }

  std::uint64_t length_ns_;
  std::size_t max_;
  std::vector<Interval> intervals_;
};

}  // namespace ssd
