// Requests larger than the drive's maximum data transfer size (NVMe MDTS) split into commands,
// as a host's driver splits them (Linux: max_sectors_kb): pieces of `max_sectors` from the
// request's start, the last one the rest, all arriving when the request did. Every other call
// goes to the wrapped workload. The host then replays commands: latency, IOPS and queue slots are
// per command, and a job's stream learns of a split request's end once.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

class SplitRequests : public Workload {
 public:
  // split_requests counts the requests split (each adds its commands beyond the first).
  SplitRequests(std::unique_ptr<Workload> inner, std::uint32_t max_sectors, std::uint64_t& split_requests)
      : inner_(std::move(inner)), max_sectors_(max_sectors), split_requests_(split_requests) {}

  bool next(HostRequest& r) override;
  std::string describe() const override { return inner_->describe(); }
  std::string position() const override { return inner_->position(); }
  std::vector<std::uint32_t> stream_depths() const override { return inner_->stream_depths(); }
  bool ready() const override { return left_ > 0 || inner_->ready(); }
  // A split request's stream learns of its completion once, not once per command.
  void completed(std::uint32_t issuer) override;
  double fraction_done() const override { return inner_->fraction_done(); }
  std::uint64_t skipped_lines() const override { return inner_->skipped_lines(); }
  std::string first_skipped() const override { return inner_->first_skipped(); }
  std::uint64_t backward_steps() const override { return inner_->backward_steps(); }
  std::uint64_t largest_backward_step_ns() const override { return inner_->largest_backward_step_ns(); }

 private:
  std::unique_ptr<Workload> inner_;
  std::uint32_t max_sectors_;
  std::uint64_t& split_requests_;
  std::unordered_map<std::uint32_t, std::uint64_t> extra_;  // per issuer: command completions to absorb
  HostRequest rest_;     // what is left of the request being split
  std::uint32_t left_ = 0;  // its sectors (0: none)
};

}  // namespace ssd::stimuli
