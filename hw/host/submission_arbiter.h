// Which submission queue the controller fetches its next command from (NVMe base specification,
// "Command Arbitration"), as a policy without SystemC so it can be tested in closed form.
//   round robin                 every queue in turn, whatever its class;
//   weighted round robin        Urgent queues first, always (round robin among them); then High,
//                               Medium and Low share the fetches by their weights: each round a
//                               class may fetch `weight` commands, High's first, then Medium's,
//                               then Low's, round robin among the queues of a class; a new round
//                               starts when no class with commands waiting has any weight left.
// Either way a queue chosen may launch up to `burst` commands in a row (the arbitration burst;
// NVMe gives it as a power of two, 2^AB) while it has commands waiting.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/io_queue.h"

namespace ssd::hw {

struct ArbitrationConfig {
  enum class Policy { RoundRobin, WeightedRoundRobin };
  Policy policy = Policy::RoundRobin;
  std::uint32_t burst = 1;  // commands a queue launches per selection (0: as many as it holds)
  // Weighted round robin: commands per round for High, Medium and Low (NVMe's HPW, MPW, LPW + 1).
  std::array<std::uint32_t, 3> weights{4, 2, 1};
};

// "rr" or "wrr"; nullopt for anything else.
std::optional<ArbitrationConfig::Policy> parse_arbitration_policy(const std::string& name);

class SubmissionArbiter {
 public:
  // queue_classes[q]: queue q's priority class.
  SubmissionArbiter(const ArbitrationConfig& config, std::vector<QueuePriority> queue_classes);

  // The queue whose next command is fetched, given how many submitted commands each queue holds
  // that are not fetched yet (pending[q]); nullopt when every queue is empty. Each call is one
  // command fetched.
  std::optional<std::uint32_t> next(const std::vector<std::uint32_t>& pending);

 private:
  // Round robin among `group`'s queues with commands, after the last one chosen; -1: none.
  int round_robin(std::size_t group, const std::vector<std::uint32_t>& pending);
  bool has_pending(std::size_t group, const std::vector<std::uint32_t>& pending) const;
  std::size_t group_of(std::uint32_t queue) const;

  ArbitrationConfig cfg_;
  std::vector<QueuePriority> classes_;
  // Round robin: one group of every queue. Weighted: one group per class (Urgent, High, Medium, Low).
  std::vector<std::vector<std::uint32_t>> groups_;
  std::vector<std::size_t> last_in_group_;
  std::array<std::uint32_t, 3> credits_{};  // weighted: what High, Medium, Low may still fetch this round
  int granted_ = -1;                        // the queue in its burst
  std::uint32_t burst_left_ = 0;
};

}  // namespace ssd::hw
