// Bookings of a shared resource (bus, memory port, link direction) in simulated time.
//
// Loosely-timed initiators reach a resource at now + their annotated delay, and not in time
// order: the core books its table accesses ahead, at its local time, before a DMA that arrives
// earlier in simulated time but is issued later in host order. A single "busy until" would
// make that DMA wait for an access that has not happened yet; the calendar instead places each
// transfer in the first gap at or after its arrival. Bookings that ended before the present
// are dropped, so the calendar holds only the near future.
//
// Cost: the bookings are a treap (a randomised balanced search tree) ordered by time, each
// subtree knowing the span it covers and the largest free gap inside it, so the first gap that
// fits is found by one descent and a booking costs O(log n) expected in the bookings held, however
// many small gaps lie before the fit. (A sorted list walked gap by gap cost O(n) a booking and
// let a calendar holding many future bookings stall a run: issue 32.)
//
// Most bookings come after every other (a job's accesses, each after the last): those wait in a
// tail, a plain sorted list after the tree, at O(1) each, and are forgotten from its front the
// same way. A booking that lands before the last one finds its gap by a walk of the tail while
// the tail is short and the tree empty (most calendars hold a handful of bookings); otherwise it
// moves the tail into the tree first (a treap built from sorted spans in linear time), so each
// booking enters the tree at most once.
// Where the tree took every booking, a hybrid FTL's merges on the tiny platform (thousands of
// table accesses booked ahead) spent 40% of the run in it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ssd::tlmx {

class BusyCalendar {
 public:
  // Books `duration` ps at the earliest time >= arrival that overlaps no booking; returns the
  // start. `now` (<= arrival) lets it forget the past.
  std::uint64_t book(std::uint64_t arrival, std::uint64_t duration, std::uint64_t now);
  // Bookings held (touching ones merged).
  std::size_t bookings() const { return size_; }
  // Tree nodes the last book() visited to find its gap: a diagnostic that tests bound.
  std::uint32_t last_search_steps() const { return steps_; }

 private:
  static constexpr std::int32_t kNil = -1;
  struct Node {
    std::uint64_t begin, end;
    std::uint64_t min_begin, max_end, max_gap;  // of the subtree: its span and largest inner gap
    std::uint32_t priority;
    std::int32_t left, right;
  };
  std::int32_t make(std::uint64_t begin, std::uint64_t end);
  void release(std::int32_t t);
  void update(std::int32_t t);
  std::int32_t merge(std::int32_t a, std::int32_t b);
  // The nodes `before` holds for (a prefix in time order: bookings are disjoint and sorted, so
  // their begins and ends both are) to `lo`, the rest to `hi`.
  template <class Before>
  void split(std::int32_t t, const Before& before, std::int32_t& lo, std::int32_t& hi);
  // Split at bookings that begin before `key`.
  void split_at(std::int32_t t, std::uint64_t key, std::int32_t& lo, std::int32_t& hi) {
    split(t, [key](const Node& n) { return n.begin < key; }, lo, hi);
  }
  void release_tree(std::int32_t t);
  // Drops the bookings that ended by `now`: from the tree, then (the tree empty) the tail's front.
  void forget(std::uint64_t now);
  // Moves the tail into the tree.
  void flush_tail();
  // book() on a short tail with no tree: the first fit by a walk, inserted in place.
  std::uint64_t list_book(std::uint64_t arrival, std::uint64_t duration);
  static constexpr std::size_t kShortList = 32;
  void update_subtree(std::int32_t t);
  bool tail_empty() const { return tail_head_ == tail_.size(); }
  // The end of the last booking (bookings held).
  std::uint64_t last_end() const { return tail_empty() ? nodes_[root_].max_end : tail_.back().end; }
  // The earliest start >= from in a gap of >= duration inside subtree t or just before it
  // (from prev_end, the end of the booking before the subtree); kNone if none there.
  std::uint64_t first_fit(std::int32_t t, std::uint64_t from, std::uint64_t duration, std::uint64_t prev_end);
  std::int32_t leftmost(std::int32_t t) const;
  std::int32_t rightmost(std::int32_t t) const;
  void insert(std::uint64_t begin, std::uint64_t end);
  // A booking at or after every other (the common case): extends the last booking when it
  // touches it, else joins the tail.
  void append(std::uint64_t begin, std::uint64_t end);

  static constexpr std::uint64_t kNone = ~std::uint64_t(0);
  std::vector<Node> nodes_;
  std::vector<std::int32_t> free_;
  std::int32_t root_ = kNil;
  struct Span {
    std::uint64_t begin, end;
  };
  std::vector<Span> tail_;  // bookings after every one in the tree, in time order; [0, tail_head_) forgotten
  std::size_t tail_head_ = 0;
  std::vector<std::int32_t> spine_;  // flush_tail's right spine
  std::size_t size_ = 0;
  std::uint32_t rng_ = 0x9e3779b9u;  // xorshift: priorities are a fixed sequence, runs repeat exactly
  std::uint32_t steps_ = 0;
};

