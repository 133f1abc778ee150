#include "platforms/report/report_invariants.h"

#include <fmt/format.h>

#include "tlm/time_base.h"

namespace ssd::platform {

namespace {

using json = nlohmann::json;
constexpr double kSlack = 1e-9;  // floating-point rounding of ratios

[[noreturn]] void violated(const std::string& name, const std::string& detail) {
  throw InvariantError(fmt::format("internal error: report invariant '{}' violated: {}", name, detail));
}

void at_most_one(const json& value, const std::string& where) {
  const double v = value.get<double>();
  if (!(v >= 0 && v <= 1 + kSlack)) violated("busy fraction within [0, 1]", fmt::format("{} = {}", where, v));
}

void percentiles_ordered(const json& l, const std::string& where) {
  if (l["count"].get<std::uint64_t>() == 0) return;
  const char* keys[] = {"p50", "p90", "p99", "p99_9", "p99_99", "max"};
  double previous = 0;
  for (const char* k : keys) {
    const double v = l[k].get<double>();
    if (v + kSlack < previous)
      violated("latency percentiles non-decreasing", fmt::format("{}.{} = {} below the previous {}", where, k, v, previous));
    previous = v;
  }
  const double mean = l["mean"].get<double>();
  if (mean > l["max"].get<double>() * (1 + kSlack) || mean < 0)
    violated("latency mean within [0, max]", fmt::format("{}.mean = {}, max = {}", where, mean, l["max"].get<double>()));
}

}  // namespace

void check_report_invariants(const json& r, const WorkloadTotals& workload) {
  const json& host = r["host"];
  const json& hw = r["hardware"];
  for (const double seconds : {host["simulated_seconds"].get<double>(), hw["simulated_seconds"].get<double>()})
    if (!(seconds >= 0 && seconds <= tlmx::max_simulated_seconds()))
      violated("simulated time within the time base", fmt::format("{} s, limit {}", seconds, tlmx::describe_limit()));

  for (std::size_t c = 0; c < hw["channels"].size(); ++c) {
    const json& ch = hw["channels"][c];
    at_most_one(ch["busy_fraction"], fmt::format("hardware.channels[{}].busy_fraction", c));
    for (std::size_t d = 0; d < ch["dies"].size(); ++d)
      at_most_one(ch["dies"][d]["busy_fraction"], fmt::format("hardware.channels[{}].dies[{}].busy_fraction", c, d));
  }
  for (const char* part : {"system_bus", "sram", "dram"})
    at_most_one(hw[part]["busy_fraction"], std::string("hardware.") + part + ".busy_fraction");
  at_most_one(hw["cores"]["utilization"], "hardware.cores.utilization");
  for (std::size_t k = 0; k < hw["cores"]["per_core"].size(); ++k)
    at_most_one(hw["cores"]["per_core"][k]["utilization"], fmt::format("hardware.cores.per_core[{}].utilization", k));

  const json& over_time = r["utilization"]["over_time"];
  for (const auto& [name, shares] : over_time["series"].items())
    for (std::size_t j = 0; j < shares.size(); ++j)
      at_most_one(shares[j], fmt::format("utilization.over_time.series[\"{}\"][{}] (from {} s)", name, j,
                                         over_time["start_s"][j].get<double>()));

  const std::uint64_t completed = host["requests"].get<std::uint64_t>();
  // A power cut ends the run with requests never issued or still in flight.
  if (completed != workload.requests && !r.contains("power_cut"))
    violated("requests completed equal requests issued",
             fmt::format("{} completed, the workload holds {}", completed, workload.requests));
  const std::uint64_t rejected = host.value("rejected_writes", std::uint64_t(0));
  const std::uint64_t flushes = host.value("flushes", std::uint64_t(0)), trims = host.value("trims", std::uint64_t(0));
  if (completed != host["reads"].get<std::uint64_t>() + host["writes"].get<std::uint64_t>() + rejected + flushes + trims)
    violated("requests are reads, writes, flushes or trims",
             fmt::format("{} requests, {} reads, {} writes, {} refused writes, {} flushes, {} trims", completed,
                         host["reads"].get<std::uint64_t>(), host["writes"].get<std::uint64_t>(), rejected, flushes,
                         trims));
  // A trim's range counts as its bytes here (it moves none: trim_bytes).
  const std::uint64_t bytes = host["read_bytes"].get<std::uint64_t>() + host["write_bytes"].get<std::uint64_t>() +
                              host.value("rejected_write_bytes", std::uint64_t(0)) +
                              host.value("trim_bytes", std::uint64_t(0));
  if (bytes != workload.bytes && !r.contains("power_cut"))
    violated("bytes moved match the requests", fmt::format("{} bytes moved, the workload's requests hold {}", bytes,
                                                            workload.bytes));

  percentiles_ordered(host["latency_us"], "host.latency_us");
  percentiles_ordered(host["read_latency_us"], "host.read_latency_us");
  percentiles_ordered(host["write_latency_us"], "host.write_latency_us");

  const json& ftl = r["ftl_metrics"];
  // The FTL's WAF counts pages it was given (a write buffer may still hold what the host wrote).
  // Not after a hold-up that stopped the FTL's work: pages it was given may never be programmed
  // (their data is in the dump), so its WAF may be below 1.
  const bool work_stopped = r.contains("power_cut") && r["power_cut"]["plp"].value("ftl_work_stopped", std::uint64_t(0)) > 0;
  if (!work_stopped && ftl.value("host_pages_written", std::uint64_t(0)) > 0 && ftl.contains("waf") && ftl["waf"].is_number()) {
    const double waf = ftl["waf"].get<double>();
    if (waf + kSlack < 1.0) violated("WAF >= 1 when data was written", fmt::format("WAF = {}", waf));
  }
  // Every page the host wrote into the write buffer was absorbed by a later write, evicted to the
  // FTL, dropped by a trim, or is still there; only evictions reach the FTL.
  const json& wb = r.value("write_buffer", json::object());
  // (At a power cut, pages evicted but not yet programmed are in both evictions and pages_at_end.)
  if (wb.contains("capacity_pages") && !r.contains("power_cut")) {
    const auto n = [&wb](const char* k) { return wb[k].get<double>(); };
    const double trimmed = wb.value("trim_drops", 0.0);
    if (n("host_pages_written") != n("absorbed_writes") + n("evictions") + n("pages_at_end") + trimmed)
      violated("buffered pages are absorbed, evicted, trimmed or still buffered",
               fmt::format("{} written, {} absorbed, {} evicted, {} trimmed, {} at the end", n("host_pages_written"),
                           n("absorbed_writes"), n("evictions"), trimmed, n("pages_at_end")));
    if (ftl.contains("host_pages_written") && ftl["host_pages_written"].get<double>() != n("evictions"))
      violated("the FTL is given exactly the evicted pages",
               fmt::format("{} evicted, the FTL was given {}", n("evictions"), ftl["host_pages_written"].get<double>()));
  }
}

}  // namespace ssd::platform
