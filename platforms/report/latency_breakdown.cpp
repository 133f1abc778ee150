#include "platforms/report/latency_breakdown.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "common/latency_trail.h"
#include "tlm/time_base.h"

namespace ssd::platform {

using nlohmann::json;

namespace {

bool ecc_stage(std::size_t s) {
  const auto stage = static_cast<Stage>(s);
  return stage == Stage::EccDecode || stage == Stage::ReadRetry || stage == Stage::SoftDecode;
}

json operation_json(const std::array<const LatencyHistogram*, kStages>& stages, bool ecc_stages, bool flush_stage) {
  const double us_per_tick = tlmx::ticks_to_seconds(1) * 1e6;
  double total = 0;
  for (const LatencyHistogram* h : stages) total += h->mean();
  json by_stage = json::object();
  for (std::size_t s = 0; s < kStages; ++s) {
    if ((ecc_stage(s) && !ecc_stages) || (static_cast<Stage>(s) == Stage::FlushWait && !flush_stage)) continue;
    const LatencyHistogram& h = *stages[s];
    by_stage[stage_name(static_cast<Stage>(s))] = {{"mean_us", h.mean() * us_per_tick},
                                                   {"p99_us", double(h.percentile(0.99)) * us_per_tick},
                                                   {"share", total > 0 ? h.mean() / total : 0.0}};
  }
  return {{"requests", stages[0]->count()}, {"mean_latency_us", total * us_per_tick}, {"stages", by_stage}};
}

}  // namespace

json latency_breakdown_section(const MetricsRegistry& metrics, bool ecc_stages, const std::string& prefix) {
  std::array<const LatencyHistogram*, kStages> read{}, write{}, flush{}, trim{};
  std::array<LatencyHistogram, kStages> all_storage;
  std::array<const LatencyHistogram*, kStages> all{};
  const MetricSet& r = *metrics.sets().at(prefix + ".latency_breakdown.read");
  const MetricSet& w = *metrics.sets().at(prefix + ".latency_breakdown.write");
  const auto f = metrics.sets().find(prefix + ".latency_breakdown.flush");  // a host that issues flushes
  const auto t = metrics.sets().find(prefix + ".latency_breakdown.trim");   // or trims
  for (std::size_t s = 0; s < kStages; ++s) {
    const std::string name = stage_name(static_cast<Stage>(s));
    read[s] = r.histograms().at(name).get();
    write[s] = w.histograms().at(name).get();
    flush[s] = f != metrics.sets().end() ? f->second->histograms().at(name).get() : nullptr;
    trim[s] = t != metrics.sets().end() ? t->second->histograms().at(name).get() : nullptr;
    all_storage[s].merge(*read[s]);
    all_storage[s].merge(*write[s]);
    all[s] = &all_storage[s];
  }
  // Flushes (and their flush_wait stage) only in runs that have them; "all" is the data's.
  const bool flushes = flush[0] && flush[0]->count() > 0;
  json section = {{"read", operation_json(read, ecc_stages, false)},
                  {"write", operation_json(write, ecc_stages, false)},
                  {"all", operation_json(all, ecc_stages, false)}};
  if (flushes) section["flush"] = operation_json(flush, ecc_stages, true);
  if (trim[0] && trim[0]->count() > 0) section["trim"] = operation_json(trim, ecc_stages, false);
  return section;
}

std::string latency_breakdown_text(const json& breakdown) {
  std::string s;
  for (const char* op : {"read", "write", "flush", "trim"}) {
    if (!breakdown.contains(op)) continue;
    const json& o = breakdown[op];
    if (o["requests"].get<std::uint64_t>() == 0) continue;
    std::vector<std::pair<double, std::string>> shares;
    for (const auto& [stage, v] : o["stages"].items()) shares.emplace_back(v["share"].get<double>(), stage);
    std::sort(shares.rbegin(), shares.rend());
    std::string parts;
    for (std::size_t i = 0; i < shares.size() && i < 4 && shares[i].first >= 0.005; ++i)
      parts += fmt::format("{}{} {:.0f}%", i ? ", " : "", shares[i].second, 100 * shares[i].first);
    s += fmt::format("  {:5} time goes to: {}\n", op, parts);
  }
  return s;
}

}  // namespace ssd::platform
