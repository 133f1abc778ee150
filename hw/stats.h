// A model publishes its statistics under its own SystemC name (and its parts under
// name.part), so the report, the waveform's scopes and the SystemC hierarchy say the same
// thing: "ssd.channel0.die3" everywhere. See common/metrics.h for the kinds and placement.
#pragma once

#include <string>
#include <systemc>

#include "common/metrics.h"

namespace ssd::hw {

inline MetricSet& stats_of(const sc_core::sc_object& model, MetricsRegistry& registry) {
  return registry.set(model.name());
}

inline MetricSet& stats_of(const sc_core::sc_object& model, const std::string& part, MetricsRegistry& registry) {
  return registry.set(std::string(model.name()) + "." + part);
}

}  // namespace ssd::hw