// ---- implementation (header-only: the unit tests use it without SystemC) -----------------------

inline std::int32_t BusyCalendar::make(std::uint64_t begin, std::uint64_t end) {
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 17;
  rng_ ^= rng_ << 5;
  const Node n{begin, end, begin, end, 0, rng_, kNil, kNil};
  ++size_;
  if (!free_.empty()) {
    const std::int32_t t = free_.back();
    free_.pop_back();
    nodes_[t] = n;
    return t;
  }
  nodes_.push_back(n);
  return static_cast<std::int32_t>(nodes_.size() - 1);
}

inline void BusyCalendar::release(std::int32_t t) {
  free_.push_back(t);
  --size_;
}

inline void BusyCalendar::release_tree(std::int32_t t) {
  if (t == kNil) return;
  release_tree(nodes_[t].left);
  release_tree(nodes_[t].right);
  release(t);
}

inline void BusyCalendar::update(std::int32_t t) {
  Node& n = nodes_[t];
  n.min_begin = n.begin;
  n.max_end = n.end;
  n.max_gap = 0;
  if (n.left != kNil) {
    const Node& l = nodes_[n.left];
    n.min_begin = l.min_begin;
    n.max_gap = std::max(l.max_gap, n.begin - l.max_end);
  }
  if (n.right != kNil) {
    const Node& r = nodes_[n.right];
    n.max_end = r.max_end;
    n.max_gap = std::max({n.max_gap, r.max_gap, r.min_begin - n.end});
  }
}

inline std::int32_t BusyCalendar::merge(std::int32_t a, std::int32_t b) {
  if (a == kNil) return b;
  if (b == kNil) return a;
  if (nodes_[a].priority > nodes_[b].priority) {
    nodes_[a].right = merge(nodes_[a].right, b);
    update(a);
    return a;
  }
  nodes_[b].left = merge(a, nodes_[b].left);
  update(b);
  return b;
}

template <class Before>
void BusyCalendar::split(std::int32_t t, const Before& before, std::int32_t& lo, std::int32_t& hi) {
  if (t == kNil) {
    lo = hi = kNil;
    return;
  }
  if (before(nodes_[t])) {
    split(nodes_[t].right, before, nodes_[t].right, hi);
    lo = t;
  } else {
    split(nodes_[t].left, before, lo, nodes_[t].left);
    hi = t;
  }
  update(t);
}

inline std::int32_t BusyCalendar::leftmost(std::int32_t t) const {
  while (t != kNil && nodes_[t].left != kNil) t = nodes_[t].left;
  return t;
}

inline std::int32_t BusyCalendar::rightmost(std::int32_t t) const {
  while (t != kNil && nodes_[t].right != kNil) t = nodes_[t].right;
  return t;
}

// In order: the left subtree, the gap before this booking, the right subtree. A subtree that
// ends by `from` holds no usable gap (the one after it belongs to the caller), nor one whose
// gaps, the leading one included, are all shorter than `duration`; past `from` every gap is
// usable whole, so only the subtrees straddling `from` are entered without a fit in them.
inline std::uint64_t BusyCalendar::first_fit(std::int32_t t, std::uint64_t from, std::uint64_t duration,
                                             std::uint64_t prev_end) {
  if (t == kNil) return kNone;
  ++steps_;
  const Node& n = nodes_[t];
  if (n.max_end <= from) return kNone;
  if (std::max(n.max_gap, n.min_begin - prev_end) < duration) return kNone;
  const std::uint64_t in_left = first_fit(n.left, from, duration, prev_end);
  if (in_left != kNone) return in_left;
  const std::uint64_t gap_begin = n.left != kNil ? nodes_[n.left].max_end : prev_end;
  const std::uint64_t start = std::max(gap_begin, from);
  if (start < n.begin && start + duration <= n.begin) return start;
  return first_fit(n.right, from, duration, n.end);
}

inline void BusyCalendar::insert(std::uint64_t begin, std::uint64_t end) {
  std::int32_t lo, hi;
  split_at(root_, begin, lo, hi);
  // Merge with a booking that ends where this one begins, or begins where it ends.
  const std::int32_t before = rightmost(lo);
  if (before != kNil && nodes_[before].end == begin) {
    begin = nodes_[before].begin;
    std::int32_t rest, last;
    split_at(lo, begin, rest, last);
    release(last);
    lo = rest;
  }
  const std::int32_t after = leftmost(hi);
  if (after != kNil && nodes_[after].begin == end) {
    end = nodes_[after].end;
    std::int32_t first, rest;
    split_at(hi, end, first, rest);
    release(first);
    hi = rest;
  }
  root_ = merge(merge(lo, make(begin, end)), hi);
}

