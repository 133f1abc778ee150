#include "platforms/report/statistics_json.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tlm/time_base.h"

namespace ssd::platform {

using nlohmann::json;

json distribution_json(const LatencyHistogram& h) {
  return json{{"count", h.count()},      {"mean", h.mean()},
              {"p50", h.percentile(0.5)}, {"p90", h.percentile(0.9)},
              {"p99", h.percentile(0.99)}, {"max", h.max()}};
}

namespace {

// One placed set's own figures (see common/metrics.h): counters and gauges as they are, busy
// time as a fraction of the run, durations in microseconds, histograms as distributions.
json set_figures(const MetricSet& set, double end_ticks) {
  json j = json::object();
  for (const auto& [k, v] : set.counters()) j[k] = v;
  for (const auto& [k, v] : set.gauges()) j[k] = v;
  for (const auto& [k, busy] : set.busy()) j[k] = double(busy.ticks()) / end_ticks;
  for (const auto& [k, ticks] : set.durations()) j[k + "_us"] = tlmx::ticks_to_seconds(ticks) * 1e6;
  for (const auto& [k, h] : set.histograms()) j[k] = distribution_json(*h);
  return j;
}

void place(json& parent, const MetricSet::Placement& where, json node) {
  if (!where.index) {
    parent[where.key] = std::move(node);
    return;
  }
  json& list = parent[where.key];
  if (!list.is_array()) list = json::array();
  while (list.size() <= *where.index) list.push_back(nullptr);
  list[*where.index] = std::move(node);
}

// The nearest placed ancestor by SystemC name ("ssd.channel0" of "ssd.channel0.die3"); "" if none.
std::string placed_parent(const MetricsRegistry& metrics, std::string path) {
  for (auto dot = path.rfind('.'); dot != std::string::npos; dot = path.rfind('.')) {
    path.resize(dot);
    auto it = metrics.sets().find(path);
    if (it != metrics.sets().end() && it->second->placement()) return path;
  }
  return "";
}

// The placed sets nested as the SystemC hierarchy nests them, each set's node made by `figures`.
json placed_tree(const MetricsRegistry& metrics, const std::function<json(const MetricSet&)>& figures) {
  std::map<std::string, std::vector<const std::string*>> children;  // parent path -> placed children
  for (const auto& [path, set] : metrics.sets())
    if (set->placement()) children[placed_parent(metrics, path)].push_back(&path);
  std::function<json(const std::string&, json)> add_children = [&](const std::string& parent, json node) {
    for (const std::string* path : children[parent]) {
      const MetricSet& set = *metrics.sets().at(*path);
      place(node, *set.placement(), add_children(*path, figures(set)));
    }
    return node;
  };
  return add_children("", json::object());
}

}  // namespace

json placed_statistics_json(const MetricsRegistry& metrics, double end_ticks) {
  return placed_tree(metrics, [&](const MetricSet& set) { return set_figures(set, end_ticks); });
}

json placed_busy_series(const MetricsRegistry& metrics, std::vector<const BusyTime*>& series) {
  return placed_tree(metrics, [&](const MetricSet& set) {
    json j = json::object();
    for (const auto& [k, busy] : set.busy()) {
      j[k] = series.size();
      series.push_back(&busy);
    }
    return j;
  });
}

json latency_json(const LatencyHistogram& h) {
  auto us = [](double ns) { return ns / 1000.0; };
  return json{{"count", h.count()},
              {"mean", us(h.mean())},
              {"p50", us(double(h.percentile(0.50)))},
              {"p90", us(double(h.percentile(0.90)))},
              {"p99", us(double(h.percentile(0.99)))},
              {"p99_9", us(double(h.percentile(0.999)))},
              {"p99_99", us(double(h.percentile(0.9999)))},
              {"max", us(double(h.max()))}};
}

}  // namespace ssd::platform
