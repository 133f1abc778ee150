// Which of a die's queued flash commands runs next (channel.scheduler): a strategy chosen by
// configuration, so new channel scheduling policies plug in here without touching the controller.
//   fifo        the oldest command first.
//   read_first  the oldest read that no earlier program or erase of its block holds back goes
//               first (reads overtake writes of other blocks, as read-priority controllers do).
//   host_first  the oldest host command (not the firmware's background work, GC) that no
//               earlier command of its block holds back (reads pass reads) goes first, unless the
//               oldest background command has waited channel.gc_max_wait_us: then it does (aging,
//               so GC is never starved; unbounded, host writes passed GC until the run ended
//               with its copies undone and a WAF of 1.6 reported for 8.9). Measured on
//               default.yaml after fill+steady, 30k 8 KiB requests, 50% reads, QD32 (read mean /
//               p99, write mean, WAF): fifo 4.15 / 16.5 / 3.6 ms, 8.79; host_first 4.0 / 17.5 /
//               3.7 ms, 8.77 (at 1 ms of aging GC mostly goes first anyway); with 10 ms of aging
//               3.4 / 27.2 / 3.7 ms but WAF 8.53: the window leaves GC work undone, so its figures
//               flatter; read_first 0.49 / 1.55 / 6.7 ms, 8.66. In steady state reads gain from
//               passing writes (read_first), not from passing GC.
//   flow_priority  by the class of the host queue each command's request came from (urgent, high,
//               medium, low; tlmx::FlashCommand::flow_class): the oldest command of the most urgent
//               class that no earlier command of its block holds back goes first, the firmware's
//               own work after every flow, and any command that waited channel.gc_max_wait_us
//               goes first (aging, so no class starves).
// Multi-plane partners are gathered by the controller after the choice, whatever the policy.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <tlm>

#include "common/geometry.h"
#include "tlm/flash_command.h"

namespace ssd::hw {

struct QueuedCommand {
  tlm::tlm_generic_payload* trans;
  tlmx::FlashCommand* cmd;
  sc_core::sc_time arrived;  // when it reached the die's queue
};

class DieQueuePolicy {
 public:
  virtual ~DieQueuePolicy() = default;
  // The index in `queue` (not empty, oldest first) of the command to start next at `now`.
  virtual std::size_t next(const std::deque<QueuedCommand>& queue, sc_core::sc_time now) const = 0;
};

// The index of the oldest read in `queue` that no earlier program or erase of its block holds
// back (reads may overtake writes of other blocks); queue.size() when there is none.
std::size_t first_free_read(const std::deque<QueuedCommand>& queue, const FlashGeometry& geometry);

// Throws std::invalid_argument for a name not in die_queue_policy_names().
// `background_max_wait`: host_first's aging bound.
std::unique_ptr<DieQueuePolicy> make_die_queue_policy(const std::string& name, const FlashGeometry& geometry,
                                                      sc_core::sc_time background_max_wait);
const std::vector<std::string>& die_queue_policy_names();

}  // namespace ssd::hw
