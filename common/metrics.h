// The one statistics registry. Every component owns a MetricSet under a dotted name and
// increments references into it; the report, its CSV row and summary (which read the report)
// are built from the registry alone. Hardware models publish under their SystemC name
// ("ssd.channel0", "ssd.channel0.die3"; hw/stats.h), the firmware under plain names ("ftl",
// "firmware", "firmware.ops"), the host model under "host".
// Kinds: counters, gauges, busy-time and duration accumulators (kernel ticks), energy meters
// (picojoules), histograms and series. A set placed with report_as() appears in the report's hardware section, nested under
// its nearest placed ancestor, with no report code of its own: counters as they are, busy
// time as a fraction of the run, durations in microseconds (name + "_us").
// Standard-library only, so firmware and SystemC models share it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "common/histogram.h"
#include "common/busy_time.h"
#include "common/energy_meter.h"
#include "common/interval_series.h"

namespace ssd {

class MetricSet {
 public:
  // References stay valid for the set's lifetime (node-based maps).
  std::uint64_t& counter(const std::string& name) { return counters_[name]; }
  double& gauge(const std::string& name) { return gauges_[name]; }
  LatencyHistogram& histogram(const std::string& name) {
    auto& p = histograms_[name];
    if (!p) p = std::make_unique<LatencyHistogram>();
    return *p;
  }

  // When the part was busy (kernel ticks); the report shows the total as the fraction of the run
  // under this name ("busy_fraction", "utilization") and the share per interval in
  // utilization.over_time.
  BusyTime& busy(const std::string& fraction_name) { return busy_[fraction_name]; }
  void truncate_busy(std::uint64_t at) {  // a power cut (BusyTime::truncate)
    for (auto& [name, b] : busy_) b.truncate(at);
  }
  // Kernel ticks spent (waiting, computing); the report shows microseconds under name + "_us".
  std::uint64_t& duration(const std::string& name) { return durations_[name]; }

  // Energy spent on operations (picojoules; common/energy_meter.h): the report's energy section
  // adds every set's meters by name into its components.
  EnergyMeter& energy(const std::string& name) { return energy_[name]; }

  IntervalSeries& series(const std::string& name) {
    auto& p = series_[name];
    if (!p) p = std::make_unique<IntervalSeries>();
    return *p;
  }

  void reset() {
    for (auto& [name, v] : counters_) v = 0;
    for (auto& [name, v] : gauges_) v = 0;
    for (auto& [name, v] : busy_) v.reset();
    for (auto& [name, v] : durations_) v = 0;
    for (auto& [name, v] : energy_) v.reset();
    for (auto& [name, h] : histograms_) *h = LatencyHistogram();
    for (auto& [name, s] : series_) s->reset();
  }

  const std::map<std::string, std::uint64_t>& counters() const { return counters_; }
  const std::map<std::string, double>& gauges() const { return gauges_; }
  // A counter or gauge that may never have been created (a feature the run did not use): 0 then.
  std::uint64_t counter_or_zero(const std::string& name) const {
    const auto it = counters_.find(name);
    return it == counters_.end() ? 0 : it->second;
  }
  double gauge_or_zero(const std::string& name) const {
    const auto it = gauges_.find(name);
    return it == gauges_.end() ? 0.0 : it->second;
  }
  const std::map<std::string, BusyTime>& busy() const { return busy_; }
  const std::map<std::string, std::uint64_t>& durations() const { return durations_; }
  const std::map<std::string, EnergyMeter>& energy() const { return energy_; }
  const std::map<std::string, std::unique_ptr<LatencyHistogram>>& histograms() const { return histograms_; }
  const std::map<std::string, std::unique_ptr<IntervalSeries>>& series() const { return series_; }

  // Where the set appears in the report's hardware section: under `key` of its nearest placed
  // ancestor (or of the section), as element `index` of an array when one is given.
  struct Placement {
    std::string key;
    std::optional<std::size_t> index;
  };
  void report_as(std::string key, std::optional<std::size_t> index = std::nullopt) {
    placement_ = Placement{std::move(key), index};
  }
  const std::optional<Placement>& placement() const { return placement_; }

 private:
  std::map<std::string, std::uint64_t> counters_;
  std::map<std::string, double> gauges_;
  std::map<std::string, BusyTime> busy_;
  std::map<std::string, std::uint64_t> durations_;
  std::map<std::string, EnergyMeter> energy_;
  std::map<std::string, std::unique_ptr<LatencyHistogram>> histograms_;
  std::map<std::string, std::unique_ptr<IntervalSeries>> series_;
  std::optional<Placement> placement_;
};

class MetricsRegistry {
 public:
  MetricSet& set(const std::string& path) {
    auto& p = sets_[path];
    if (!p) p = std::make_unique<MetricSet>();
    return *p;
  }
  const std::map<std::string, std::unique_ptr<MetricSet>>& sets() const { return sets_; }
  // A counter of a set that may not exist: 0 then.
  std::uint64_t counter_or_zero(const std::string& set, const std::string& name) const {
    const auto it = sets_.find(set);
    return it == sets_.end() ? 0 : it->second->counter_or_zero(name);
  }

  // Zeroes counters and clears histograms of every set whose path starts with `prefix`
  // (e.g. to measure only after preconditioning). References stay valid.
  void reset(const std::string& prefix) {
    for (auto& [path, set] : sets_)
      if (path.compare(0, prefix.size(), prefix) == 0) set->reset();
  }

 private:
  std::map<std::string, std::unique_ptr<MetricSet>> sets_;
};

}  // namespace ssd
