// The statistics registry as report JSON (see common/metrics.h): the sets models placed with
// report_as(), nested as the SystemC hierarchy nests them, each with its counters and gauges
// as they are, busy time as a fraction of the run (end_ticks kernel ticks), durations in
// microseconds (name + "_us") and histograms as distributions.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "common/histogram.h"
#include "common/metrics.h"

namespace ssd::platform {

nlohmann::json placed_statistics_json(const MetricsRegistry& metrics, double end_ticks);

// The same tree with only the busy-time figures, each an index into `series` (filled here), so
// the busy time over the run can be named exactly as the busy fractions are.
nlohmann::json placed_busy_series(const MetricsRegistry& metrics, std::vector<const BusyTime*>& series);

// A latency distribution recorded in nanoseconds, in microseconds: count, mean, p50 to p99.99, max.
nlohmann::json latency_json(const LatencyHistogram& h);

// A distribution of counts (not times): its figures as they are.
nlohmann::json distribution_json(const LatencyHistogram& h);

}  // namespace ssd::platform
