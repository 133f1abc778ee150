// `ssdsim run`, in its steps: declare the options (add_run_command), resolve them into
// RunOptions with defaults and checked output paths (resolve_run), then run_simulation
// (platforms/run/simulation.h: elaborate, precondition, simulate, report), then write the
// outputs (write_run_outputs).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "platforms/run/simulation.h"

namespace ssd::platform {

struct RunCommand {
  RunOptions run;  // partly set by the parser, completed by resolve_run
  // As given on the command line.
  std::string platform_file;  // empty: platforms/default.yaml of the data folder (data_files.h)
  std::vector<std::string> overrides;
  std::string ftl, report_path, out_dir = "results", pattern = "random", mode = "auto";
  std::string precondition = "fill", time_order = "clamp", jobs_file, csv_path, progress = "auto";
  bool no_vcd = false, quiet = false, no_verify = false, sort_by_time = false;
  std::uint32_t device = 0;
  std::uint64_t device_offset = 0;
  double window_start_s = 0, window_end_s = 0;
  CLI::App* cli = nullptr;  // the subcommand: which options were given
  // Resolved outputs.
  std::string fst_path;  // a waveform asked for as FST: traced to run.vcd_path, converted at the end
  bool csv_is_new = false;
};

CLI::App* add_run_command(CLI::App& app, RunCommand& command);

// Defaults (relative to the current directory for outputs, to the data folder for inputs), the
// platform with its overrides, the workload, and writable output paths. Throws CLI or loader
// errors for bad input, before anything is simulated.
void resolve_run(RunCommand& command);

// Report, waveform (FST conversion), CSV row and the summary on stdout.
void write_run_outputs(RunCommand& command, const RunOutcome& outcome);

}  // namespace ssd::platform
