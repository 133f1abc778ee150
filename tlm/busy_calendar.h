// Bookings of a shared resource (bus, memory port, link direction) in simulated time.
//
// Loosely-timed initiators reach a resource at now + their annotated delay, and not in time
// order: the core books its table accesses ahead, at its local time, before a DMA that arrives
// earlier in simulated time but is issued later in host order. A single "busy until" would
// make that DMA wait for an access that has not happened yet; the calendar instead places each
// transfer in the first gap at or after its arrival. Bookings that ended before the present
// are dropped, so the calendar holds only the near future.
#pragma once

#include <cstdint>
#include <algorithm>
#include <iterator>
#include <deque>

namespace ssd::tlmx {

class BusyCalendar {
 public:
  // Books `duration` ps at the earliest time >= arrival that overlaps no booking; returns the
  // start. `now` (<= arrival) lets it forget the past.
  std::uint64_t book(std::uint64_t arrival, std::uint64_t duration, std::uint64_t now) {
    while (!busy_.empty() && busy_.front().end <= now) busy_.pop_front();
    if (busy_.empty() || arrival >= busy_.back().end) {  // the common case: after everything
      append(arrival, duration);
      return arrival;
    }
    // First booking that ends after the arrival (bookings are disjoint and sorted).
    auto it = std::upper_bound(busy_.begin(), busy_.end(), arrival,
                               [](std::uint64_t t, const Interval& i) { return t < i.end; });
    std::uint64_t start = std::max(arrival, it->begin <= arrival ? it->end : arrival);
    if (it->begin <= arrival) ++it;
    while (it != busy_.end() && it->begin < start + duration) {
      start = std::max(start, it->end);
      ++it;
    }
    if (duration == 0) return start;
    if (it == busy_.end()) {
      append(start, duration);
      return start;
    }
    // Insert before `it`, merging with touching neighbours.
    const std::uint64_t end = start + duration;
    if (it != busy_.begin() && std::prev(it)->end == start) {
      std::prev(it)->end = end;
      if (it->begin == end) {
        std::prev(it)->end = it->end;
        busy_.erase(it);
      }
    } else if (it->begin == end) {
      it->begin = start;
    } else {
      busy_.insert(it, Interval{start, end});
    }
    return start;
  }
  std::size_t bookings() const { return busy_.size(); }

 private:
  struct Interval {
    std::uint64_t begin, end;
  };
  void append(std::uint64_t start, std::uint64_t duration) {
    if (duration == 0) return;
    if (!busy_.empty() && busy_.back().end == start)
      busy_.back().end += duration;
    else
      busy_.push_back(Interval{start, start + duration});
  }
  std::deque<Interval> busy_;  // disjoint, sorted
};

}  // namespace ssd::tlmx
