// A resource's busy time, in kernel ticks: the total (the report's busy fraction) and how it falls
// over simulated time, in intervals like host.over_time's (common/interval_series.h): they start
// at 1 ms and double, merging neighbours, whenever the busy time reaches past 1000 of them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ssd {

class BusyTime {
 public:
  static constexpr std::uint64_t kInitialIntervalTicks = 100'000'000;  // 1 ms at tlm/time_base.h's 10 ps tick
  static constexpr std::size_t kMaxIntervals = 1000;

  // The resource works during [from, to) (ticks; may lie ahead of the current time).
  void add(std::uint64_t from, std::uint64_t to) { spread(from, to, true); }
  // Work counted for [from, to) did not happen (a suspended operation, the end of the run).
  void remove(std::uint64_t from, std::uint64_t to) { spread(from, to, false); }

  std::uint64_t ticks() const { return total_; }
  std::uint64_t interval_ticks() const { return length_; }
  const std::vector<std::uint64_t>& per_interval() const { return intervals_; }  // busy ticks in each
  // A power cut at `at`: the work booked beyond it never happened. Intervals after at's are
  // emptied; at's own keeps at most its part before `at` (which part of its busy time lay after
  // `at` is not kept, so this bounds it rather than knowing it).
  void truncate(std::uint64_t at) {
    const std::uint64_t cut = at / length_;
    for (std::uint64_t i = cut; i < intervals_.size(); ++i) {
      const std::uint64_t keep = i == cut ? std::min(intervals_[i], at - i * length_) : 0;
      total_ -= intervals_[i] - keep;
      intervals_[i] = keep;
    }
    hot_begin_ = hot_end_ = 0;
  }
  void reset() {
    total_ = 0;
    intervals_.clear();
    hot_begin_ = hot_end_ = 0;
  }

 private:
  void spread(std::uint64_t from, std::uint64_t to, bool adding) {
    if (to <= from) return;
    if (from >= hot_begin_ && to <= hot_end_) {  // the interval of the last span: no division
      adding ? (intervals_[hot_] += to - from, total_ += to - from) : (intervals_[hot_] -= to - from, total_ -= to - from);
      return;
    }
    std::uint64_t last = (to - 1) / length_;
    while (last >= kMaxIntervals) {
      coarsen();
      last = (to - 1) / length_;
    }
    if (last >= intervals_.size()) intervals_.resize(last + 1);
    const std::uint64_t first = from / length_;
    hot_ = last;
    hot_begin_ = last * length_;
    hot_end_ = hot_begin_ + length_;
    if (first == last) {  // most spans (microseconds) lie within one interval (milliseconds)
      adding ? (intervals_[first] += to - from, total_ += to - from) : (intervals_[first] -= to - from, total_ -= to - from);
      return;
    }
    for (std::uint64_t i = first, begin = from; begin < to; ++i) {
      const std::uint64_t end = std::min(to, (i + 1) * length_);
      (adding ? intervals_[i] += end - begin : intervals_[i] -= end - begin);
      begin = end;
    }
    adding ? total_ += to - from : total_ -= to - from;
  }
  void coarsen() {
    std::vector<std::uint64_t> merged((intervals_.size() + 1) / 2);
    for (std::size_t k = 0; k < intervals_.size(); ++k) merged[k / 2] += intervals_[k];
    intervals_ = std::move(merged);
    length_ *= 2;
    hot_begin_ = hot_end_ = 0;
  }

  std::uint64_t total_ = 0, length_ = kInitialIntervalTicks;
  std::vector<std::uint64_t> intervals_;
  std::uint64_t hot_ = 0, hot_begin_ = 0, hot_end_ = 0;  // the last span's last interval [begin, end)
};

}  // namespace ssd
