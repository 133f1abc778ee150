#include "stimuli/queue_assignment.h"

#include <algorithm>

namespace ssd::stimuli {

IssuerQueues::IssuerQueues(std::unique_ptr<Workload> wrapped, std::uint32_t count, std::vector<QueuePriority> priorities)
    : ForwardingWorkload(std::move(wrapped)) {
  if (count == 0) throw WorkloadError("--queues: at least 1 queue");
  if (!inner().io_queues().empty())
    throw WorkloadError(inner().describe() + ": has queues of its own (a job file's `queue`); --queues is for traces "
                        "and synthetic workloads");
  if (priorities.size() > count)
    throw WorkloadError("--queue-priority: " + std::to_string(priorities.size()) + " classes for " +
                        std::to_string(count) + " queues");
  queues_.assign(count, IoQueueSpec{});
  for (std::size_t q = 0; q < priorities.size(); ++q) queues_[q].priority = priorities[q];
}

bool IssuerQueues::next(HostRequest& r) {
  if (!inner().next(r)) return false;
  r.queue = r.issuer % static_cast<std::uint32_t>(queues_.size());
  return true;
}

std::string IssuerQueues::describe() const {
  return inner().describe() + ", issuers on " + std::to_string(queues_.size()) + " queues";
}

OnlyQueue::OnlyQueue(std::unique_ptr<Workload> wrapped, std::uint32_t queue)
    : ForwardingWorkload(std::move(wrapped)), queue_(queue) {
  const std::size_t queues = std::max<std::size_t>(1, inner().io_queues().size());
  if (queue_ >= queues)
    throw WorkloadError("--only-queue " + std::to_string(queue_) + ": the workload has " + std::to_string(queues) +
                        " queue" + (queues == 1 ? "" : "s"));
}

bool OnlyQueue::next(HostRequest& r) {
  while (inner().next(r))
    if (r.queue == queue_) return true;
  return false;
}

std::string OnlyQueue::describe() const { return inner().describe() + ", queue " + std::to_string(queue_) + " alone"; }

}  // namespace ssd::stimuli
