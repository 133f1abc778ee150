// The state of one NAND die as the channel controller sees it (hw/channel/channel_controller.h).
//
// A die has two tracks, because ONFI's cache commands let its page (data) register and its
// cache register work at once:
//   array  the operation that owns the array: command/address (+ data in), tR/tPROG/tBERS,
//          and, without cache read, the read's data out;
//   cache  the cache register's own transfer: with cache read, a finished read's data out while
//          the array reads the next page; with cache program, the next program's DMA and data in
//          while the array programs the current page (it waits "staged" until the array is free).
// Without the cache commands only the array track is used. A program or erase may also be
// suspended for reads (nand.program_suspend / nand.erase_suspend): its group waits in
// `suspended` with the array time it still owes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <systemc>
#include <tlm>
#include <vector>

#include "common/busy_time.h"
#include "hw/channel/die_queue_policy.h"

namespace ssd::hw {

enum class DiePhase : std::uint8_t {
  Idle,
  DmaIn,       // a program's data comes from DRAM into the controller
  WantBusCmd,  // waits for the bus: command/address cycles (+ data in for a program)
  Array,       // the bus phase just granted, then the array time
  WantBusOut,  // a read's data waits in a register for the bus
  DataOut,     // a read's data leaves the die
  Loading,     // cache track: a cache program's command cycles and data in on the bus
  Staged,      // cache track: a cache program's data is in the cache register, the array is busy
  WaitCache,   // array track: a cache read is done but the cache register still holds the last one
  Suspending,  // array track: a program or erase is being suspended (nand.t_suspend_us)
};

inline const char* to_string(DiePhase p) {
  static const char* const names[] = {"idle",    "dma-in", "wants-bus-cmd", "array",      "wants-bus-out",
                                      "data-out", "loading", "staged",       "wait-cache", "suspending"};
  return names[static_cast<int>(p)];
}

// A die's busy time as the union of intervals added in order of their start (the array and the
// cache register may work at once; the die counts once).
class BusyUnion {
 public:
  explicit BusyUnion(BusyTime* busy = nullptr) : busy_(busy) {}
  void add(sc_core::sc_time from, sc_core::sc_time to) {
    const sc_core::sc_time start = std::max(from, mark_);
    if (to <= start) return;
    busy_->add(start.value(), to.value());
    mark_ = to;
  }
  // The work counted beyond `at` did not happen (a suspended operation; the end of the run).
  void cut(sc_core::sc_time at) {
    if (mark_ <= at) return;
    busy_->remove(at.value(), mark_.value());
    mark_ = at;
  }
  // The power went at `at` and the totals were truncated there (BusyTime::truncate): the next
  // work may start from `at`, with nothing to remove.
  void power_off(sc_core::sc_time at) { mark_ = std::min(mark_, at); }

 private:
  BusyTime* busy_;
  sc_core::sc_time mark_ = sc_core::SC_ZERO_TIME;
};

// The waveform's names for a die's `state` and `cache_state` codes (channel_controller.cpp) and
// for its `origin` (tlmx::CommandOrigin; 0 while the array is idle).
inline constexpr const char* kDieStateNames[] = {"idle",     "dma",      "cmd/data-in", "tR",         "tPROG",
                                                 "tBERS",    "data-out", "wait-bus",    "staged",     "wait-cache",
                                                 "suspending", "tR-retry", "soft-sense"};
inline constexpr const char* kDieOriginNames[] = {"-", "host", "gc", "mapping"};

struct DieTrack {
  std::vector<QueuedCommand> group;  // the operation (or multi-plane group) on this track
  DiePhase phase = DiePhase::Idle;
  sc_core::sc_time until, ready_since;
  bool timed() const {
    return phase == DiePhase::DmaIn || phase == DiePhase::Array || phase == DiePhase::DataOut ||
           phase == DiePhase::Loading || phase == DiePhase::Suspending;
  }
  bool wants_bus() const { return phase == DiePhase::WantBusCmd || phase == DiePhase::WantBusOut; }
  tlmx::FlashOpcode opcode() const { return group[0].cmd->opcode; }
  tlmx::CommandOrigin origin() const { return group[0].cmd->origin; }
};

struct FlashDie {
  std::uint32_t index = 0;
  std::deque<QueuedCommand> queue;
  DieTrack array, cache;
  // A suspended program or erase, the array time it still owes, and the reads that have passed it.
  std::vector<QueuedCommand> suspended;
  sc_core::sc_time suspended_left, array_start;
  std::uint32_t reads_passed = 0;
  bool two_tracks = false;  // the cache track was working when the controller woke
  BusyUnion busy;
  sc_core::sc_event event;  // a track's phase ends (re-armed in step() when both tracks work)
  // A lone program's wait for its multi-plane partner ends. Its own event: an event keeps only
  // its earliest notification, so on `event` the deadline hid a DMA that ended after it.
  sc_core::sc_event partner_due;
  tlm::tlm_generic_payload dma_trans;
  std::uint64_t *reads = nullptr, *programs = nullptr, *erases = nullptr, *multiplane = nullptr,
                *suspends = nullptr, *cache_ops = nullptr;
  // reliability.errors only: retry steps run, soft decodes, pages that never decoded.
  std::uint64_t *read_retries = nullptr, *soft_decodes = nullptr, *uncorrectable = nullptr;
  int vcd_state = -1, vcd_queue = -1, vcd_cache = -1, vcd_origin = -1;
};

}  // namespace ssd::hw
