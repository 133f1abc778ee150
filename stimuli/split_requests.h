// Requests larger than the drive's maximum data transfer size (NVMe MDTS) split into commands,
// as a host's driver splits them (Linux: max_sectors_kb): pieces of `max_sectors` from the
// request's start, the last one the rest, all arriving when the request did. Every other call
// goes to the wrapped workload. The host then replays commands: latency, IOPS and queue slots are
// per command, and a job's stream learns of a split request's end once.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "stimuli/forwarding_workload.h"

namespace ssd::stimuli {

class SplitRequests : public ForwardingWorkload {
 public:
  // split_requests counts the requests split (each adds its commands beyond the first).
  SplitRequests(std::unique_ptr<Workload> inner, std::uint32_t max_sectors, std::uint64_t& split_requests)
      : ForwardingWorkload(std::move(inner)), max_sectors_(max_sectors), split_requests_(split_requests) {}

  bool next(HostRequest& r) override;
  bool ready() const override { return left_ > 0 || inner().ready(); }
  // A split request's stream learns of its completion once, not once per command.
  void completed(std::uint32_t issuer) override;

 private:
  std::uint32_t max_sectors_;
  std::uint64_t& split_requests_;
  std::unordered_map<std::uint32_t, std::uint64_t> extra_;  // per issuer: command completions to absorb
  HostRequest rest_;     // what is left of the request being split
  std::uint32_t left_ = 0;  // its sectors (0: none)
};

}  // namespace ssd::stimuli
