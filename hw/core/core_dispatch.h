// Core dispatch: which of the controller's embedded cores runs a firmware job. The policy is
// asked once per job, when the job is posted, and sees every core's load at that instant; it
// either names a core (the job waits in that core's queue, in arrival order) or leaves the job
// in the shared queue, which the lowest-numbered free core takes from (a core runs its own
// queue first). Chosen by the platform parameter core.dispatch:
//
//   first_idle        every job goes to the shared queue: whenever a core is free it takes the
//                     oldest job, the lowest-numbered free core first. Work-conserving (no job
//                     waits while a core is free) but uneven: the low cores take most jobs and
//                     the high ones only the overflow. The default, and the behaviour before
//                     the policy existed (then the kernel's process order decided which free
//                     core went first: the highest-numbered, so per-core figures are mirrored).
//   round_robin       job i goes to core i mod N, whatever the cores' load: job counts differ by
//                     at most one, but a job may wait for its busy core while another is free.
//   least_loaded      the core with the fewest jobs running or waiting; ties go to the core with
//                     the least busy time so far, then to the lowest number. Balances busy time.
//   channel_affinity  a job about flash channel c (a completion from it) goes to core c mod N,
//                     so one core keeps a channel's state warm; jobs without a channel (host
//                     commands, DMA completions) go least_loaded.
//
// Plain C++: a policy sees numbers, not SystemC, so it can be tested on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ssd::hw {

// What the poster of a job knows about it.
struct JobHint {
  static constexpr std::int32_t kNoChannel = -1;
  std::int32_t channel = kNoChannel;  // the flash channel the job is about, if any
};

// A core as a dispatch policy sees it when a job is posted.
struct CoreLoad {
  bool running = false;          // busy with a job at this instant
  std::size_t waiting = 0;       // jobs in its own queue, not started yet
  std::uint64_t busy_ticks = 0;  // time spent on jobs so far (compute and memory wait), kernel ticks
};

class CoreDispatch {
 public:
  static constexpr unsigned kSharedQueue = ~0u;  // "the first free core takes it"
  virtual ~CoreDispatch() = default;
  // The core (index into `cores`) that runs this job, or kSharedQueue.
  virtual unsigned assign(const JobHint& job, const std::vector<CoreLoad>& cores) = 0;
};

// The policy named `name` (one of core_dispatch_names()); throws std::invalid_argument otherwise.
std::unique_ptr<CoreDispatch> make_core_dispatch(const std::string& name);
const std::set<std::string>& core_dispatch_names();

}  // namespace ssd::hw
