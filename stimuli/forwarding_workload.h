// A workload seen through another: every call goes to the wrapped workload unless the subclass
// overrides it (splitting requests, assigning queues, filtering them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

class ForwardingWorkload : public Workload {
 public:
  explicit ForwardingWorkload(std::unique_ptr<Workload> inner) : inner_(std::move(inner)) {}

  bool next(HostRequest& r) override { return inner_->next(r); }
  std::string describe() const override { return inner_->describe(); }
  std::string position() const override { return inner_->position(); }
  std::vector<std::uint32_t> stream_depths() const override { return inner_->stream_depths(); }
  bool ready() const override { return inner_->ready(); }
  void completed(std::uint32_t issuer) override { inner_->completed(issuer); }
  std::vector<IoQueueSpec> io_queues() const override { return inner_->io_queues(); }
  double fraction_done() const override { return inner_->fraction_done(); }
  std::uint64_t skipped_lines() const override { return inner_->skipped_lines(); }
  std::string first_skipped() const override { return inner_->first_skipped(); }
  std::uint64_t backward_steps() const override { return inner_->backward_steps(); }
  std::uint64_t largest_backward_step_ns() const override { return inner_->largest_backward_step_ns(); }

 protected:
  Workload& inner() { return *inner_; }
  const Workload& inner() const { return *inner_; }

 private:
  std::unique_ptr<Workload> inner_;
};

}  // namespace ssd::stimuli
