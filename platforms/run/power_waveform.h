// Power over time in the waveform: the report's energy.over_time as signals ssd.power.total_mw and
// ssd.power.<component>_mw (milliwatts, each interval's mean), changing at each interval's start.
// Like the utilization signals (utilization_waveform.h), known only once the run is over, so
// written then and merged into the waveform as it is closed.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/metrics.h"
#include "platforms/config/platform_config.h"
#include "platforms/report/energy_section.h"
#include "tlm/vcd_tracer.h"

namespace ssd::platform {

class PowerWaveform {
 public:
  // At elaboration, before tracing starts.
  PowerWaveform(tlmx::VcdTracer& vcd, const PlatformConfig& config, const MetricsRegistry& metrics);
  // When the run is over, before the tracer is closed.
  void write(const EnergyInputs& run);

 private:
  tlmx::VcdTracer& vcd_;
  const PlatformConfig& config_;
  const MetricsRegistry& metrics_;
  int total_;
  std::vector<std::pair<std::string, int>> components_;  // name, signal
};

}  // namespace ssd::platform
