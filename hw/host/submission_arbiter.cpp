#include "hw/host/submission_arbiter.h"

#include <limits>
#include <stdexcept>

namespace ssd::hw {

std::optional<ArbitrationConfig::Policy> parse_arbitration_policy(const std::string& name) {
  if (name == "rr") return ArbitrationConfig::Policy::RoundRobin;
  if (name == "wrr") return ArbitrationConfig::Policy::WeightedRoundRobin;
  return std::nullopt;
}

SubmissionArbiter::SubmissionArbiter(const ArbitrationConfig& config, std::vector<QueuePriority> queue_classes)
    : cfg_(config), classes_(std::move(queue_classes)) {
  for (const std::uint32_t w : cfg_.weights)
    if (w == 0) throw std::invalid_argument("weighted round robin: every class weight must be at least 1");
  const bool weighted = cfg_.policy == ArbitrationConfig::Policy::WeightedRoundRobin;
  groups_.resize(weighted ? kQueuePriorities : 1);
  for (std::uint32_t q = 0; q < classes_.size(); ++q) groups_[group_of(q)].push_back(q);
  last_in_group_.assign(groups_.size(), std::numeric_limits<std::size_t>::max());
  credits_ = cfg_.weights;
}

std::size_t SubmissionArbiter::group_of(std::uint32_t queue) const {
  return cfg_.policy == ArbitrationConfig::Policy::WeightedRoundRobin ? static_cast<std::size_t>(classes_[queue]) : 0;
}

bool SubmissionArbiter::has_pending(std::size_t group, const std::vector<std::uint32_t>& pending) const {
  for (const std::uint32_t q : groups_[group])
    if (pending[q] > 0) return true;
  return false;
}

int SubmissionArbiter::round_robin(std::size_t group, const std::vector<std::uint32_t>& pending) {
  const std::vector<std::uint32_t>& members = groups_[group];
  const std::size_t n = members.size();
  const std::size_t start = last_in_group_[group] == std::numeric_limits<std::size_t>::max() ? 0 : last_in_group_[group] + 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t index = (start + i) % n;
    if (pending[members[index]] > 0) {
      last_in_group_[group] = index;
      return static_cast<int>(members[index]);
    }
  }
  return -1;
}

std::optional<std::uint32_t> SubmissionArbiter::next(const std::vector<std::uint32_t>& pending) {
  if (pending.size() != classes_.size()) throw std::logic_error("arbiter: pending counts for another set of queues");
  const bool weighted = cfg_.policy == ArbitrationConfig::Policy::WeightedRoundRobin;
  const std::size_t urgent = static_cast<std::size_t>(QueuePriority::Urgent);
  const bool urgent_waiting = weighted && has_pending(urgent, pending);
  auto launch = [&](int queue) {
    const std::size_t group = group_of(static_cast<std::uint32_t>(queue));
    if (weighted && group != urgent) --credits_[group - 1];
    return static_cast<std::uint32_t>(queue);
  };
  // The queue in its burst goes on while it holds commands (and, weighted, while its class has
  // weight left this round and no Urgent queue waits).
  if (granted_ >= 0 && burst_left_ > 0 && pending[static_cast<std::size_t>(granted_)] > 0) {
    const std::size_t group = group_of(static_cast<std::uint32_t>(granted_));
    if (!weighted || group == urgent || (!urgent_waiting && credits_[group - 1] > 0)) {
      --burst_left_;
      return launch(granted_);
    }
  }
  int queue = -1;
  if (!weighted || urgent_waiting) {
    queue = round_robin(weighted ? urgent : 0, pending);
  } else {
    for (int round = 0; round < 2 && queue < 0; ++round) {
      for (std::size_t c = 1; c < kQueuePriorities && queue < 0; ++c)
        if (credits_[c - 1] > 0 && has_pending(c, pending)) queue = round_robin(c, pending);
      if (queue < 0) credits_ = cfg_.weights;  // no class with commands has weight left: a new round
    }
  }
  if (queue < 0) {
    granted_ = -1;
    return std::nullopt;
  }
  granted_ = queue;
  burst_left_ = (cfg_.burst == 0 ? std::numeric_limits<std::uint32_t>::max() : cfg_.burst) - 1;
  return launch(queue);
}

}  // namespace ssd::hw
