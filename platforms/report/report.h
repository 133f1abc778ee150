// The run report: one JSON document (schema documented in docs/report.md) built from the
// metrics registry, the effective configuration and the run's facts; and the text summary
// printed at the end of a run.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/io_queue.h"
#include "common/metrics.h"
#include "platforms/config/platform_config.h"
#include "fw/precondition/precondition_spec.h"
#include "platforms/report/iss_section.h"
#include "platforms/report/power_cut_section.h"

namespace ssd::platform {

struct RunFacts {
  std::string workload;             // description of the workload
  std::uint64_t skipped_lines = 0;  // malformed trace lines skipped (--skip-bad-lines)
  std::string first_skipped;
  std::string time_order = "clamp";  // what was done with trace times going backwards (--time-order)
  std::uint64_t backward_steps = 0;  // requests whose trace time went backwards
  double largest_backward_step_s = 0;
  std::string mode;                 // "open-loop" or "closed-loop"
  std::uint32_t queue_depth = 0;
  std::vector<IoQueueSpec> queues;  // the host's I/O queues with their depths (one: empty or one entry)
  double time_scale = 1.0;
  std::uint64_t written_footprint_pages = 0;  // distinct logical pages the workload writes
  fw::PreconditionOutcome precondition;  // what was done before measuring
  double simulated_seconds = 0;     // from first arrival to last completion
  double idle_seconds = 0;          // when the drive went idle (background GC may outlast the host)
  double wall_seconds = 0;          // timed simulation only
  double precondition_wall_seconds = 0;
  double setup_wall_seconds = 0;    // elaboration, allocation, the workload's check
  double verify_wall_seconds = 0;   // the end-of-run mapping/OOB check of the whole drive
  double process_wall_seconds = 0, process_cpu_seconds = 0;  // the whole process until the report
  std::uint64_t delta_cycles = 0;
  double peak_rss_mib = 0;
  std::uint64_t pages_checked = 0, mismatches = 0;
  std::uint64_t failed_reads = 0, reported_lost_pages = 0;  // reads the drive reported unrecoverable
  std::string first_mismatch, mapping_check;
  std::map<std::string, std::string> ftl_parameters;
  std::string vcd_path;
  std::map<std::uint32_t, std::uint64_t> erase_counts;  // erase count -> blocks (whole run, preconditioning included)
  std::vector<fw::TableRegion> firmware_tables;         // the firmware's tables, where they were placed
  std::optional<PowerCutFacts> power_cut;  // --power-cut-at / --power-cut-after
  std::optional<IssRunFacts> iss;                       // core.model = iss: what the image executed
  // Bad blocks, as the flash saw them (the firmware's side is in its ftl metrics).
  std::uint64_t factory_bad_blocks = 0, program_failures = 0, erase_failures = 0;
  std::uint64_t worn_out_before_run = 0;  // an aged drive's blocks gone bad before the run
};

nlohmann::json build_report(const PlatformConfig& config, const MetricsRegistry& metrics, const RunFacts& facts);
std::string summary_text(const nlohmann::json& report);

// One CSV row of a report's headline figures, for sweeps; csv_header() names the columns.
std::string csv_header();
std::string csv_row(const nlohmann::json& report);

}  // namespace ssd::platform
