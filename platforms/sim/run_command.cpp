#include "platforms/sim/run_command.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "common/host_addressing.h"
#include "platforms/config/job_file.h"
#include "platforms/report/report.h"
#include "platforms/sim/cli_checks.h"
#include "platforms/sim/data_files.h"
#include "platforms/sim/output_files.h"
#include "platforms/sim/waveform_view.h"
#include "tlm/time_base.h"

namespace ssd::platform {

namespace {

void add_trace_options(CLI::App* cmd, RunCommand& c) {
  RunOptions& run = c.run;
  cmd->add_option("-t,--trace", run.trace,
                  "trace to replay (default, when no --synthetic or --jobs: the bundled MSR hm_0 trace, "
                  "workloads/traces/hm_0.csv)");
  cmd->add_option("--trace-format", run.trace_format,
                  "trace format: auto (by name/content), msr, mqsim, disksim, blkparse, spc")
      ->check(CLI::IsMember({"auto", "msr", "mqsim", "disksim", "blkparse", "spc"}))
      ->capture_default_str();
  cmd->add_flag("--skip-bad-lines", run.skip_bad_lines,
                "skip (and count) malformed trace lines instead of stopping at the first");
  auto* time_order_option =
      cmd->add_option("--time-order", c.time_order,
                      "trace requests whose time goes backwards: clamp (replay at the previous arrival, with a "
                      "warning), sort (replay the trace in time order; bounded memory, spills to $TMPDIR), "
                      "refuse (stop at the first, naming file:line)")
          ->check(CLI::IsMember({"clamp", "sort", "refuse"}))
          ->capture_default_str();
  cmd->add_flag("--sort-by-time", c.sort_by_time, "same as --time-order sort")->excludes(time_order_option);
  auto* device_option =
      cmd->add_option("--device", c.device, "replay only this device of a multi-device trace")->check(kDecimal);
  cmd->add_option("--device-offset-bytes", c.device_offset,
                  "merge a multi-device trace's devices, device d's addresses shifted by d x this (multiple of 512)")
      ->check(kDecimal)
      ->excludes(device_option);
  cmd->add_option("--window-start-s", c.window_start_s, "replay the trace from this trace time on (seconds)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--window-end-s", c.window_end_s, "stop the replay at this trace time (seconds; 0 = the end)")
      ->check(CLI::NonNegativeNumber);
}

void add_synthetic_options(CLI::App* cmd, RunCommand& c) {
  RunOptions& run = c.run;
  cmd->add_option("--jobs", c.jobs_file, "fio-style job file (YAML; see platforms/config/job_file.h): several "
                                         "synthetic jobs at once, instead of a trace");
  cmd->add_option("--synthetic", c.pattern, "synthetic workload (implies no trace): random or sequential")
      ->check(CLI::IsMember({"random", "sequential"}));
  cmd->add_option("--read-fraction", run.synthetic.read_fraction, "synthetic: share of reads")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--request-bytes", run.synthetic.request_bytes, "synthetic: request size in bytes (multiple of 512)")
      ->check(kDecimal);
  cmd->add_option("--count", run.synthetic.count, "synthetic: number of requests")->check(kDecimal);
  cmd->add_option("--range-bytes", run.synthetic.range_bytes, "synthetic: addressed range (0 = whole drive)")
      ->check(kDecimal);
  cmd->add_option("--seed", run.synthetic.seed, "random seed of the synthetic workload and of random preconditioning")
      ->check(kDecimal);
  cmd->add_option("--issuers", run.synthetic.issuers,
                  "synthetic: request i comes from issuer i % N (for issuer-based FTL placement)")
      ->check(kDecimal & CLI::Range(1u, 1u << 20));
}

void add_replay_options(CLI::App* cmd, RunCommand& c) {
  RunOptions& run = c.run;
  cmd->add_option("--qd,--queue-depth", run.queue_depth,
                  "the host's queue depth: how many requests it keeps outstanding (closed loop: always this "
                  "many, default 16; open loop: at most this many, later arrivals wait in the host and count as "
                  "host_queue latency, default the drive's submission queue, host.queue_depth). The drive's "
                  "submission queue (host.queue_depth, a platform parameter) bounds it")
      ->check(kDecimal & CLI::Range(1u, 65536u));
  cmd->add_option("--queues", run.trace_queues,
                  "a trace or synthetic workload on this many NVMe I/O queues (flows): request -> queue issuer mod "
                  "N, each queue with the host's queue depth (job files name their queues: `queue` per job)")
      ->check(kDecimal & CLI::Range(1u, 4096u));
  cmd->add_option_function<std::vector<std::string>>(
         "--queue-priority",
         [&run](const std::vector<std::string>& names) {
           run.queue_priorities.clear();
           for (const std::string& n : names) {
             const auto p = parse_queue_priority(n);
             if (!p) throw CLI::ValidationError("--queue-priority", "'" + n + "' is not urgent, high, medium or low");
             run.queue_priorities.push_back(*p);
           }
         },
         "with --queues: each queue's class for weighted round robin (host.arbitration wrr), in queue order, "
         "e.g. urgent,low (the rest: medium)")
      ->delimiter(',');
  cmd->add_option_function<std::uint32_t>(
         "--only-queue", [&run](std::uint32_t q) { run.only_queue = q; },
         "replay only this queue's requests (the others left out, their queues idle): one flow alone")
      ->check(kDecimal);
  cmd->add_flag("--alone-runs", run.alone_runs,
                "after the run, replay each flow (I/O queue) alone on the same drive, one process each: every "
                "flow's slowdown (its mean latency with the others over alone) and the fairness (smallest "
                "slowdown over the largest), as MQSim defines them (report: host.flows, host.fairness)");
  cmd->add_option("--mode", c.mode, "replay: closed (keep QD outstanding), open (trace timestamps), auto (open for traces)")
      ->check(CLI::IsMember({"open", "closed", "auto"}))
      ->capture_default_str();
  cmd->add_option("--time-scale", run.time_scale, "open loop: multiply trace times (0.5 = twice as fast)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--repeat", run.repeat, "replay the trace or synthetic workload N times back to back")
      ->check(kDecimal & CLI::Range(1u, 1000000u));
  cmd->add_flag("--fold", run.fold_addresses, "fold requests beyond the drive into it (by whole pages, modulo the capacity)");
  cmd->add_option("--precondition", c.precondition,
                  "before measuring: none, fill (sequential), fill+random:X (then X capacities of random page "
                  "writes), fill+steady (the steady state of random page writes, preloaded where the FTL can, "
                  "then random writes until the WAF settles), fill+steady:fill (reached by a steady-state fill "
                  "instead of the preload) or fill+steady:run (random page writes from the sequential fill "
                  "until GC runs and the WAF settles); each ends with a flush of the mapping cache unless followed "
                  "by +no-flush (e.g. fill+no-flush)")
      ->capture_default_str();
  auto* at = cmd->add_option("--power-cut-at", run.power_cut_at_s,
                             "cut the power at this simulated time (seconds): programs and erases under way are cut "
                             "short, DRAM is lost, and the flash is audited for every durable write (report: power_cut)")
                 ->check(CLI::PositiveNumber);
  cmd->add_option("--power-cut-after", run.power_cut_after,
                  "cut the power when this many host requests have completed (see --power-cut-at)")
      ->check(kDecimal & CLI::Range(std::uint64_t(1), std::uint64_t(1) << 62))
      ->excludes(at);
  cmd->add_option_function<std::string>(
         "--after-recovery", [&run](const std::string& v) { run.continue_after_recovery = v == "continue"; },
         "after a power cut and the boot's recovery: stop (the run ends there), or continue (a new firmware "
         "mounts the recovered flash and the workload goes on from where it was; report: "
         "power_cut.after_recovery)")
      ->check(CLI::IsMember({"stop", "continue"}));
}

void add_output_options(CLI::App* cmd, RunCommand& c) {
  RunOptions& run = c.run;
  cmd->add_option("--out", c.out_dir, "folder for the outputs not given a path of their own (report.json, run.vcd), "
                                      "relative to the current directory")
      ->capture_default_str();
  cmd->add_option("-r,--report", c.report_path, "JSON report path (default: <out>/report.json)");
  cmd->add_option("--csv", c.csv_path, "append the run's headline figures as a CSV row (header if the file is new)");
  cmd->add_option("--firmware-jobs", run.firmware_job_log,
                  "core.model = iss: write one CSV line per firmware job (its cycles, and what the annotated model "
                  "would charge for it) to this file, for tools/calibrate.py");
  cmd->add_option("--vcd", run.vcd_path, "VCD waveform path (default: <out>/run.vcd; .fst for FST)");
  cmd->add_flag("--no-vcd", c.no_vcd, "do not write a waveform");
  cmd->add_option("--vcd-start-us", run.vcd_start_us, "waveform window start (simulated microseconds)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--vcd-end-us", run.vcd_end_us, "waveform window end (0 = until the end)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--vcd-signals", run.vcd_groups,
                  "waveform signal groups to keep, e.g. host,cores,channel0 (\"channel\" = all channels)")
      ->delimiter(',');
  cmd->add_flag("--no-verify", c.no_verify, "skip the end-of-run mapping/OOB check of the whole drive");
  cmd->add_flag("-q,--quiet", c.quiet, "print nothing but errors");
  cmd->add_option("--stall-seconds", run.stall_seconds,
                  "end the run with an error (exit code 3) naming where the simulation spins when no request "
                  "completes while the process spends this many seconds of CPU time (0: never)")
      ->check(CLI::Range(0.0, 1e9))
      ->capture_default_str();
  cmd->add_option("--progress", c.progress, "progress line on stderr: auto (unless --quiet, when stderr is a terminal), "
                                            "always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

// The workload: a trace (default: the bundled one), a synthetic pattern or a job file.
void resolve_workload(RunCommand& c) {
  RunOptions& run = c.run;
  const bool synthetic = c.cli->count("--synthetic") > 0, trace = c.cli->count("--trace") > 0;
  if (!trace && !synthetic && c.jobs_file.empty()) run.trace = data_file("workloads/traces/hm_0.csv");
  if (synthetic) {
    run.trace.clear();
    run.synthetic.pattern = c.pattern == "random" ? stimuli::SyntheticSpec::Pattern::Random
                                                  : stimuli::SyntheticSpec::Pattern::Sequential;
  }
  if (!c.jobs_file.empty()) {
    if (synthetic || trace) throw CLI::ValidationError("--jobs", "replaces --trace and --synthetic; give only one of them");
    run.jobs = load_job_file(c.jobs_file);
    run.trace.clear();
  }
  const bool jobs_have_rates = !run.jobs.empty() && run.jobs.front().rate_iops > 0;
  run.open_loop = c.mode == "open" || (c.mode == "auto" && (!run.trace.empty() || jobs_have_rates));
  // An open-loop replay's host keeps every arrived request outstanding that the drive's
  // submission queue takes (as the traced host's block layer would with an NVMe drive), so the
  // trace's own concurrency, not an arbitrary host limit, sets the drive's load; a closed loop's
  // depth is the workload's own choice (16 unless given).
  if (run.open_loop && c.cli->count("--qd") == 0) run.queue_depth = run.platform.host.queue_depth;
  if (c.sort_by_time) c.time_order = "sort";
  run.time_order = c.time_order == "sort"     ? stimuli::TimeOrder::Sort
                   : c.time_order == "refuse" ? stimuli::TimeOrder::Refuse
                                              : stimuli::TimeOrder::Clamp;
  if (c.cli->count("--device")) run.selection.device = c.device;
  if (c.device_offset % kSectorBytes != 0)
    throw CLI::ValidationError("--device-offset-bytes", "must be a multiple of 512, got " + std::to_string(c.device_offset));
  run.selection.device_offset_sectors = c.device_offset / kSectorBytes;
  run.selection.start_ns = static_cast<std::uint64_t>(c.window_start_s * 1e9);
  if (c.window_end_s > 0) {
    if (c.window_end_s <= c.window_start_s) throw CLI::ValidationError("--window-end-s", "must be after --window-start-s");
    run.selection.end_ns = static_cast<std::uint64_t>(c.window_end_s * 1e9);
  }
}

// Output paths checked writable now, so a long run never ends unable to write its results.
void resolve_outputs(RunCommand& c) {
  RunOptions& run = c.run;
  if (c.no_vcd) run.vcd_path.clear();
  check_writable(c.report_path, "report");
  if (!run.firmware_job_log.empty()) check_writable(run.firmware_job_log, "firmware job log");
  if (!run.vcd_path.empty()) {
    check_writable(run.vcd_path, "waveform");
    check_writable(view_path_for(run.vcd_path), "waveform view");
  }
  // A waveform path ending in .fst: trace to a VCD beside it, convert with vcd2fst afterwards.
  if (ends_with(run.vcd_path, ".fst")) {
    c.fst_path = run.vcd_path;
    run.vcd_path = c.fst_path + ".vcd";
  }
  c.csv_is_new = !c.csv_path.empty() && !std::filesystem::exists(c.csv_path);
  if (c.csv_is_new) check_writable(c.csv_path, "CSV");
}

}  // namespace

CLI::App* add_run_command(CLI::App& app, RunCommand& c) {
  CLI::App* cmd = app.add_subcommand("run", "simulate a workload on a platform and write the report");
  c.cli = cmd;
  cmd->add_option("-p,--platform", c.platform_file, "platform file (YAML; default: the shipped platforms/default.yaml)");
  cmd->add_option("--ftl", c.ftl, "FTL to run (overrides ftl.name; see `ssdsim ftls`)");
  cmd->add_option("--set", c.overrides, "override a parameter: key=value (e.g. channels=4, ftl.overprovisioning=0.1)");
  add_trace_options(cmd, c);
  add_synthetic_options(cmd, c);
  add_replay_options(cmd, c);
  add_output_options(cmd, c);
  return cmd;
}

void resolve_run(RunCommand& c) {
  RunOptions& run = c.run;
  if (c.platform_file.empty()) c.platform_file = data_file("platforms/default.yaml");
  if (c.report_path.empty()) c.report_path = (std::filesystem::path(c.out_dir) / "report.json").string();
  if (run.vcd_path.empty()) run.vcd_path = (std::filesystem::path(c.out_dir) / "run.vcd").string();
  if (!c.ftl.empty()) c.overrides.push_back("ftl.name=" + c.ftl);
  run.platform = load_platform(c.platform_file, c.overrides);
  for (const std::string& w : run.platform.warnings) std::cerr << "warning: " << w << "\n";
  resolve_workload(c);
  run.verify_mapping = !c.no_verify;
  run.progress = c.progress == "always" || (c.progress == "auto" && !c.quiet && isatty(STDERR_FILENO));
  try {
    run.precondition = fw::PreconditionSpec::parse(c.precondition);
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError("--precondition", e.what());
  }
  resolve_outputs(c);
}

void write_run_outputs(RunCommand& c, const RunOutcome& out) {
  RunOptions& run = c.run;
  if (run.progress) std::cerr << '\r' << std::string(79, ' ') << '\r' << std::flush;  // clear the progress line
  {
    std::ofstream f(c.report_path);
    if (!f) throw ConfigError("cannot write report file '" + c.report_path + "'");
    f << out.report.dump(2) << '\n';
  }
  if (!c.fst_path.empty()) {
    convert_to_fst(run.vcd_path, c.fst_path);
    run.vcd_path = c.fst_path;
  }
  std::string view;
  if (!run.vcd_path.empty()) {
    view = view_path_for(run.vcd_path);
    write_waveform_view({run.vcd_path, view, tlmx::seconds_to_time(run.vcd_start_us * 1e-6, "--vcd-start-us").value(),
                         out.waveform_signals, out.firmware_functions});
  }
  if (!c.csv_path.empty()) {
    std::ofstream f(c.csv_path, std::ios::app);
    if (!f) throw ConfigError("cannot write CSV file '" + c.csv_path + "'");
    f << (c.csv_is_new ? csv_header() : "") << csv_row(out.report);
  }
  if (!c.quiet) {
    std::cout << summary_text(out.report);
    std::cout << "  report: " << c.report_path
              << (run.vcd_path.empty() ? "" : ", waveform: " + run.vcd_path + " (gtkwave " + view + ")") << '\n';
  }
}

}  // namespace ssd::platform
