#include "stimuli/repeated_workload.h"

namespace ssd::stimuli {

RepeatedWorkload::RepeatedWorkload(Factory open, std::uint32_t passes) : open_(std::move(open)), passes_(passes) {
  if (passes_ == 0) throw WorkloadError("a workload must be replayed at least once (repeat >= 1)");
  current_ = open_();
  // Per-stream queue depths count each stream's requests in flight; a new pass would start
  // counting while the last pass's requests still complete.
  if (passes_ > 1 && !current_->stream_depths().empty())
    throw WorkloadError(current_->describe() + ": jobs with an iodepth cannot be repeated (--repeat); "
                        "raise their counts instead");
}

bool RepeatedWorkload::next(HostRequest& r) {
  while (!current_->next(r)) {
    if (pass_ == passes_ || requests_in_pass_ == 0) return false;  // done, or an empty workload
    const std::uint64_t pass_length = last_arrival_ns_ - offset_ns_;
    offset_ns_ = last_arrival_ns_ + pass_length / requests_in_pass_;
    requests_in_pass_ = 0;
    ++pass_;
    current_ = open_();
  }
  r.arrival_ns += offset_ns_;
  last_arrival_ns_ = r.arrival_ns;
  ++requests_in_pass_;
  return true;
}

std::string RepeatedWorkload::describe() const {
  return passes_ == 1 ? current_->describe() : current_->describe() + " x" + std::to_string(passes_);
}

}  // namespace ssd::stimuli
