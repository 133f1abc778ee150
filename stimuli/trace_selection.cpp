#include "stimuli/trace_selection.h"

namespace ssd::stimuli {

TraceSelection::TraceSelection(std::unique_ptr<Workload> trace, const TraceSelectionSpec& spec)
    : trace_(std::move(trace)), spec_(spec) {
  if (spec_.end_ns <= spec_.start_ns)
    throw WorkloadError("the replay window ends (" + std::to_string(spec_.end_ns) + " ns) before it starts (" +
                        std::to_string(spec_.start_ns) + " ns)");
}

bool TraceSelection::next(HostRequest& r) {
  while (!done_ && trace_->next(r)) {
    if (r.arrival_ns >= spec_.end_ns) break;
    if (r.arrival_ns < spec_.start_ns || (spec_.device && r.issuer != *spec_.device)) {
      ++left_out_;
      continue;
    }
    r.arrival_ns -= spec_.start_ns;
    if (!spec_.device && spec_.device_offset_sectors && !r.is_flush()) shift(r);
    return true;
  }
  done_ = true;
  return false;
}

void TraceSelection::shift(HostRequest& r) const {
  // Device d's addresses move by d x the offset; a sum past 2^64 sectors would wrap into the drive.
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t offset = spec_.device_offset_sectors;
  if (r.issuer > (kMax - r.lba - r.sectors) / offset)
    throw WorkloadError(trace_->position() + ": device " + std::to_string(r.issuer) + " shifted by " +
                        std::to_string(offset) + " sectors per device puts the request past 2^64 sectors");
  r.lba += std::uint64_t(r.issuer) * offset;
}

std::string TraceSelection::describe() const {
  std::string s = trace_->describe();
  if (spec_.device) s += ", device " + std::to_string(*spec_.device);
  if (!spec_.device && spec_.device_offset_sectors)
    s += ", devices " + std::to_string(spec_.device_offset_sectors) + " sectors apart";
  if (spec_.start_ns || spec_.end_ns != std::numeric_limits<std::uint64_t>::max())
    s += ", window [" + std::to_string(spec_.start_ns / 1e9) + ", " +
         (spec_.end_ns == std::numeric_limits<std::uint64_t>::max() ? std::string("end")
                                                                     : std::to_string(spec_.end_ns / 1e9)) +
         ") s";
  return s;
}

}  // namespace ssd::stimuli
