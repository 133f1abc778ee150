#include "platforms/report/reliability_section.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace ssd::platform {

using nlohmann::json;

json reliability_section(const PlatformConfig& config, const MetricsRegistry& metrics, std::uint64_t failed_host_reads,
                         std::uint64_t reported_lost_pages) {
  const hw::ReliabilityConfig& rel = config.reliability;
  LatencyHistogram steps;  // per decoded page read: retry steps, ecc.retry_steps + 1 for a soft decode
  double rber_sum = 0, rber_max = 0;
  std::uint64_t retries = 0, soft = 0, uncorrectable = 0;
  for (const auto& [path, set] : metrics.sets()) {
    const auto h = set->histograms().find("retry_steps");
    if (h != set->histograms().end()) {
      steps.merge(*h->second);
      const auto& g = set->gauges();
      if (g.count("rber_mean")) rber_sum += g.at("rber_mean") * double(h->second->count());
      if (g.count("rber_max")) rber_max = std::max(rber_max, g.at("rber_max"));
    }
    const auto& c = set->counters();
    auto count = [&c](const char* k) { return c.count(k) ? c.at(k) : std::uint64_t(0); };
    retries += count("read_retries");
    soft += count("soft_decodes");
    uncorrectable += count("uncorrectable_reads");
  }
  std::vector<std::uint64_t> histogram;
  for (std::uint32_t k = 0; k <= rel.ecc.retry_steps + (rel.ecc.soft_levels ? 1 : 0); ++k)
    histogram.push_back(steps.exact_count(k));
  const double reads = double(steps.count());
  return {{"page_reads_decoded", steps.count()},
          {"rber_mean", reads > 0 ? rber_sum / reads : 0.0},
          {"rber_max", rber_max},
          {"rber_source", rel.rber_source},
          {"retry_steps", retries},
          {"retries_per_read", reads > 0 ? double(retries) / reads : 0.0},
          {"reads_by_retry_steps", histogram},
          {"soft_decodes", soft},
          {"uncorrectable_page_reads", uncorrectable},
          {"failed_host_reads", failed_host_reads},
          {"reported_lost_pages", reported_lost_pages}};
}

std::string reliability_text(const json& r) {
  const std::vector<std::uint64_t> h = r["reads_by_retry_steps"];
  const double reads = r["page_reads_decoded"].get<double>();
  const double retried = reads > 0 && !h.empty() ? 1 - double(h[0]) / reads : 0;
  return fmt::format("  reliability: RBER {:.3g} mean, {:.3g} max; {:.2f}% of page reads retried ({:.3f} steps a read), "
                     "{} soft decodes, {} uncorrectable; {} host reads failed\n",
                     r["rber_mean"].get<double>(), r["rber_max"].get<double>(),
                     100 * retried, r["retries_per_read"].get<double>(),
                     r["soft_decodes"].get<std::uint64_t>(), r["uncorrectable_page_reads"].get<std::uint64_t>(),
                     r["failed_host_reads"].get<std::uint64_t>());
}

}  // namespace ssd::platform
