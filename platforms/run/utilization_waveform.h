// Busy share over time in the waveform: each series of the report's utilization.over_time (dies
// and channels as mean and max, the system bus, SRAM, DRAM, each host-link direction, each core)
// as a signal ssd.utilization.<name> in per mille of its interval, changing at each interval's
// start. Shares are known only once an interval has passed, so they are written when the run is
// over and merged into the waveform as it is closed (tlmx::VcdTracer::change_late).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/metrics.h"
#include "tlm/vcd_tracer.h"

namespace ssd::platform {

class UtilizationWaveform {
 public:
  // At elaboration, when every model has registered its busy time but before tracing starts.
  UtilizationWaveform(tlmx::VcdTracer& vcd, const MetricsRegistry& metrics);
  // When the run is over (the drive went idle at end_ticks), before the tracer is closed.
  void write(std::uint64_t end_ticks);

 private:
  tlmx::VcdTracer& vcd_;
  const MetricsRegistry& metrics_;
  std::vector<std::pair<std::string, int>> signals_;  // series name, signal
};

}  // namespace ssd::platform
