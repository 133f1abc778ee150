// One simulation run: elaborate the platform, optionally precondition the drive functionally,
// replay the workload in the timed model with the integrity oracle, check the mapping against
// the flash, and build the report. SystemC allows one elaboration per process: call once.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "platforms/config/platform_config.h"
#include "fw/precondition/precondition_spec.h"
#include "stimuli/job_workload.h"
#include "stimuli/synthetic_workload.h"
#include "stimuli/text_trace.h"
#include "stimuli/trace_selection.h"
#include "tlm/vcd_tracer.h"

namespace ssd::platform {

struct RunOptions {
  PlatformConfig platform;
  std::string trace;                  // trace file; empty: the synthetic workload
  std::string trace_format = "auto";  // see stimuli/open_trace.h
  bool skip_bad_lines = false;        // skip (and count) malformed trace lines instead of stopping
  stimuli::TimeOrder time_order = stimuli::TimeOrder::Clamp;  // trace times going backwards
  stimuli::TraceSelectionSpec selection;  // device filter/merge and time window of a trace
  std::vector<stimuli::JobSpec> jobs;     // fio-style jobs (when not empty: instead of trace/synthetic)
  std::uint32_t repeat = 1;           // replay the workload this many times back to back
  stimuli::SyntheticSpec synthetic;   // range_bytes 0 = the whole drive
  std::uint32_t queue_depth = 16;     // per I/O queue
  // NVMe I/O queues (flows) for a trace or synthetic workload: request -> queue issuer mod
  // trace_queues (0: one queue; job files name their own), each of queue_depth, with these classes.
  std::uint32_t trace_queues = 0;
  std::vector<QueuePriority> queue_priorities;
  // Run one queue's requests alone, the others left out (the alone runs of --alone-runs).
  std::optional<std::uint32_t> only_queue;
  // After the run, each flow again alone on the same drive (one process each, same seeds): each
  // flow's slowdown and the fairness between flows (MQSim's definitions; host.flows, host.fairness).
  bool alone_runs = false;
  bool open_loop = false;
  double time_scale = 1.0;
  bool fold_addresses = false;
  fw::PreconditionSpec precondition;      // seed: set from the synthetic seed when run
  std::string vcd_path;               // empty: no waveform
  double vcd_start_us = 0, vcd_end_us = 0;
  std::vector<std::string> vcd_groups;  // signal groups to keep (empty: all), see tlm/vcd_tracer.h
  bool verify_mapping = true;         // compare the FTL's mapping with every page's OOB at the end
  bool progress = false;              // a progress line on stderr while the simulation runs
  double stall_seconds = 300;         // no completion for this long (wall): the run stalled (0: never)
  std::string firmware_job_log;       // core.model = iss: one CSV line per firmware job (tools/calibrate.py)
  // A power cut (platforms/report/power_cut_section.h): at a simulated time (seconds; 0: none),
  // or once this many requests completed (0: none). The run ends at the cut.
  double power_cut_at_s = 0;
  std::uint64_t power_cut_after = 0;
  bool power_cut() const { return power_cut_at_s > 0 || power_cut_after > 0; }
  // After the cut and the boot, a new firmware mounts the flash and the workload goes on from where
  // it was (--after-recovery continue; report: power_cut.after_recovery).
  bool continue_after_recovery = false;
};

struct RunOutcome {
  nlohmann::json report;
  bool integrity_ok = true;
  std::vector<tlmx::VcdTracer::SignalInfo> waveform_signals;  // what the waveform holds (for its view)
  std::vector<std::string> firmware_functions;  // core.model = iss: the image's functions by index (the view's filter)
};

class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

RunOutcome run_simulation(const RunOptions& options);

}  // namespace ssd::platform
