// Which of a die's queued flash commands runs next (channel.scheduler): a strategy chosen by
// configuration, so new channel scheduling policies plug in here without touching the controller.
//   fifo        the oldest command first.
//   read_first  the oldest read that no earlier program or erase of its block holds back goes
//               first (reads overtake writes of other blocks, as read-priority controllers do).
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
  // The index in `queue` (not empty, oldest first) of the command to start next.
  virtual std::size_t next(const std::deque<QueuedCommand>& queue) const = 0;
};

// The index of the oldest read in `queue` that no earlier program or erase of its block holds
// back (reads may overtake writes of other blocks); queue.size() when there is none.
std::size_t first_free_read(const std::deque<QueuedCommand>& queue, const FlashGeometry& geometry);

// Throws std::invalid_argument for a name not in die_queue_policy_names().
std::unique_ptr<DieQueuePolicy> make_die_queue_policy(const std::string& name, const FlashGeometry& geometry);
const std::vector<std::string>& die_queue_policy_names();

}  // namespace ssd::hw
