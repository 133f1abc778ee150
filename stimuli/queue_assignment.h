// Workloads seen through the host's I/O queues (common/io_queue.h):
// - IssuerQueues spreads a workload without queues of its own (a trace, a synthetic stream) over
//   `count` queues by issuer (the trace's device, process or stream id): request -> queue
//   issuer mod count, so a trace's tenants become flows.
// - OnlyQueue keeps the requests of one queue and leaves out the rest, the other queues staying
//   (idle): the flow run alone on the same drive, for its slowdown. A stateless filter, for
//   workloads whose requests do not depend on completions (traces, synthetic streams); job files
//   leave their other queues' jobs out themselves (JobWorkload::keep_only_queue), their closed
//   loops counting completions.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stimuli/forwarding_workload.h"

namespace ssd::stimuli {

class IssuerQueues : public ForwardingWorkload {
 public:
  // priorities: each queue's class (shorter: medium for the rest). Throws WorkloadError when the
  // inner workload has queues of its own or count is 0.
  IssuerQueues(std::unique_ptr<Workload> inner, std::uint32_t count, std::vector<QueuePriority> priorities);

  bool next(HostRequest& r) override;
  std::vector<IoQueueSpec> io_queues() const override { return queues_; }
  std::string describe() const override;

 private:
  std::vector<IoQueueSpec> queues_;
};

class OnlyQueue : public ForwardingWorkload {
 public:
  // Throws WorkloadError when `queue` is not one of the inner workload's queues.
  OnlyQueue(std::unique_ptr<Workload> inner, std::uint32_t queue);

  bool next(HostRequest& r) override;
  std::string describe() const override;

 private:
  std::uint32_t queue_;
};

}  // namespace ssd::stimuli
