// The one way statistics are gathered: every component (firmware or model) owns a MetricSet
// under a dotted name and increments references into it; the report walks the registry.
// Standard-library only, so firmware and SystemC models share it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "common/histogram.h"
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

  IntervalSeries& series(const std::string& name) {
    auto& p = series_[name];
    if (!p) p = std::make_unique<IntervalSeries>();
    return *p;
  }

  void reset() {
    for (auto& [name, v] : counters_) v = 0;
    for (auto& [name, v] : gauges_) v = 0;
    for (auto& [name, h] : histograms_) *h = LatencyHistogram();
    for (auto& [name, s] : series_) s->reset();
  }

  const std::map<std::string, std::uint64_t>& counters() const { return counters_; }
  const std::map<std::string, double>& gauges() const { return gauges_; }
  const std::map<std::string, std::unique_ptr<LatencyHistogram>>& histograms() const { return histograms_; }
  const std::map<std::string, std::unique_ptr<IntervalSeries>>& series() const { return series_; }

 private:
  std::map<std::string, std::uint64_t> counters_;
  std::map<std::string, double> gauges_;
  std::map<std::string, std::unique_ptr<LatencyHistogram>> histograms_;
  std::map<std::string, std::unique_ptr<IntervalSeries>> series_;
};

class MetricsRegistry {
 public:
  MetricSet& set(const std::string& path) {
    auto& p = sets_[path];
    if (!p) p = std::make_unique<MetricSet>();
    return *p;
  }
  const std::map<std::string, std::unique_ptr<MetricSet>>& sets() const { return sets_; }

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
