// Host page writes that found no room (every block they may use is full and the free pool is
// down to GC's reserve) wait here, in arrival order, until GC frees a block. Each is answered
// at once with a join operation that completes when its program does, so the firmware can
// acknowledge the write then.
//
// Two ways to let them go:
// - retry: in arrival order, stopping at the first that still cannot be placed (every write
//   waits for the oldest: one queue for the whole drive);
// - retry_each: every waiting write is tried, in arrival order, but never ahead of an earlier
//   one with the same key (a logical block, a superblock): a write waits only for the writes
//   and the reclaiming its own key needs. Each carries a tag its FTL sets (what it waits for).
#pragma once

#include <cstdint>
#include <list>
#include <unordered_map>
#include <unordered_set>

#include "fw/ftl/ftl.h"

namespace ssd::fw {

class DeferredWrites {
 public:
  static constexpr std::uint32_t kNoTag = 0xffffffffu;

  DeferredWrites(OpScheduler& ops, std::uint64_t& counter) : ops_(ops), counter_(counter) {}

  bool empty() const { return queue_.empty(); }
  std::size_t size() const { return queue_.size(); }
  // Whether a write with this key waits (keys as given to defer).
  bool waiting(std::uint32_t key) const { return per_key_.count(key) != 0; }

  // Queues the page; the outcome's operation completes once the page is programmed. A
  // relocation (read reclaim) of a logical page a waiting write will supersede is dropped: placed
  // after that write, its older data would win.
  WriteOutcome defer(const PageWrite& page, std::uint32_t key = 0, std::uint32_t tag = kNoTag) {
    if (page.relocation)
      for (const Waiting& w : queue_)
        if (w.page.lpn == page.lpn) {
          OpRef dropped = ops_.join();
          ops_.submit(dropped);
          return WriteOutcome{dropped, false, true};
        }
    ++counter_;
    OpRef done = ops_.join();
    queue_.push_back({page, done, key, tag});
    ++per_key_[key];
    return WriteOutcome{done, false};
  }

  // A trim of `lpn`: every waiting write of it is dropped (its operation completes once its data
  // is in, the page never programmed). Returns how many.
  std::uint32_t drop(Lpn lpn) {
    std::uint32_t dropped = 0;
    for (auto it = queue_.begin(); it != queue_.end();) {
      if (it->page.lpn != lpn) {
        ++it;
        continue;
      }
      ops_.depend(it->page.data_ready, it->done);
      ops_.submit(it->done);
      if (--per_key_[it->key] == 0) per_key_.erase(it->key);
      it = queue_.erase(it);
      ++dropped;
    }
    return dropped;
  }

  // Places waiting pages in order while try_place(page) succeeds (returns the page's program;
  // an invalid OpRef leaves the page waiting and stops).
  template <typename TryPlace>
  void retry(TryPlace try_place) {
    while (!queue_.empty()) {
      const OpRef program = try_place(queue_.front().page);
      if (!program.valid()) return;
      place(queue_.begin(), program);
    }
  }

  // Tries every waiting page in order whose key no earlier waiting page has: try_place(page,
  // tag) returns its program, or an invalid OpRef to leave it waiting (having updated `tag`).
  template <typename TryPlace>
  void retry_each(TryPlace try_place) {
    std::unordered_set<std::uint32_t> blocked;  // keys with an earlier page still waiting
    for (auto it = queue_.begin(); it != queue_.end();) {
      if (blocked.count(it->key) == 0) {
        const OpRef program = try_place(it->page, it->tag);
        if (program.valid()) {
          it = place(it, program);
          continue;
        }
        blocked.insert(it->key);
      }
      ++it;
    }
  }

 private:
  struct Waiting {
    PageWrite page;
    OpRef done;
    std::uint32_t key, tag;
  };
  std::list<Waiting>::iterator place(std::list<Waiting>::iterator it, OpRef program) {
    ops_.depend(program, it->done);
    ops_.submit(it->done);
    if (auto k = per_key_.find(it->key); --k->second == 0) per_key_.erase(k);
    return queue_.erase(it);
  }

  OpScheduler& ops_;
  std::uint64_t& counter_;
  std::list<Waiting> queue_;
  std::unordered_map<std::uint32_t, std::uint32_t> per_key_;  // waiting pages per key
};

}  // namespace ssd::fw
