#include "platforms/run/power_waveform.h"

#include <cmath>

#include "tlm/time_base.h"

namespace ssd::platform {

namespace {
constexpr int kMilliwattBits = 32;
}

PowerWaveform::PowerWaveform(tlmx::VcdTracer& vcd, const PlatformConfig& config, const MetricsRegistry& metrics)
    : vcd_(vcd), config_(config), metrics_(metrics), total_(vcd.add("ssd.power", "total_mw", kMilliwattBits)) {
  for (const std::string& name : energy_components())
    components_.emplace_back(name, vcd.add("ssd.power", name + "_mw", kMilliwattBits));
}

void PowerWaveform::write(const EnergyInputs& run) {
  const nlohmann::json over_time = energy_section(config_, metrics_, run)["over_time"];
  const auto interval = std::uint64_t(over_time["interval_s"].get<double>() / tlmx::ticks_to_seconds(1) + 0.5);
  auto trace = [&](int id, const nlohmann::json& watts) {
    for (std::size_t j = 0; j < watts.size(); ++j)
      vcd_.change_late(id, std::uint64_t(std::llround(watts[j].get<double>() * 1000)), j * interval);
  };
  trace(total_, over_time["power_w"]);
  for (const auto& [name, id] : components_) trace(id, over_time["component_w"][name]);
}

}  // namespace ssd::platform
