// Where a host request's time went: its critical path cut into stages, carried along with the
// work that is on that path (the host command, then the firmware operation whose completion
// releases the next one, then the completion entry), each model adding the stretch it just
// held it to the stage it was in. Because every stretch starts where the previous one ended,
// the stages of a request add up exactly to its latency.
//
// Critical path: an operation released by the completion of an operation of the same request
// continues that one's trail (the last predecessor to complete is the one it waited for); one
// released by work of another request or by garbage collection waited for it, and that wait is
// "dependency_wait" on its own trail. Times are kernel ticks (tlm/time_base.h).
// Standard-library only: the firmware carries trails without seeing SystemC.
#pragma once

#include <array>
#include <cstdint>

namespace ssd {

enum class Stage : std::uint8_t {
  HostQueue,        // at the host: waiting for a queue slot, or held behind an overlapping request
  Submission,       // doorbell and submission-entry fetch over the host link, to the firmware
  Firmware,         // firmware jobs on the path: waiting for a core, computing, table accesses
  BufferWait,       // waiting for data-buffer pages (firmware.buffer_slots)
  DependencyWait,   // waiting for flash work of other requests or GC (a program in flight, an erase)
  Pcie,             // host data over the host link (and waiting for the link)
  DramBus,          // data between the controller and the DRAM buffer over the system bus
  DieQueue,         // queued at a busy die
  ChannelWait,      // the die is ready, the channel is carrying other dies' transfers
  ChannelTransfer,  // command/address cycles and data on the channel
  Array,            // tR / tPROG / tBERS (with any suspension a program or erase went through)
  Completion,       // completion entry over the host link to the host
  EccDecode,        // a flash read's first hard decode in the controller's ECC engine
  ReadRetry,        // read-retry steps after a failed decode: re-reads with shifted voltages, their decodes
  SoftDecode,       // soft sensing, the soft bits' transfer and the soft decode, once the retries are spent
  FlushWait,        // a flush waiting for the write buffer's pages written before it to reach the flash
};
inline constexpr std::size_t kStages = 16;

inline const char* stage_name(Stage s) {
  static const char* const names[kStages] = {"host_queue", "submission",       "firmware",   "buffer_wait",
                                             "dependency_wait", "pcie",        "dram_bus",   "die_queue",
                                             "channel_wait", "channel_transfer", "array",    "completion",
                                             "ecc_decode",   "read_retry",       "soft_decode", "flush_wait"};
  return names[static_cast<std::size_t>(s)];
}

#ifdef SSD_TARGET_BUILD
// In the firmware image (core.model = iss) a trail is nothing: it is the simulator's bookkeeping,
// not the firmware's work, and copying 112 bytes with every operation, completion and event cost
// the image a fifth of its cycles, which the calibration would have charged to the firmware. The
// platform keeps the image's trails itself (platforms/soc/controller_registers.h).
struct LatencyTrail {
  static constexpr std::uint64_t owner = 0;
  static LatencyTrail begin(std::uint64_t, std::uint64_t) { return {}; }
  void advance(Stage, std::uint64_t) {}
};
#else
struct LatencyTrail {
  std::uint64_t owner = 0;  // the host request it belongs to (host model's serial); 0: none
  std::uint64_t at = 0;     // accounted up to this time
  std::array<std::uint64_t, kStages> ticks{};

  static LatencyTrail begin(std::uint64_t owner, std::uint64_t time) {
    LatencyTrail t;
    t.owner = owner;
    t.at = time;
    return t;
  }
  // The work spent [at, time) in stage `s`. A time before `at` adds nothing (the stretch was
  // accounted already, e.g. a model that marked a phase's end ahead).
  void advance(Stage s, std::uint64_t time) {
    if (time <= at) return;
    ticks[static_cast<std::size_t>(s)] += time - at;
    at = time;
  }
  std::uint64_t total() const {
    std::uint64_t sum = 0;
    for (const std::uint64_t t : ticks) sum += t;
    return sum;
  }
};
#endif

}  // namespace ssd
