// Writes every logical page of a drive once, in order, whole pages, in requests of up to
// `chunk_sectors` (the last one shorter): the sequential part of preconditioning.
#pragma once

#include <algorithm>
#include <string>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

class SequentialFill : public Workload {
 public:
  SequentialFill(std::uint64_t capacity_sectors, std::uint32_t chunk_sectors)
      : cap_(capacity_sectors), chunk_(chunk_sectors) {}
  bool next(HostRequest& r) override {
    if (at_ >= cap_) return false;
    r = HostRequest{};
    r.op = HostOp::Write;
    r.lba = at_;
    r.sectors = static_cast<std::uint32_t>(std::min<std::uint64_t>(chunk_, cap_ - at_));
    at_ += r.sectors;
    return true;
  }
  std::string describe() const override { return "sequential fill of " + std::to_string(cap_) + " sectors"; }

 private:
  std::uint64_t cap_, chunk_, at_ = 0;
};

}  // namespace ssd::stimuli
