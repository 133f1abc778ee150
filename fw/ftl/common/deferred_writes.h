// Host page writes that found no room (every block they may use is full and the free pool is
// down to GC's reserve) wait here, in arrival order, until GC frees a block. Each is answered
// at once with a join operation that completes when its program does, so the firmware can
// acknowledge the write then.
#pragma once

#include <cstdint>
#include <deque>

#include "fw/ftl/ftl.h"

namespace ssd::fw {

class DeferredWrites {
 public:
  DeferredWrites(OpScheduler& ops, std::uint64_t& counter) : ops_(ops), counter_(counter) {}

  bool empty() const { return queue_.empty(); }

  // Queues the page; the outcome's operation completes once the page is programmed.
  WriteOutcome defer(const PageWrite& page) {
    ++counter_;
    OpRef done = ops_.join();
    queue_.push_back({page, done});
    return WriteOutcome{done, false};
  }

  // Places waiting pages in order while `where(page)` finds room (returns `none` when not);
  // place(page, where) returns the page's program.
  template <typename Where, typename Place>
  void retry(Where where, Place place, std::uint32_t none) {
    while (!queue_.empty()) {
      const std::uint32_t target = where(queue_.front().page);
      if (target == none) return;
      const Waiting w = queue_.front();
      queue_.pop_front();
      OpRef program = place(w.page, target);
      ops_.depend(program, w.done);
      ops_.submit(w.done);
    }
  }

 private:
  struct Waiting {
    PageWrite page;
    OpRef done;
  };
  OpScheduler& ops_;
  std::uint64_t& counter_;
  std::deque<Waiting> queue_;
};

}  // namespace ssd::fw
