#include "platforms/run/utilization_waveform.h"

#include <cmath>

#include "platforms/report/utilization.h"

namespace ssd::platform {

namespace {
// "host link (to device)" -> "host_link_to_device": a VCD identifier.
std::string signal_name(const std::string& series) {
  std::string s;
  for (const char c : series) {
    if (c == '(' || c == ')') continue;
    s += c == ' ' ? '_' : c;
  }
  return s;
}
}  // namespace

UtilizationWaveform::UtilizationWaveform(tlmx::VcdTracer& vcd, const MetricsRegistry& metrics)
    : vcd_(vcd), metrics_(metrics) {
  for (const auto& [name, shares] : busy_shares(metrics, 0).series)
    signals_.emplace_back(name, vcd.add("ssd.utilization", signal_name(name), 10));  // 0..1000
}

void UtilizationWaveform::write(std::uint64_t end_ticks) {
  const BusyShares shares = busy_shares(metrics_, end_ticks);
  for (const auto& [name, id] : signals_) {
    const auto it = shares.series.find(name);
    if (it == shares.series.end()) continue;
    for (std::size_t j = 0; j < it->second.size(); ++j)
      vcd_.change_late(id, std::uint64_t(std::lround(it->second[j] * 1000)), j * shares.interval_ticks);
  }
}

}  // namespace ssd::platform
