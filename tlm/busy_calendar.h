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
#include <map>

namespace ssd::tlmx {

class BusyCalendar {
 public:
  // Books `duration` ps at the earliest time >= arrival that overlaps no booking; returns the
  // start. `now` (<= arrival) lets it forget the past.
  std::uint64_t book(std::uint64_t arrival, std::uint64_t duration, std::uint64_t now) {
    while (!busy_.empty() && busy_.begin()->second <= now) busy_.erase(busy_.begin());
    std::uint64_t start = arrival;
    auto it = busy_.upper_bound(start);
    if (it != busy_.begin() && std::prev(it)->second > start) start = std::prev(it)->second;
    while (it != busy_.end() && it->first < start + duration) {
      start = std::max(start, it->second);
      ++it;
    }
    if (duration == 0) return start;
    // Insert, merging with touching neighbours so back-to-back traffic stays one entry.
    std::uint64_t end = start + duration;
    auto next = busy_.lower_bound(start);
    if (next != busy_.end() && next->first == end) {
      end = next->second;
      next = busy_.erase(next);
    }
    if (next != busy_.begin() && std::prev(next)->second == start) {
      std::prev(next)->second = end;
      return start;
    }
    busy_.emplace_hint(next, start, end);
    return start;
  }
  std::size_t bookings() const { return busy_.size(); }

 private:
  std::map<std::uint64_t, std::uint64_t> busy_;  // start -> end, disjoint
};

}  // namespace ssd::tlmx
