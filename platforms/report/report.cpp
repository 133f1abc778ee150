#include "platforms/report/report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "platforms/config/parameter.h"
#include "platforms/report/flow_section.h"
#include "platforms/report/latency_breakdown.h"
#include "platforms/report/energy_section.h"
#include "platforms/report/bad_block_section.h"
#include "platforms/report/reliability_section.h"
#include "platforms/report/statistics_json.h"
#include "platforms/report/steady_state.h"
#include "platforms/report/utilization.h"
#include "tlm/time_base.h"

namespace ssd::platform {

using nlohmann::json;

namespace {

std::uint64_t counter(const MetricsRegistry& m, const std::string& set, const std::string& name) {
  auto it = m.sets().find(set);
  if (it == m.sets().end()) return 0;
  auto c = it->second->counters().find(name);
  return c == it->second->counters().end() ? 0 : c->second;
}

json counters_json(const MetricSet& s) {
  json j = json::object();
  for (const auto& [k, v] : s.counters()) j[k] = v;
  return j;
}

// Latency distributions as CDF points (for plots): [quantile, microseconds].
json cdf_json(const LatencyHistogram& h) {
  json points = json::array();
  if (h.count() == 0) return points;
  std::vector<double> qs;
  for (int i = 1; i < 100; ++i) qs.push_back(i / 100.0);
  for (double q : {0.995, 0.999, 0.9995, 0.9999, 1.0}) qs.push_back(q);
  for (double q : qs) points.push_back({q, double(h.percentile(q)) / 1000.0});
  return points;
}

// What was run: platform, FTL, workload, preconditioning, and the integrity check.
void describe_run(const PlatformConfig& config, const RunFacts& f, json& r) {
  r["schema"] = "ssd-vp-report/1";
  r["platform"] = {{"name", config.name},          {"file", config.source},
                   {"overrides", config.overrides}, {"effective", config.effective},
                   {"warnings", config.warnings}};
  json ftl_parameters = json::object();
  for (const auto& [k, v] : f.ftl_parameters) ftl_parameters[k] = typed_value(v);
  r["ftl"] = {{"name", config.firmware.ftl}, {"parameters", ftl_parameters}};
  r["workload"] = {{"description", f.workload},
                   {"skipped_lines", f.skipped_lines},
                   {"first_skipped", f.first_skipped},
                   {"time_order", f.time_order},
                   {"backward_steps", f.backward_steps},
                   {"largest_backward_step_s", f.largest_backward_step_s},
                   {"mode", f.mode},
                   {"queue_depth", f.queue_depth},
                   {"queues", std::max<std::size_t>(1, f.queues.size())},
                   {"time_scale", f.time_scale},
                   {"written_footprint_pages", f.written_footprint_pages},
                   {"precondition", f.precondition.description}};
  r["preconditioning"] = {{"steady_reached", f.precondition.steady_reached},
                          {"settling_page_writes", f.precondition.random_page_writes},
                          {"settled_waf", f.precondition.write_amplification},
                          {"chunk_waf", f.precondition.settling_waf}};
  r["integrity"] = {{"pages_checked", f.pages_checked},
                    {"mismatches", f.mismatches},
                    {"first_mismatch", f.first_mismatch},
                    {"mapping_check", f.mapping_check}};
}

// Per issuer (trace device / process / stream; the first 64, then "other").
json issuers_json(const MetricsRegistry& metrics) {
  json issuers = json::object();
  const std::string prefix = "host.issuers.";
  for (const auto& [path, set] : metrics.sets()) {
    if (path.compare(0, prefix.size(), prefix) != 0) continue;
    const auto& c = set->counters();
    const std::uint64_t ir = c.count("reads") ? c.at("reads") : 0, iw = c.count("writes") ? c.at("writes") : 0;
    if (ir + iw == 0) continue;
    json& issuer = issuers[path.substr(prefix.size())] = {
        {"reads", ir}, {"writes", iw}, {"latency_us", latency_json(*set->histograms().at("latency_ns"))}};
    if (c.count("flushes")) issuer["flushes"] = c.at("flushes");  // not in its latency: the data's
  }
  return issuers;
}

// Over time: completions per interval of simulated time.
json over_time_json(const IntervalSeries& series) {
  const double interval_s = double(series.length_ns()) / 1e9;
  json points = json::array();
  for (std::size_t i = 0; i < series.intervals().size(); ++i) {
    const IntervalSeries::Interval& p = series.intervals()[i];
    const std::uint64_t n = p.reads + p.writes;
    points.push_back({{"start_s", double(i) * interval_s},
                      {"reads", p.reads},
                      {"writes", p.writes},
                      {"iops", double(n) / interval_s},
                      {"mb_per_s", double(p.bytes) / 1e6 / interval_s},
                      {"mean_latency_us", n ? double(p.latency_sum_ns) / n / 1000.0 : 0.0},
                      {"max_latency_us", double(p.latency_max_ns) / 1000.0}});
  }
  return {{"interval_s", interval_s}, {"points", points}};
}

// Firmware profile: cycles per kind of work (set "firmware.profile", published by the
// co-simulation HAL), each with its share of all firmware cycles.
json firmware_profile_section(const MetricsRegistry& metrics) {
  json profile = json::object();
  const auto set = metrics.sets().find("firmware.profile");
  if (set == metrics.sets().end()) return profile;
  std::uint64_t total = 0;
  for (const auto& [name, cycles] : set->second->counters()) total += cycles;
  if (total == 0) return profile;  // the ISS core's image charges nothing (its profile is by function)
  const std::string suffix = "_cycles";
  for (const auto& [name, cycles] : set->second->counters())
    profile[name.substr(0, name.size() - suffix.size())] = {
        {"cycles", cycles}, {"share", total ? double(cycles) / double(total) : 0.0}};
  return profile;
}

// Host metrics, from the host model's set "host".
json host_section(const MetricsRegistry& metrics, double simulated_seconds) {
  const MetricSet& host = *metrics.sets().at("host");
  const std::uint64_t reads = host.counters().at("reads"), writes = host.counters().at("writes");
  const std::uint64_t rbytes = host.counters().at("read_bytes"), wbytes = host.counters().at("write_bytes");
  const double t = simulated_seconds > 0 ? simulated_seconds : 1e-30;
  const LatencyHistogram& read_latency = *host.histograms().at("read_latency_ns");
  const LatencyHistogram& write_latency = *host.histograms().at("write_latency_ns");
  LatencyHistogram all;
  all.merge(read_latency);
  all.merge(write_latency);
  const double arrival_span = host.gauge_or_zero("arrival_span_s");
  // Writes a read-only drive refused (bad blocks): completed with an error, nothing written.
  const std::uint64_t rejected = host.counter_or_zero("rejected_writes");
  // Flushes (common/host_op.h) are commands without data: counted, timed, and left out of the
  // data figures (IOPS, bytes, the latency of reads and writes).
  const std::uint64_t flushes = host.counter_or_zero("flushes"), fua = host.counter_or_zero("fua_writes");
  json section = {{"requests", reads + writes + rejected + flushes + host.counter_or_zero("trims")},
          {"arrival_span_s", arrival_span},
          {"mdts_splits", host.counter_or_zero("mdts_splits")},
          {"offered_iops", arrival_span > 0 ? json(double(reads + writes) / arrival_span) : json(nullptr)},
          {"reads", reads},
          {"writes", writes},
          {"read_bytes", rbytes},
          {"write_bytes", wbytes},
          {"simulated_seconds", simulated_seconds},
          {"iops", double(reads + writes) / t},
          {"read_iops", double(reads) / t},
          {"write_iops", double(writes) / t},
          {"mb_per_s", double(rbytes + wbytes) / 1e6 / t},
          {"read_mb_per_s", double(rbytes) / 1e6 / t},
          {"write_mb_per_s", double(wbytes) / 1e6 / t},
          {"latency_us", latency_json(all)},
          {"read_latency_us", latency_json(read_latency)},
          {"write_latency_us", latency_json(write_latency)},
          {"held_for_ordering", host.counters().at("held_for_ordering")},
          {"folded_requests", host.counters().at("folded_requests")},
          {"latency_cdf_us", {{"all", cdf_json(all)}, {"read", cdf_json(read_latency)}, {"write", cdf_json(write_latency)}}},
          {"issuers", issuers_json(metrics)},
          {"over_time", over_time_json(*host.series().at("completions"))}};
  if (rejected) {
    section["rejected_writes"] = rejected;
    section["rejected_write_bytes"] = host.counters().at("rejected_write_bytes");
  }
  if (flushes) {
    section["flushes"] = flushes;
    section["flush_latency_us"] = latency_json(*host.histograms().at("flush_latency_ns"));
  }
  if (fua) section["fua_writes"] = fua;
  // Trims (deallocate, common/host_op.h): commands without data, like flushes out of the data figures.
  if (const std::uint64_t trims = host.counter_or_zero("trims")) {
    section["trims"] = trims;
    section["trim_bytes"] = host.counter_or_zero("trim_bytes");
    section["trim_latency_us"] = latency_json(*host.histograms().at("trim_latency_ns"));
    section["trimmed_pages"] = metrics.counter_or_zero("firmware", "host_trimmed_pages");
  }
  return section;
}

// FTL metrics: the FTL's own set "ftl" whole, plus the firmware runtime's figures.
json ftl_section(const MetricsRegistry& metrics) {
  const MetricSet& set = *metrics.sets().at("ftl");
  json ftl = counters_json(set);
  for (const auto& [k, v] : set.gauges()) ftl[k] = v;
  for (const auto& [k, h] : set.histograms()) ftl[k] = distribution_json(*h);
  const std::uint64_t host_pages = counter(metrics, "ftl", "host_pages_written");
  const std::uint64_t programmed = counter(metrics, "ftl", "flash_pages_programmed");
  // null, not 0, when no page reached the FTL (a write buffer held them all): there is no ratio.
  ftl["waf"] = host_pages ? json(double(programmed) / double(host_pages)) : json(nullptr);
  ftl["partial_page_writes"] = counter(metrics, "firmware", "partial_page_writes");
  ftl["buffer_waits"] = counter(metrics, "firmware", "buffer_waits");
  ftl["buffer_pages_high_water"] = counter(metrics, "firmware", "buffer_pages_high_water");
  ftl["operations"] = counters_json(*metrics.sets().at("firmware.ops"));
  // The drive's: flash programs per page the host wrote (below 1 when the write buffer absorbed
  // rewrites); waf above is the FTL's, per page it was given.
  const std::uint64_t written = counter(metrics, "firmware", "host_pages_written");
  ftl["drive_waf"] = written ? json(double(programmed) / double(written)) : json(nullptr);
  return ftl;
}

// The DRAM write buffer (firmware.write_buffer): what it absorbed, served and evicted.
json write_buffer_section(const PlatformConfig& config, const MetricsRegistry& metrics) {
  json w = {{"policy", fw::write_buffer_policy_names()[std::size_t(config.firmware.write_buffer.policy)]}};
  if (config.firmware.write_buffer.policy == fw::WriteBufferPolicy::kOff) return w;
  const MetricSet& set = *metrics.sets().at("firmware");
  for (const auto& [k, v] : set.counters())
    if (k.rfind("write_buffer_", 0) == 0) w[k.substr(13)] = v;
  for (const auto& [k, v] : set.gauges())
    if (k.rfind("write_buffer_", 0) == 0) w[k.substr(13)] = v;
  w["host_pages_written"] = counter(metrics, "firmware", "host_pages_written");
  if (counter(metrics, "firmware", "host_trims")) w["trim_drops"] = counter(metrics, "firmware", "trim_buffer_drops");
  w["capacity_pages"] = config.firmware.write_buffer.bytes / config.geometry.page_bytes;
  return w;
}

// Hardware metrics; busy fractions are over the simulated time until the drive went idle,
// which includes GC still running after the host's last completion.
json hardware_section(const MetricsRegistry& metrics, const RunFacts& f) {
  const double hw_seconds = std::max(f.simulated_seconds, f.idle_seconds);
  const double end_ticks = hw_seconds > 0 ? hw_seconds / tlmx::ticks_to_seconds(1) : 1;
  json hw = placed_statistics_json(metrics, end_ticks);
  hw["simulated_seconds"] = hw_seconds;
  if (hw.contains("cores")) {  // all cores: the mean of their utilizations
    double busy = 0;
    for (const json& core : hw["cores"]["per_core"]) busy += core["utilization"].get<double>();
    hw["cores"]["utilization"] = busy / double(hw["cores"]["per_core"].size());
  }
  json erase_counts = json::array();  // [erase count, blocks]
  double blocks = 0, sum = 0, squares = 0;
  for (const auto& [erases, n] : f.erase_counts) {
    erase_counts.push_back({erases, n});
    blocks += double(n), sum += double(erases) * double(n), squares += double(erases) * double(erases) * double(n);
  }
  hw["erase_count_histogram"] = erase_counts;
  // Wear spread: what wear leveling evens out (a block dies at its own count, not the mean).
  const double mean = blocks > 0 ? sum / blocks : 0;
  hw["erase_count_spread"] = {{"min", f.erase_counts.empty() ? 0 : f.erase_counts.begin()->first},
                              {"mean", mean},
                              {"max", f.erase_counts.empty() ? 0 : f.erase_counts.rbegin()->first},
                              {"stdev", blocks > 0 ? std::sqrt(std::max(0.0, squares / blocks - mean * mean)) : 0.0}};
  return hw;
}

// Busy shares over the run, on host.over_time's intervals or coarser.
json utilization_over_time_section(const MetricsRegistry& metrics, double hw_seconds) {
  return utilization_over_time(busy_shares(metrics, std::uint64_t(hw_seconds / tlmx::ticks_to_seconds(1) + 0.5)));
}

// The firmware's tables (FTL maps, caches, valid-page maps, the buffers in DRAM), each with the
// memory it was placed in (SRAM first where asked and it fits, else DRAM) and its size, and the
// totals per memory: what an FTL needs of the controller for this drive.
json firmware_tables_section(const std::vector<fw::TableRegion>& tables) {
  json list = json::array();
  std::uint64_t sram = 0, dram = 0;
  for (const fw::TableRegion& t : tables) {
    const bool in_sram = t.memory == fw::MemoryKind::Sram;
    (in_sram ? sram : dram) += t.bytes;
    list.push_back({{"name", t.name}, {"memory", in_sram ? "sram" : "dram"}, {"bytes", t.bytes}});
  }
  return {{"tables", list}, {"sram_bytes", sram}, {"dram_bytes", dram}};
}

json simulation_section(const RunFacts& f, std::uint64_t requests) {
  return {{"wall_seconds", f.wall_seconds},
          {"precondition_wall_seconds", f.precondition_wall_seconds},
          {"setup_wall_seconds", f.setup_wall_seconds},
          {"verify_wall_seconds", f.verify_wall_seconds},
          {"process_wall_seconds", f.process_wall_seconds},
          {"process_cpu_seconds", f.process_cpu_seconds},
          {"requests_per_wall_second", f.wall_seconds > 0 ? double(requests) / f.wall_seconds : 0.0},
          {"delta_cycles", f.delta_cycles},
          {"peak_rss_mib", f.peak_rss_mib},
          {"vcd", f.vcd_path}};
}

}  // namespace

json build_report(const PlatformConfig& config, const MetricsRegistry& metrics, const RunFacts& f) {
  json r;
  describe_run(config, f, r);
  r["host"] = host_section(metrics, f.simulated_seconds);
  r["ftl_metrics"] = ftl_section(metrics);
  r["write_buffer"] = write_buffer_section(config, metrics);
  r["hardware"] = hardware_section(metrics, f);
  r["utilization"] = utilization_section(r["hardware"]);
  r["utilization"]["over_time"] = utilization_over_time_section(metrics, r["hardware"]["simulated_seconds"]);
  r["firmware_profile"] = firmware_profile_section(metrics);
  r["firmware_tables"] = firmware_tables_section(f.firmware_tables);
  if (f.iss) r["firmware_iss"] = iss_section(*f.iss);
  r["latency_breakdown"] = latency_breakdown_section(metrics, config.reliability.errors);
  if (f.queues.size() > 1) r["host"]["flows"] = flows_section(metrics, f.queues, config.reliability.errors);
  if (config.reliability.errors) r["reliability"] = reliability_section(config, metrics, f.failed_reads, f.reported_lost_pages);
  if (config.reliability.failures.any()) r["bad_blocks"] = bad_block_section(metrics, f);
  if (f.power_cut) r["power_cut"] = power_cut_section(*f.power_cut);
  r["energy"] = energy_section(config, metrics,
                               {r["hardware"]["simulated_seconds"].get<double>(), r["host"]["requests"].get<std::uint64_t>(),
                                r["host"]["read_bytes"].get<std::uint64_t>() + r["host"]["write_bytes"].get<std::uint64_t>(),
                                f.iss ? &*f.iss : nullptr});
  r["steady_state"] = steady_state_verdict(r["host"]["over_time"], f.mode == "open-loop");
  r["simulation"] = simulation_section(f, r["host"]["requests"].get<std::uint64_t>());
  return r;
}

namespace {
// A trace whose time went backwards: a warning when the steps were clamped (the replay then
// squeezes them, and every figure per second with them), a note when they were sorted.
std::string time_order_note(const json& w) {
  const std::uint64_t steps = w.value("backward_steps", std::uint64_t(0));
  if (steps == 0) return "";
  const double largest = w.value("largest_backward_step_s", 0.0);
  if (w.value("time_order", std::string("clamp")) == "sort")
    return fmt::format("  time order: {} requests went back in time (largest step {:.6g} s); replayed sorted by time\n",
                       steps, largest);
  return fmt::format("  WARNING: {} requests went back in time (largest step {:.6g} s) and were clamped to the "
                     "previous arrival, so the replay is squeezed; --time-order sort replays the trace in time "
                     "order, --time-order refuse stops at the first\n",
                     steps, largest);
}

// Malformed trace lines --skip-bad-lines passed over: how many, and the first one's message.
std::string skipped_lines_note(const json& w) {
  const std::uint64_t skipped = w.value("skipped_lines", std::uint64_t(0));
  if (skipped == 0) return "";
  return fmt::format("  skipped: {} malformed trace line{} (--skip-bad-lines); the first: {}\n", skipped,
                     skipped == 1 ? "" : "s", w.value("first_skipped", std::string()));
}

// What a stage of the latency breakdown is waiting for, for verdicts.
const char* stage_meaning(const std::string& stage) {
  static const std::map<std::string, const char*> meaning = {
      {"submission", "command fetch over the host link"},
      {"firmware", "firmware jobs: a core, computing, table accesses"},
      {"buffer_wait", "data-buffer pages (firmware.buffer_slots)"},
      {"dependency_wait", "flash work of other requests or the FTL's own (merges, GC copies, an erase)"},
      {"pcie", "host data over the host link"},
      {"dram_bus", "the system bus to the DRAM buffer"},
      {"die_queue", "a busy die"},
      {"channel_wait", "a channel carrying other dies' transfers"},
      {"channel_transfer", "channel transfers"},
      {"array", "the NAND array (tR, tPROG, tBERS)"},
      {"completion", "the completion entry"}};
  const auto it = meaning.find(stage);
  return it == meaning.end() ? "" : it->second;
}

// The stage of the time in the drive (host_queue excluded) that holds most of it, and that
// time's sum, as shares of the mean latency.
struct DriveStage {
  std::string name;
  double share = -1, in_drive = 0;
};
DriveStage largest_drive_stage(const json& stages) {
  DriveStage d;
  for (const auto& [name, v] : stages.items()) {
    if (name == "host_queue") continue;
    d.in_drive += v["share"].get<double>();
    if (v["share"].get<double>() > d.share) d.share = v["share"].get<double>(), d.name = name;
  }
  return d;
}

// The FTL work writes waited for, from its counters: "; the FTL: 741 full merges, 1,480 of 1,500
// host page writes waited for room" (empty when no write waited).
std::string ftl_waits_text(const json& f) {
  auto count = [&f](const char* key) { return f.contains(key) && f[key].is_number() ? f[key].get<std::uint64_t>() : 0; };
  const std::uint64_t deferred = count("deferred_writes"), written = count("host_pages_written");
  std::vector<std::string> work;
  if (count("full_merges") > 0) work.push_back(fmt::format("{} full merges", count("full_merges")));
  if (count("partial_merges") > 0) work.push_back(fmt::format("{} partial merges", count("partial_merges")));
  if (count("gc_runs") > 0) work.push_back(fmt::format("{} GC runs", count("gc_runs")));
  if (deferred > 0) work.push_back(fmt::format("{} of {} host page writes waited for it to free room", deferred, written));
  if (count("cmt_read_misses") + count("cmt_write_misses") > 0)
    work.push_back(fmt::format("{} mapping-cache misses", count("cmt_read_misses") + count("cmt_write_misses")));
  if (work.empty()) return "";
  std::string s = "; the FTL did ";
  for (std::size_t i = 0; i < work.size(); ++i) s += (i ? ", " : "") + work[i];
  return s;
}

// What the time in the drive waits on: "68% is die_queue (waiting for a busy die)", with the FTL's
// work named when it is flash work of the FTL's own.
std::string drive_wait_text(const json& r, const DriveStage& d) {
  std::string s = fmt::format("{:.0f}% is {} (waiting for {})", d.in_drive > 0 ? 100 * d.share / d.in_drive : 0.0,
                              d.name, stage_meaning(d.name));
  if (d.name == "dependency_wait" || d.name == "buffer_wait") s += ftl_waits_text(r["ftl_metrics"]);
  return s;
}

// Open loop, a drive that keeps requests waiting in the host's queue (most of their latency), or
// completes them over a much longer time than they arrived in, is the bottleneck even when none
// of its resources is saturated: names the rates and what the time in the drive waits on.
// Closed loop, the host's queue depth sets the concurrency, but when most of the time in the
// drive is waiting (for flash work of the FTL's own, data-buffer pages, a busy die) rather than
// being served, the drive's internal waits set the pace: says so and what they wait on.
// Empty when the drive keeps up.
std::string drive_pace_text(const json& r) {
  const json& h = r["host"];
  const json& all = r["latency_breakdown"]["all"];
  if (h["requests"].get<std::uint64_t>() < 100) return "";
  const DriveStage d = largest_drive_stage(all["stages"]);
  const unsigned qd = r["workload"].value("queue_depth", 0u);
  if (r["workload"].value("mode", std::string()) != "open-loop") {
    double waiting = 0;
    for (const char* stage : {"dependency_wait", "buffer_wait", "die_queue", "channel_wait"})
      if (all["stages"].contains(stage)) waiting += all["stages"][stage]["share"].get<double>();
    if (d.in_drive <= 0 || waiting < 0.5 * d.in_drive) return "";
    return fmt::format("the drive's own waits set the pace though no resource is saturated: at --qd {} a request "
                       "spends {:.5g} us in the drive, {:.0f}% of it waiting rather than being served; of that time {}",
                       qd, all["mean_latency_us"].get<double>() * d.in_drive, 100 * waiting / d.in_drive,
                       drive_wait_text(r, d));
  }
  const double queue_share = all["stages"]["host_queue"]["share"].get<double>();
  const double arrived = h.value("arrival_span_s", 0.0), completed = h["simulated_seconds"].get<double>();
  const bool behind = completed > 1.25 * arrived;
  if (queue_share < 0.5 && !behind) return "";
  std::string rates = arrived > 0 ? fmt::format("requests that arrived over {:.6g} s completed over {:.6g} s ({:.5g} "
                                                "offered per second, {:.5g} served)",
                                                arrived, completed, h["requests"].get<double>() / arrived,
                                                h["iops"].get<double>())
                                  : fmt::format("requests that all arrived at once completed over {:.6g} s", completed);
  return fmt::format("the drive is the bottleneck though no resource is saturated: {}; {:.0f}% of the mean latency "
                     "is waiting in the host's queue (--qd {}), and of the time in the drive {}",
                     rates, 100 * queue_share, qd, drive_wait_text(r, d));
}

// "firmware cycles: 41.0% op_issue, 20.3% host_command, ..." (the four largest shares).
std::string firmware_profile_text(const json& profile) {
  std::vector<std::pair<double, std::string>> shares;
  for (const auto& [work, v] : profile.items())
    if (v["cycles"].get<std::uint64_t>() > 0) shares.emplace_back(v["share"].get<double>(), work);
  if (shares.empty()) return "";
  std::sort(shares.rbegin(), shares.rend());
  std::string s = "  firmware cycles:";
  for (std::size_t i = 0; i < shares.size() && i < 4; ++i)
    s += fmt::format("{} {:.1f}% {}", i ? "," : "", 100 * shares[i].first, shares[i].second);
  return s + (shares.size() > 4 ? ", ...\n" : "\n");
}

// "busy: dies 41.2/42.7/44.0% (min/mean/max), channels 9.2% (max 9.3%), system bus 5.7%, ..." and
// the bottleneck.
std::string busy_text(const json& hw, const json& u, const std::string& pace) {
  const json& d = u["dies"];
  const double ch_mean = u["channels"]["mean"].get<double>(), ch_max = u["channels"]["max"].get<double>();
  const json& link = hw["host_interface"];
  std::string s = fmt::format(
      "  busy: dies {:.1f}/{:.1f}/{:.1f}% (min/mean/max), channels {:.1f}% (max {:.1f}%), system bus {:.1f}%, "
      "DRAM {:.1f}%, SRAM {:.1f}%, host link {:.1f}% to device / {:.1f}% to host, cores {:.1f}%\n",
      100 * d["min"].get<double>(), 100 * d["mean"].get<double>(), 100 * d["max"].get<double>(), 100 * ch_mean,
      100 * ch_max, 100 * hw["system_bus"]["busy_fraction"].get<double>(), 100 * hw["dram"]["busy_fraction"].get<double>(),
      100 * hw["sram"]["busy_fraction"].get<double>(), 100 * link["to_device_busy_fraction"].get<double>(),
      100 * link["to_host_busy_fraction"].get<double>(), 100 * hw["cores"]["utilization"].get<double>());
  const bool saturated = u["bound"].get<bool>() || !u["limited_by"].empty();
  return s + "  bottleneck: " + (pace.empty() || saturated ? bottleneck_text(u) : pace) + "\n";
}

}  // namespace

std::string summary_text(const json& r) {
  const json& h = r["host"];
  const json& ftl = r["ftl_metrics"];
  std::string s;
  s += fmt::format("platform {} | FTL {} | {}\n", r["platform"]["name"].get<std::string>(),
                   r["ftl"]["name"].get<std::string>(), r["workload"]["description"].get<std::string>());
  s += fmt::format("  preconditioning: {} ({:.1f} s wall)\n", r["workload"]["precondition"].get<std::string>(),
                   r["simulation"]["precondition_wall_seconds"].get<double>());
  s += time_order_note(r["workload"]);
  s += skipped_lines_note(r["workload"]);
  const std::string flushes = h.contains("flushes") ? fmt::format(", {} flushes", h["flushes"].get<std::uint64_t>()) : "";
  const std::string fua = h.contains("fua_writes") ? fmt::format(" ({} FUA)", h["fua_writes"].get<std::uint64_t>()) : "";
  s += fmt::format("  {} requests ({} reads, {} writes{}{}) in {:.6f} s simulated: {:.5g} IOPS, {:.4g} MB/s\n",
                   h["requests"].get<std::uint64_t>(), h["reads"].get<std::uint64_t>(), h["writes"].get<std::uint64_t>(),
                   fua, flushes, h["simulated_seconds"].get<double>(), h["iops"].get<double>(), h["mb_per_s"].get<double>());
  for (const char* k : {"read_latency_us", "write_latency_us"}) {
    const json& l = h[k];
    if (l["count"].get<std::uint64_t>() == 0) continue;
    // The host's queue apart from the drive: an open-loop replay's waits for a queue slot are the
    // host's (its --qd), not the drive's service time.
    const json& stages = r["latency_breakdown"][k[0] == 'r' ? "read" : "write"]["stages"];
    const double queued = stages["host_queue"]["mean_us"].get<double>();
    s += fmt::format("  {:5} latency us: mean {:.1f} ({:.1f} in the host's queue, {:.1f} in the drive)  p50 {:.1f}  "
                     "p99 {:.1f}  p99.9 {:.1f}  max {:.1f}\n",
                     k[0] == 'r' ? "read" : "write", l["mean"].get<double>(), queued,
                     std::max(0.0, l["mean"].get<double>() - queued), l["p50"].get<double>(), l["p99"].get<double>(),
                     l["p99_9"].get<double>(), l["max"].get<double>());
  }
  if (h.contains("flush_latency_us")) {  // a flush's time is its wait for the buffered pages
    const json& l = h["flush_latency_us"];
    s += fmt::format("  flush latency us: mean {:.1f}  p50 {:.1f}  p99 {:.1f}  max {:.1f}\n", l["mean"].get<double>(),
                     l["p50"].get<double>(), l["p99"].get<double>(), l["max"].get<double>());
  }
  if (h.contains("trims")) {
    const json& l = h["trim_latency_us"];
    s += fmt::format("  trims: {} ({} whole pages deallocated, {} of them mapped in the FTL), latency us: mean {:.1f}  "
                     "p99 {:.1f}\n",
                     h["trims"].get<std::uint64_t>(), h["trimmed_pages"].get<std::uint64_t>(),
                     ftl.value("trimmed_pages", std::uint64_t(0)), l["mean"].get<double>(), l["p99"].get<double>());
  }
  s += flows_text(h);
  auto n = [&ftl](const char* key) { return ftl.value(key, std::uint64_t(0)); };
  // The FTL's WAF, and the drive's when a write buffer stands in front of it.
  const std::string waf = n("host_pages_written") ? fmt::format("{:.3f}", ftl["waf"].get<double>())
                                                  : std::string("- (no page reached the FTL)");
  const std::string drive_waf = r["write_buffer"].contains("capacity_pages") && ftl["drive_waf"].is_number()
                                    ? fmt::format(" (drive: {:.3f} per page the host wrote)", ftl["drive_waf"].get<double>())
                                    : std::string();
  if (ftl.contains("full_merges") && !ftl.contains("pool_reclaims")) {  // log-block hybrids
    s += fmt::format("  FTL: WAF {}{}, merges {} switch, {} partial, {} full ({} associated blocks), {} dead; "
                     "{} copies, {} erases\n",
                     waf, drive_waf, n("switch_merges"), n("partial_merges"), n("full_merges"),
                     n("full_merge_associated_blocks"), n("dead_block_erases"), n("merge_copies"), n("erases"));
  } else {
    s += fmt::format("  FTL: WAF {}{}, {} GC runs, {} GC copies, {} erases\n", waf, drive_waf, n("gc_runs"),
                     n("gc_copies"), n("erases"));
  }
  const json& wb = r["write_buffer"];
  if (wb.contains("capacity_pages"))
    s += fmt::format("  write buffer ({}, {} pages): {} host pages written, {} absorbed, {} evicted, {} read hits; "
                     "mean {:.0f} pages in use, at most {}\n",
                     wb["policy"].get<std::string>(), wb["capacity_pages"].get<std::uint64_t>(),
                     wb["host_pages_written"].get<std::uint64_t>(), wb["absorbed_writes"].get<std::uint64_t>(),
                     wb["evictions"].get<std::uint64_t>(), wb["read_hits"].get<std::uint64_t>(),
                     wb["mean_pages"].get<double>(), wb["pages_high_water"].get<std::uint64_t>());
  s += latency_breakdown_text(r["latency_breakdown"]);
  s += busy_text(r["hardware"], r["utilization"], drive_pace_text(r));
  s += steady_state_text(r["steady_state"]);
  s += firmware_profile_text(r["firmware_profile"]);
  if (r.contains("firmware_iss")) s += iss_text(r["firmware_iss"]);
  const double hw_us = std::max(1e-30, r["hardware"]["simulated_seconds"].get<double>() * 1e6);
  std::size_t k = 0;
  for (const auto& c : r["hardware"]["cores"]["per_core"])
    s += fmt::format("  core {}: {:.2f}% compute, {:.2f}% memory wait, {:.2f}% idle; {} jobs\n", k++,
                     100 * c["compute_us"].get<double>() / hw_us, 100 * c["memory_wait_us"].get<double>() / hw_us,
                     100 * c["idle_us"].get<double>() / hw_us, c["jobs"].get<std::uint64_t>());
  s += energy_text(r["energy"]);
  if (r.contains("reliability")) s += reliability_text(r["reliability"]);
  if (r.contains("bad_blocks")) s += bad_block_text(r["bad_blocks"]);
  if (r.contains("power_cut")) s += power_cut_text(r["power_cut"]);
  const json& in = r["integrity"];
  s += fmt::format("  integrity: {} pages checked, {} mismatches{}\n", in["pages_checked"].get<std::uint64_t>(),
                   in["mismatches"].get<std::uint64_t>(),
                   in["mapping_check"].get<std::string>().empty() ? "" : ", mapping check: " + in["mapping_check"].get<std::string>());
  const json& sim = r["simulation"];
  s += fmt::format("  simulation: {:.2f} s wall, {:.0f} requests/s, peak memory {:.0f} MiB; whole process {:.2f} s wall, "
                   "{:.2f} s CPU (set-up {:.2f} s, preconditioning {:.2f} s, mapping check {:.2f} s)\n",
                   sim["wall_seconds"].get<double>(), sim["requests_per_wall_second"].get<double>(),
                   sim["peak_rss_mib"].get<double>(), sim["process_wall_seconds"].get<double>(),
                   sim["process_cpu_seconds"].get<double>(), sim["setup_wall_seconds"].get<double>(),
                   sim["precondition_wall_seconds"].get<double>(), sim["verify_wall_seconds"].get<double>());
  return s;
}

namespace {
// Column name and where it comes from in the report (JSON pointer).
const std::vector<std::pair<const char*, const char*>>& csv_columns() {
  static const std::vector<std::pair<const char*, const char*>> columns = {
      {"platform", "/platform/name"},
      {"ftl", "/ftl/name"},
      {"workload", "/workload/description"},
      {"overrides", "/platform/overrides"},
      {"queue_depth", "/workload/queue_depth"},
      {"requests", "/host/requests"},
      {"reads", "/host/reads"},
      {"writes", "/host/writes"},
      {"simulated_s", "/host/simulated_seconds"},
      {"iops", "/host/iops"},
      {"read_iops", "/host/read_iops"},
      {"write_iops", "/host/write_iops"},
      {"mb_per_s", "/host/mb_per_s"},
      {"latency_mean_us", "/host/latency_us/mean"},
      {"latency_p50_us", "/host/latency_us/p50"},
      {"latency_p99_us", "/host/latency_us/p99"},
      {"latency_p99_9_us", "/host/latency_us/p99_9"},
      {"latency_max_us", "/host/latency_us/max"},
      {"read_latency_mean_us", "/host/read_latency_us/mean"},
      {"read_latency_p50_us", "/host/read_latency_us/p50"},
      {"read_latency_p99_us", "/host/read_latency_us/p99"},
      {"read_latency_p99_9_us", "/host/read_latency_us/p99_9"},
      {"write_latency_mean_us", "/host/write_latency_us/mean"},
      {"write_latency_p50_us", "/host/write_latency_us/p50"},
      {"write_latency_p99_us", "/host/write_latency_us/p99"},
      {"write_latency_p99_9_us", "/host/write_latency_us/p99_9"},
      // The first four flows (I/O queues) of a run with several; the report has them all.
      {"flows", "/workload/queues"},
      {"fairness", "/host/fairness"},
      {"flow0_iops", "/host/flows/0/iops"},
      {"flow0_latency_mean_us", "/host/flows/0/latency_us/mean"},
      {"flow0_latency_p99_us", "/host/flows/0/latency_us/p99"},
      {"flow0_slowdown", "/host/flows/0/slowdown"},
      {"flow1_iops", "/host/flows/1/iops"},
      {"flow1_latency_mean_us", "/host/flows/1/latency_us/mean"},
      {"flow1_latency_p99_us", "/host/flows/1/latency_us/p99"},
      {"flow1_slowdown", "/host/flows/1/slowdown"},
      {"flow2_iops", "/host/flows/2/iops"},
      {"flow2_latency_mean_us", "/host/flows/2/latency_us/mean"},
      {"flow2_latency_p99_us", "/host/flows/2/latency_us/p99"},
      {"flow2_slowdown", "/host/flows/2/slowdown"},
      {"flow3_iops", "/host/flows/3/iops"},
      {"flow3_latency_mean_us", "/host/flows/3/latency_us/mean"},
      {"flow3_latency_p99_us", "/host/flows/3/latency_us/p99"},
      {"flow3_slowdown", "/host/flows/3/slowdown"},
      {"waf", "/ftl_metrics/waf"},
      {"drive_waf", "/ftl_metrics/drive_waf"},
      {"erases", "/ftl_metrics/erases"},
      {"gc_runs", "/ftl_metrics/gc_runs"},
      {"gc_copies", "/ftl_metrics/gc_copies"},
      {"die_busy_mean", "/utilization/dies/mean"},
      {"die_busy_max", "/utilization/dies/max"},
      {"channel_busy_mean", "/utilization/channels/mean"},
      {"channel_busy_max", "/utilization/channels/max"},
      {"system_bus_busy", "/utilization/resources/system bus"},
      {"dram_busy", "/utilization/resources/dram"},
      {"sram_busy", "/utilization/resources/sram"},
      {"host_link_to_device_busy", "/utilization/resources/host link (to device)"},
      {"host_link_to_host_busy", "/utilization/resources/host link (to host)"},
      {"cores_busy", "/utilization/resources/cores"},
      {"busiest_resource", "/utilization/busiest/resource"},
      {"busiest_busy", "/utilization/busiest/busy_fraction"},
      {"bound", "/utilization/bound"},
      {"energy_j", "/energy/total_j"},
      {"energy_per_request_j", "/energy/per_request_j"},
      {"energy_per_gb_j", "/energy/per_gb_j"},
      {"average_power_w", "/energy/average_w"},
      {"peak_power_w", "/energy/peak_w"},
      {"energy_flash_j", "/energy/flash_j"},
      {"energy_idle_states_j", "/energy/components_j/idle_states"},
      {"ps0_s", "/energy/states/ps0_s"},
      {"mismatches", "/integrity/mismatches"},
      {"wall_s", "/simulation/wall_seconds"},
      {"peak_rss_mib", "/simulation/peak_rss_mib"},
  };
  return columns;
}

std::string csv_cell(const json& v) {
  if (v.is_object()) {  // the overrides: "key=value; key=value"
    std::string text;
    for (const auto& [k, x] : v.items())
      text += (text.empty() ? "" : "; ") + k + "=" + (x.is_string() ? x.get<std::string>() : x.dump());
    return csv_cell(json(text));
  }
  if (v.is_string()) {  // quoted, inner quotes doubled (RFC 4180)
    std::string s = "\"";
    for (char c : v.get<std::string>()) s += c == '"' ? std::string("\"\"") : std::string(1, c);
    return s + "\"";
  }
  return v.is_null() ? "" : v.dump();
}
}  // namespace

std::string csv_header() {
  std::string s;
  for (const auto& [name, pointer] : csv_columns()) s += (s.empty() ? "" : ",") + std::string(name);
  return s + "\n";
}

std::string csv_row(const json& report) {
  std::string s;
  bool first = true;
  for (const auto& [name, pointer] : csv_columns()) {
    const json::json_pointer p(pointer);
    s += (first ? "" : ",") + (report.contains(p) ? csv_cell(report.at(p)) : std::string());
    first = false;
  }
  return s + "\n";
}

}  // namespace ssd::platform
