#include "platforms/report/flow_section.h"

#include <fmt/format.h>

#include "platforms/report/latency_breakdown.h"
#include "platforms/report/statistics_json.h"

namespace ssd::platform {

using nlohmann::json;

json flows_section(const MetricsRegistry& metrics, const std::vector<IoQueueSpec>& queues, bool ecc_stages) {
  json flows = json::array();
  for (std::size_t q = 0; q < queues.size(); ++q) {
    const std::string prefix = "host.flows." + std::to_string(q);
    const MetricSet& set = *metrics.sets().at(prefix);
    const std::uint64_t reads = set.counter_or_zero("reads"), writes = set.counter_or_zero("writes");
    const std::uint64_t rbytes = set.counter_or_zero("read_bytes"), wbytes = set.counter_or_zero("write_bytes");
    const double span = set.gauge_or_zero("last_completion_s") - set.gauge_or_zero("first_arrival_s");
    const LatencyHistogram& read_latency = *set.histograms().at("read_latency_ns");
    const LatencyHistogram& write_latency = *set.histograms().at("write_latency_ns");
    LatencyHistogram all;
    all.merge(read_latency);
    all.merge(write_latency);
    json flow = {{"queue", q},
                 {"priority", to_string(queues[q].priority)},
                 {"depth", queues[q].depth},
                 {"reads", reads},
                 {"writes", writes},
                 {"read_bytes", rbytes},
                 {"write_bytes", wbytes},
                 {"first_arrival_s", set.gauge_or_zero("first_arrival_s")},
                 {"first_completion_s", set.gauge_or_zero("first_completion_s")},
                 {"last_completion_s", set.gauge_or_zero("last_completion_s")},
                 {"span_s", span},
                 {"iops", span > 0 ? json(double(reads + writes) / span) : json(nullptr)},
                 {"mb_per_s", span > 0 ? json(double(rbytes + wbytes) / 1e6 / span) : json(nullptr)},
                 {"latency_us", latency_json(all)},
                 {"read_latency_us", latency_json(read_latency)},
                 {"write_latency_us", latency_json(write_latency)},
                 {"latency_breakdown", latency_breakdown_section(metrics, ecc_stages, prefix)}};
    if (const std::uint64_t flushes = set.counter_or_zero("flushes")) {
      flow["flushes"] = flushes;
      flow["flush_latency_us"] = latency_json(*set.histograms().at("flush_latency_ns"));
    }
    if (const std::uint64_t trims = set.counter_or_zero("trims")) {
      flow["trims"] = trims;
      flow["trim_latency_us"] = latency_json(*set.histograms().at("trim_latency_ns"));
    }
    flows.push_back(flow);
  }
  return flows;
}

std::string flows_text(const json& host) {
  if (!host.contains("flows")) return "";
  std::string s;
  for (const json& f : host["flows"]) {
    s += fmt::format("  flow {} ({}, depth {}): {} reads, {} writes", f["queue"].get<std::size_t>(),
                     f["priority"].get<std::string>(), f["depth"].get<std::uint32_t>(), f["reads"].get<std::uint64_t>(),
                     f["writes"].get<std::uint64_t>());
    if (!f["iops"].is_null())
      s += fmt::format(", {:.0f} IOPS, {:.1f} MB/s over {:.3f} s", f["iops"].get<double>(), f["mb_per_s"].get<double>(),
                       f["span_s"].get<double>());
    s += fmt::format(", latency mean {:.1f} us, p99 {:.1f} us", f["latency_us"]["mean"].get<double>(),
                     f["latency_us"]["p99"].get<double>());
    if (f.contains("slowdown") && !f["slowdown"].is_null())
      s += fmt::format(", slowdown {:.3f} (alone {:.1f} us)", f["slowdown"].get<double>(),
                       f["alone_mean_latency_us"].get<double>());
    s += "\n";
  }
  if (host.contains("fairness") && !host["fairness"].is_null())
    s += fmt::format("  fairness (smallest slowdown / largest): {:.3f}\n", host["fairness"].get<double>());
  return s;
}

}  // namespace ssd::platform
