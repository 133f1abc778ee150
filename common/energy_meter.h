// Energy a part spent on its operations, in picojoules: the total and how it falls over simulated
// time, in intervals like BusyTime's (1 ms at first, doubling, merging neighbours, whenever the run
// reaches past 1000 of them), so power over time is energy per interval over its length.
// An operation's energy is spread over its span in proportion to the time in each interval.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/busy_time.h"

namespace ssd {

class EnergyMeter {
 public:
  // `picojoules` spent during [from, to) (kernel ticks); at `from` alone when to <= from.
  void add(std::uint64_t from, std::uint64_t to, double picojoules) {
    total_ += picojoules;
    if (from >= hot_begin_ && from < hot_end_ && to <= hot_end_) {  // the last one's interval: no division
      intervals_[hot_] += picojoules;
      return;
    }
    std::uint64_t last = to > from ? (to - 1) / length_ : from / length_;
    while (last >= BusyTime::kMaxIntervals) {
      coarsen();
      last = to > from ? (to - 1) / length_ : from / length_;
    }
    if (last >= intervals_.size()) intervals_.resize(last + 1);
    const std::uint64_t first = from / length_;
    if (first == last) {  // most operations (microseconds) lie within one interval (milliseconds)
      intervals_[first] += picojoules;
      hot_ = first;
      hot_begin_ = first * length_;
      hot_end_ = hot_begin_ + length_;
      return;
    }
    const double per_tick = picojoules / double(to - from);
    for (std::uint64_t i = first, begin = from; begin < to; ++i) {
      const std::uint64_t end = std::min(to, (i + 1) * length_);
      intervals_[i] += per_tick * double(end - begin);
      begin = end;
    }
  }

  double picojoules() const { return total_; }
  std::uint64_t interval_ticks() const { return length_; }
  const std::vector<double>& per_interval() const { return intervals_; }  // picojoules in each
  void reset() {
    total_ = 0;
    intervals_.clear();
    hot_begin_ = hot_end_ = 0;
  }

 private:
  void coarsen() {
    std::vector<double> merged((intervals_.size() + 1) / 2);
    for (std::size_t k = 0; k < intervals_.size(); ++k) merged[k / 2] += intervals_[k];
    intervals_ = std::move(merged);
    length_ *= 2;
    hot_begin_ = hot_end_ = 0;
  }

  double total_ = 0;
  std::uint64_t length_ = BusyTime::kInitialIntervalTicks;
  std::vector<double> intervals_;
  std::uint64_t hot_ = 0, hot_begin_ = 0, hot_end_ = 0;  // the last one's interval [begin, end)
};

}  // namespace ssd
