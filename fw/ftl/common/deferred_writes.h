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
  std::size_t size() const { return queue_.size(); }

  // Queues the page; the outcome's operation completes once the page is programmed.
  WriteOutcome defer(const PageWrite& page) {
    ++counter_;
    OpRef done = ops_.join();
    queue_.push_back({page, done});
    return WriteOutcome{done, false};
  }

  // Places waiting pages in order while try_place(page) succeeds (returns the page's program;
  // an invalid OpRef leaves the page waiting and stops).
  template <typename TryPlace>
  void retry(TryPlace try_place) {
    while (!queue_.empty()) {
      const OpRef program = try_place(queue_.front().page);
      if (!program.valid()) return;
      const OpRef done = queue_.front().done;
      queue_.pop_front();
      ops_.depend(program, done);
      ops_.submit(done);
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
