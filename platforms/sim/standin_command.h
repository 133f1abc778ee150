// `ssdsim standin`: a long stand-in trace reconstructed from a short excerpt (the model and its
// sources: stimuli/trace_model.h), written as an MSR Cambridge CSV that `ssdsim run --trace`
// replays, with the excerpt's and the stand-in's statistics side by side.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "stimuli/trace_model.h"

namespace ssd::platform {

struct StandinCommand {
  std::string trace, trace_format = "auto", out, stats_json;
  bool skip_bad_lines = false, quiet = false;
  std::uint32_t device = 0;
  std::uint64_t device_offset = 0;
  stimuli::StandinSpec spec;
  CLI::App* cli = nullptr;
};

CLI::App* add_standin_command(CLI::App& app, StandinCommand& command);

// Learns the excerpt, writes the stand-in and its statistics. Throws CLI::ValidationError naming
// the option, WorkloadError naming the trace file, or ConfigError naming an output file.
void run_standin(StandinCommand& command);

}  // namespace ssd::platform
