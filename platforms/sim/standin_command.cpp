#include "platforms/sim/standin_command.h"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "platforms/config/platform_config.h"
#include "platforms/sim/cli_checks.h"
#include "platforms/sim/output_files.h"
#include "stimuli/msr_writer.h"
#include "stimuli/open_trace.h"
#include "stimuli/text_trace.h"
#include "stimuli/trace_selection.h"
#include "tlm/time_base.h"

namespace ssd::platform {

namespace {

using stimuli::TraceStats;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double gib(std::uint64_t bytes) { return double(bytes) / double(1ull << 30); }

// The excerpt through the same readers, format detection and device selection as `ssdsim run`.
std::unique_ptr<stimuli::Workload> open_excerpt(const StandinCommand& c) {
  auto trace = stimuli::open_trace(c.trace, c.trace_format,
                                   c.skip_bad_lines ? stimuli::MalformedLines::Skip : stimuli::MalformedLines::Stop);
  stimuli::TraceSelectionSpec selection;
  if (c.cli->count("--device")) selection.device = c.device;
  if (c.device_offset % 512 != 0)
    throw CLI::ValidationError("--device-offset-bytes", "must be a multiple of 512, got " + std::to_string(c.device_offset));
  selection.device_offset_sectors = c.device_offset / 512;
  if (!selection.selects_anything()) return trace;
  return std::make_unique<stimuli::TraceSelection>(std::move(trace), selection);
}

void check_spec(const StandinCommand& c, const stimuli::TraceModel& model) {
  const stimuli::StandinSpec& s = c.spec;
  if (c.cli->count("--writes") && s.writes == 0)
    throw CLI::ValidationError("--writes", "must be a positive number of write requests, got 0");
  if (c.cli->count("--requests") && s.requests == 0)
    throw CLI::ValidationError("--requests", "must be a positive number of requests, got 0");
  if (s.writes > 0 && model.excerpt.writes == 0)
    throw stimuli::WorkloadError(c.trace + ": the excerpt has no write request, so no stand-in reaches --writes " +
                                 std::to_string(s.writes) + " (ask for --requests instead)");
  if (c.cli->count("--range-bytes")) {
    if (s.range_bytes == 0 || s.range_bytes % 4096 != 0)
      throw CLI::ValidationError("--range-bytes", "must be a positive multiple of 4096, got " + std::to_string(s.range_bytes));
    const std::uint64_t largest = std::uint64_t{model.largest_request} * 512;
    if (s.range_bytes < largest)
      throw CLI::ValidationError("--range-bytes", fmt::format("must hold the excerpt's largest request ({} bytes), got {}",
                                                              largest, s.range_bytes));
  }
}

nlohmann::json stats_json(const TraceStats& s) {
  nlohmann::json sizes;
  for (int i = 0; i < TraceStats::kSizeBuckets; ++i) sizes[TraceStats::size_bucket_name(i)] = s.share(s.size_buckets[i]);
  return {{"requests", s.requests},
          {"writes", s.writes},
          {"write_share", s.share(s.writes)},
          {"size_pages_share", sizes},
          {"mean_size_kib", s.mean_kib()},
          {"sequential_share", s.share(s.sequential)},
          {"reuse_share", s.share(s.reuse)},
          {"cold_share", s.share(s.cold)},
          {"reuse_distance", {{"p10", s.distance_p10}, {"p50", s.distance_p50}, {"p90", s.distance_p90}}},
          {"written_pages", s.written_pages},
          {"written_pages_per_write", s.written_pages_per_write()},
          {"mean_interarrival_us", s.mean_gap_us()},
          {"duration_s", double(s.duration_ns) * 1e-9},
          {"max_end_bytes", s.max_end_sector * 512}};
}

std::string percent(double share) { return fmt::format("{:.1f}%", share * 100); }

void print_table(const TraceStats& e, const TraceStats& s) {
  const auto row = [](const std::string& name, const std::string& a, const std::string& b) {
    std::cout << fmt::format("  {:<34}{:>14}{:>14}\n", name, a, b);
  };
  const auto count = [&](const std::string& name, std::uint64_t a, std::uint64_t b) {
    row(name, std::to_string(a), std::to_string(b));
  };
  const auto shares = [&](const std::string& name, std::uint64_t a, std::uint64_t b) {
    row(name, percent(e.share(a)), percent(s.share(b)));
  };
  row("", "excerpt", "stand-in");
  count("requests", e.requests, s.requests);
  count("writes", e.writes, s.writes);
  shares("write share", e.writes, s.writes);
  for (int i = 0; i < TraceStats::kSizeBuckets; ++i)
    shares(std::string("size ") + TraceStats::size_bucket_name(i) + (i == 0 ? " page (4 KiB)" : " pages"),
           e.size_buckets[i], s.size_buckets[i]);
  row("mean size (KiB)", fmt::format("{:.2f}", e.mean_kib()), fmt::format("{:.2f}", s.mean_kib()));
  shares("sequential share", e.sequential, s.sequential);
  shares("re-reference share", e.reuse, s.reuse);
  shares("cold-miss share", e.cold, s.cold);
  count("reuse distance p10", e.distance_p10, s.distance_p10);
  count("reuse distance p50", e.distance_p50, s.distance_p50);
  count("reuse distance p90", e.distance_p90, s.distance_p90);
  count("written footprint (4 KiB pages)", e.written_pages, s.written_pages);
  row("written pages per write", fmt::format("{:.3f}", e.written_pages_per_write()),
      fmt::format("{:.3f}", s.written_pages_per_write()));
  row("mean inter-arrival (us)", fmt::format("{:.1f}", e.mean_gap_us()), fmt::format("{:.1f}", s.mean_gap_us()));
  row("duration (s)", fmt::format("{:.1f}", double(e.duration_ns) * 1e-9), fmt::format("{:.1f}", double(s.duration_ns) * 1e-9));
}

}  // namespace

CLI::App* add_standin_command(CLI::App& app, StandinCommand& c) {
  CLI::App* cmd = app.add_subcommand(
      "standin",
      "write a long stand-in trace (MSR CSV) rebuilt from a short excerpt with its size mix, read/write share, "
      "sequentiality and reuse distances (not a loop); prints both traces' statistics side by side");
  c.cli = cmd;
  cmd->add_option("-t,--trace", c.trace, "the excerpt: a trace in any format `ssdsim run --trace` reads")->required();
  cmd->add_option("--trace-format", c.trace_format,
                  "trace format: auto (by name/content), msr, mqsim, disksim, blkparse, spc")
      ->check(CLI::IsMember({"auto", "msr", "mqsim", "disksim", "blkparse", "spc"}))
      ->capture_default_str();
  cmd->add_flag("--skip-bad-lines", c.skip_bad_lines, "skip (and count) malformed trace lines instead of stopping at the first");
  auto* device = cmd->add_option("--device", c.device, "learn from this device of a multi-device trace only")->check(kDecimal);
  cmd->add_option("--device-offset-bytes", c.device_offset,
                  "merge a multi-device trace's devices, device d's addresses shifted by d x this (multiple of 512; "
                  "default 0: they overlap)")
      ->check(kDecimal)
      ->excludes(device);
  auto* writes = cmd->add_option("--writes", c.spec.writes, "stop once the stand-in holds this many write requests")
                     ->check(kDecimal);
  auto* requests =
      cmd->add_option("--requests", c.spec.requests, "or: stop after this many requests in all")->check(kDecimal);
  writes->excludes(requests);
  cmd->add_option("--range-bytes", c.spec.range_bytes,
                  "address range the stand-in is folded into (multiple of 4096; default: the excerpt's largest end "
                  "address rounded up to a GiB, times the passes through the excerpt the stand-in needs, at most 4 TiB)")
      ->check(kDecimal);
  cmd->add_flag("--reuse-by-op", c.spec.reuse_by_op,
                "a re-reference takes its depth among the addresses last written, or last read, as its excerpt "
                "request's did (keeps how often writes rewrite written data; see stimuli/trace_model.h)");
  cmd->add_option("--time-scale", c.spec.time_scale,
                  "every gap between requests times this (> 0): a sparse excerpt's stand-in may otherwise span more "
                  "than the year of trace time a reader accepts")
      ->check(CLI::Range(1e-9, 1e9))
      ->capture_default_str();
  cmd->add_option("--seed", c.spec.seed, "random seed (same seed, same stand-in)")->check(kDecimal)->capture_default_str();
  cmd->add_option("-o,--out", c.out, "stand-in trace to write (MSR Cambridge CSV; gzip when it ends in .gz)")->required();
  cmd->add_option("--stats-json", c.stats_json, "also write the statistics side by side as JSON");
  cmd->add_flag("-q,--quiet", c.quiet, "print nothing but errors");
  return cmd;
}

void run_standin(StandinCommand& c) {
  if (!c.cli->count("--writes") && !c.cli->count("--requests"))
    throw CLI::ValidationError("--writes", "give the stand-in's length: --writes W or --requests N");
  check_writable(c.out, "stand-in trace");
  if (!c.stats_json.empty()) check_writable(c.stats_json, "statistics");

  auto t0 = std::chrono::steady_clock::now();
  auto excerpt = open_excerpt(c);
  stimuli::TraceModel model = stimuli::learn_trace_model(*excerpt);
  const double learn_s = seconds_since(t0);
  check_spec(c, model);
  const std::uint64_t region_bytes = model.region_sectors * 512;
  const std::uint64_t passes = stimuli::passes_needed(model, c.spec);
  const TraceStats excerpt_stats = model.excerpt;

  t0 = std::chrono::steady_clock::now();
  stimuli::StandinWorkload standin(std::move(model), c.spec);
  stimuli::MsrWriter writer(c.out);
  stimuli::HostRequest r;
  while (standin.next(r)) writer.write(r);
  writer.close();
  const double generate_s = seconds_since(t0);
  const TraceStats s = standin.stats();

  const std::uint64_t regions = standin.range_bytes() / region_bytes;
  const std::string range_origin =
      c.cli->count("--range-bytes")
          ? std::string("--range-bytes")
          : fmt::format("default: {} passes through the excerpt x its span rounded up, {:.0f} GiB{}", passes,
                        gib(region_bytes),
                        regions < passes ? fmt::format("; capped at 4 TiB, {} regions, so new addresses wrap after "
                                                       "{} passes",
                                                       regions, regions)
                                         : std::string());
  if (!c.quiet) {
    std::cout << fmt::format("stand-in of {} ({} requests{}) -> {}\n", excerpt->describe(), excerpt_stats.requests,
                             excerpt->skipped_lines() ? fmt::format(", {} malformed lines skipped", excerpt->skipped_lines())
                                                      : std::string(),
                             c.out);
    print_table(excerpt_stats, s);
    std::cout << fmt::format("  range {:.1f} GiB ({}); written footprint {:.2f} GiB\n", gib(standin.range_bytes()),
                             range_origin, gib(s.written_pages * 4096));
    std::cout << fmt::format("  learned in {:.2f} s, generated and written in {:.2f} s (seed {}{})\n", learn_s,
                             generate_s, c.spec.seed, c.spec.reuse_by_op ? ", --reuse-by-op" : "");
    if (s.duration_ns > stimuli::TextTrace::kMaxSpanNs)
      std::cout << fmt::format("  note: the stand-in spans {:.2f} years of trace time; a trace reader takes at most a "
                               "year: make it with --time-scale {:.3g} or less\n",
                               double(s.duration_ns) * 1e-9 / (365.25 * 86400),
                               c.spec.time_scale * double(stimuli::TextTrace::kMaxSpanNs) / double(s.duration_ns));
    else if (double(s.duration_ns) * 1e-9 > tlmx::max_simulated_seconds())
      std::cout << fmt::format("  note: the stand-in spans {:.2f} years of trace time, more than a run simulates ({}): "
                               "replay it with --time-scale or --mode closed\n",
                               double(s.duration_ns) * 1e-9 / (365.25 * 86400), tlmx::describe_limit());
  }
  if (!c.stats_json.empty()) {
    const nlohmann::json j = {{"trace", c.trace},
                              {"trace_format", c.trace_format},
                              {"out", c.out},
                              {"seed", c.spec.seed},
                              {"reuse_by_op", c.spec.reuse_by_op},
                              {"time_scale", c.spec.time_scale},
                              {"range_bytes", standin.range_bytes()},
                              {"region_bytes", region_bytes},
                              {"learn_seconds", learn_s},
                              {"generate_seconds", generate_s},
                              {"excerpt", stats_json(excerpt_stats)},
                              {"standin", stats_json(s)}};
    std::ofstream f(c.stats_json);
    if (!(f << j.dump(2) << '\n')) throw ConfigError("cannot write statistics file '" + c.stats_json + "'");
  }
}

}  // namespace ssd::platform
