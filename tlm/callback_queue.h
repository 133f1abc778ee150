// A payload event queue for actions: schedule(delay, fn) runs fn at now + delay, in time order
// (first scheduled first among equal times), from one method process and one kernel event.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <systemc>
#include <vector>

namespace ssd::tlmx {

class CallbackQueue : public sc_core::sc_module {
 public:
  explicit CallbackQueue(sc_core::sc_module_name name) : sc_module(name) {
    SC_METHOD(run);
    sensitive << event_;
    dont_initialize();
  }
  SC_HAS_PROCESS(CallbackQueue);

  void schedule(const sc_core::sc_time& delay, std::function<void()> fn) {
    const sc_core::sc_time when = sc_core::sc_time_stamp() + delay;
    heap_.push(Entry{when, seq_++, std::move(fn)});
    event_.notify(heap_.top().when - sc_core::sc_time_stamp());
  }
  std::size_t size() const { return heap_.size(); }
  // The power went: nothing scheduled happens.
  void clear() {
    heap_ = {};
    event_.cancel();
  }

 private:
  struct Entry {
    sc_core::sc_time when;
    std::uint64_t seq;
    std::function<void()> fn;
    bool operator>(const Entry& o) const { return when != o.when ? when > o.when : seq > o.seq; }
  };
  void run() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (!heap_.empty() && heap_.top().when <= now) {
      std::function<void()> fn = std::move(const_cast<Entry&>(heap_.top()).fn);
      heap_.pop();
      fn();
    }
    if (!heap_.empty()) event_.notify(heap_.top().when - now);
  }

  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  sc_core::sc_event event_;
  std::uint64_t seq_ = 0;
};

}  // namespace ssd::tlmx