inline void BusyCalendar::append(std::uint64_t begin, std::uint64_t end) {
  if (!tail_empty()) {
    if (tail_.back().end == begin) {
      tail_.back().end = end;
      return;
    }
  } else if (const std::int32_t last = rightmost(root_); last != kNil && nodes_[last].end == begin) {
    // Only the right spine's spans grow; no gap changes (the last booking has nothing after it).
    for (std::int32_t t = root_; t != kNil; t = nodes_[t].right) nodes_[t].max_end = end;
    nodes_[last].end = end;
    return;
  }
  tail_.push_back({begin, end});
  ++size_;
}

inline void BusyCalendar::update_subtree(std::int32_t t) {
  if (t == kNil) return;
  update_subtree(nodes_[t].left);
  update_subtree(nodes_[t].right);
  update(t);
}

// The tail's spans in order, each a node with its priority, as a treap: a node takes the spine
// nodes of lower priority as its left subtree and becomes the right child of the one above
// (a Cartesian tree). All of it lies after the tree, so one merge joins them.
inline void BusyCalendar::flush_tail() {
  if (tail_empty()) return;
  spine_.clear();
  for (std::size_t i = tail_head_; i < tail_.size(); ++i) {
    const std::int32_t t = make(tail_[i].begin, tail_[i].end);
    --size_;  // already counted in the tail
    std::int32_t below = kNil;
    while (!spine_.empty() && nodes_[spine_.back()].priority < nodes_[t].priority) {
      below = spine_.back();
      spine_.pop_back();
    }
    nodes_[t].left = below;
    if (!spine_.empty()) nodes_[spine_.back()].right = t;
    spine_.push_back(t);
  }
  tail_.clear();
  tail_head_ = 0;
  const std::int32_t built = spine_.front();
  update_subtree(built);
  root_ = merge(root_, built);
}

inline std::uint64_t BusyCalendar::list_book(std::uint64_t arrival, std::uint64_t duration) {
  std::uint64_t start = kNone, prev_end = 0;
  std::size_t i = tail_head_;  // ends as the first booking after the new one (tail_.size(): none)
  for (; i < tail_.size(); ++i, ++steps_) {
    const std::uint64_t from = std::max(prev_end, arrival);
    if (from < tail_[i].begin && from + duration <= tail_[i].begin) {
      start = from;
      break;
    }
    prev_end = tail_[i].end;
  }
  if (start == kNone) start = std::max(arrival, prev_end);  // after everything
  if (duration == 0) return start;
  const std::uint64_t end = start + duration;
  const bool joins_before = i > tail_head_ && tail_[i - 1].end == start;
  const bool joins_after = i < tail_.size() && tail_[i].begin == end;
  const auto at = tail_.begin() + std::ptrdiff_t(i);
  if (joins_before && joins_after) {
    tail_[i - 1].end = tail_[i].end;
    tail_.erase(at);
    --size_;
  } else if (joins_before) {
    tail_[i - 1].end = end;
  } else if (joins_after) {
    tail_[i].begin = start;
  } else {
    tail_.insert(at, Span{start, end});
    ++size_;
  }
  return start;
}

inline void BusyCalendar::forget(std::uint64_t now) {
  if (root_ != kNil && nodes_[leftmost(root_)].end <= now) {
    std::int32_t past, rest;
    split(root_, [now](const Node& n) { return n.end <= now; }, past, rest);
    release_tree(past);
    root_ = rest;
  }
  if (root_ != kNil) return;  // the tail lies after the tree: nothing of it ended yet
  while (!tail_empty() && tail_[tail_head_].end <= now) {
    ++tail_head_;
    --size_;
  }
  if (tail_empty()) {
    tail_.clear();
    tail_head_ = 0;
  } else if (tail_head_ >= 64 && 2 * tail_head_ >= tail_.size()) {  // keep the forgotten front short
    tail_.erase(tail_.begin(), tail_.begin() + std::ptrdiff_t(tail_head_));
    tail_head_ = 0;
  }
}

inline std::uint64_t BusyCalendar::book(std::uint64_t arrival, std::uint64_t duration, std::uint64_t now) {
  steps_ = 0;
  forget(now);
  if (size_ == 0 || arrival >= last_end()) {  // the common case: after everything
    if (duration > 0) append(arrival, arrival + duration);
    return arrival;
  }
  if (root_ == kNil && tail_.size() - tail_head_ <= kShortList) return list_book(arrival, duration);
  flush_tail();
  std::uint64_t start = first_fit(root_, arrival, duration, 0);
  if (start == kNone) start = std::max(arrival, nodes_[root_].max_end);  // after everything
  if (duration > 0) insert(start, start + duration);
  return start;
}

}  // namespace ssd::tlmx
