// A workload replayed several times back to back (short traces do not write enough to bring a
// drive's garbage collection to steady state). Pass k's arrivals are shifted by the end of pass
// k-1 plus the pass's span divided by its request count (span/n, a little under the mean gap
// span/(n-1)): n requests every span x (n+1)/n, i.e. n^2/(n^2-1) times the trace's rate.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

class RepeatedWorkload : public Workload {
 public:
  using Factory = std::function<std::unique_ptr<Workload>()>;
  // Throws WorkloadError when passes is 0, or when the workload has per-stream queue depths and
  // passes > 1.
  RepeatedWorkload(Factory open, std::uint32_t passes);

  bool next(HostRequest& r) override;
  std::string describe() const override;
  std::string position() const override { return current_->position(); }
  double fraction_done() const override {
    const double f = current_->fraction_done();
    return f < 0 ? f : (double(pass_ - 1) + f) / double(passes_);
  }
  std::vector<IoQueueSpec> io_queues() const override { return current_->io_queues(); }
  std::uint64_t skipped_lines() const override { return current_->skipped_lines(); }
  std::string first_skipped() const override { return current_->first_skipped(); }
  std::uint64_t backward_steps() const override { return current_->backward_steps(); }
  std::uint64_t largest_backward_step_ns() const override { return current_->largest_backward_step_ns(); }

 private:
  Factory open_;
  std::uint32_t passes_, pass_ = 1;
  std::unique_ptr<Workload> current_;
  std::uint64_t offset_ns_ = 0, last_arrival_ns_ = 0, requests_in_pass_ = 0;
};

}  // namespace ssd::stimuli
