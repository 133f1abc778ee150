// Which part of a trace to replay, and how its devices share the drive:
// - device: keep only the requests of one device (the trace's device / ASU / pid: the issuer);
// - device_offset_sectors: otherwise, merge the devices into one address space, device d's
//   addresses shifted by d x the offset (0: all devices overlap, as MQSim replays them);
// - a time window [start_ns, end_ns) of trace time: requests before it are skipped, the replay
//   stops at its end, and arrivals are shifted so the window starts at 0.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

struct TraceSelectionSpec {
  std::optional<std::uint32_t> device;
  std::uint64_t device_offset_sectors = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = std::numeric_limits<std::uint64_t>::max();
  bool selects_anything() const {
    return device || device_offset_sectors || start_ns || end_ns != std::numeric_limits<std::uint64_t>::max();
  }
};

class TraceSelection : public Workload {
 public:
  // Throws WorkloadError when the window is empty.
  TraceSelection(std::unique_ptr<Workload> trace, const TraceSelectionSpec& spec);

  bool next(HostRequest& r) override;
  std::string describe() const override;
  std::string position() const override { return trace_->position(); }
  double fraction_done() const override { return trace_->fraction_done(); }
  std::uint64_t skipped_lines() const override { return trace_->skipped_lines(); }
  std::string first_skipped() const override { return trace_->first_skipped(); }
  std::uint64_t backward_steps() const override { return trace_->backward_steps(); }
  std::uint64_t largest_backward_step_ns() const override { return trace_->largest_backward_step_ns(); }
  std::uint64_t left_out() const { return left_out_; }  // other devices, before the window

 private:
  void shift(HostRequest& r) const;  // lays device r.issuer beside the others; throws past 2^64

  std::unique_ptr<Workload> trace_;
  TraceSelectionSpec spec_;
  std::uint64_t left_out_ = 0;
  bool done_ = false;
};

}  // namespace ssd::stimuli
