// ssdsim: the simulator's command line.
//
// Exit codes: 0 success; 1 integrity failure (a read returned the wrong data, or the mapping
// disagrees with the flash); 2 bad input (options, platform file, trace); 3 the model stopped
// on an internal error (e.g. a NAND rule violation by the firmware, a stall).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <iostream>
#include <cstdlib>
#include <systemc>

#include "fw/ftl/ftl_options.h"
#include "fw/ftl/registry.h"
#include "fw/hal/table_placer.h"
#include "platforms/config/job_file.h"
#include "platforms/config/parameter.h"
#include "platforms/config/platform_config.h"
#include "platforms/report/report.h"
#include "platforms/run/simulation.h"
#include "platforms/sim/data_files.h"
#include "stimuli/host_request.h"
#include "tlm/time_base.h"

namespace {

constexpr int kOk = 0, kIntegrity = 1, kBadInput = 2, kInternal = 3;

// Whole numbers in plain decimal: CLI11 would otherwise wrap "-5" around and read "010" as octal.
const CLI::Validator kDecimal(
    [](std::string& s) -> std::string {
      const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
      if (!digits || (s.size() > 1 && s[0] == '0')) return "expected a whole decimal number, got '" + s + "'";
      return "";
    },
    "DECIMAL");

// Errors in what the user gave us (options, platform file, trace, sizes) as opposed to the model
// stopping on an internal error.
bool is_bad_input(const std::exception& e) {
  return dynamic_cast<const CLI::ValidationError*>(&e) || dynamic_cast<const ssd::platform::ConfigError*>(&e) ||
         dynamic_cast<const ssd::fw::FtlOptionError*>(&e) || dynamic_cast<const ssd::fw::ResourceError*>(&e) ||
         dynamic_cast<const ssd::stimuli::WorkloadError*>(&e);
}

// Creates the parent folder and checks that `path` can be written, before any simulation.
void check_writable(const std::string& path, const char* what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  const bool existed = fs::exists(path, ec);
  bool ok = !ec && static_cast<bool>(std::ofstream(path, std::ios::app));
  if (ok && !existed) fs::remove(path, ec);  // leave no empty file behind if the run fails
  if (!ok) throw ssd::platform::ConfigError(std::string("cannot write ") + what + " file '" + path + "'");
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Converts a VCD to FST with GTKWave's vcd2fst and removes the VCD; throws on failure.
void convert_to_fst(const std::string& vcd, const std::string& fst) {
  pid_t pid = 0;
  std::vector<std::string> args{"vcd2fst", vcd, fst};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (posix_spawnp(&pid, "vcd2fst", nullptr, nullptr, argv.data(), environ) != 0)
    throw ssd::platform::ConfigError("cannot run vcd2fst to write '" + fst + "' (Debian package gtkwave; the VCD is at '" +
                                vcd + "')");
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw ssd::platform::ConfigError("vcd2fst failed to convert '" + vcd + "' to '" + fst + "'");
  std::filesystem::remove(vcd);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  using namespace ssd;
  tlmx::init_time_base();
  CLI::App app{"ssdsim: SystemC/TLM-2.0 co-simulation of an SSD (NAND, channels, controller, firmware, host)"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every subcommand");

  // run
  platform::RunOptions run;
  std::string platform_file;  // empty: platforms/default.yaml of the data folder (platforms/sim/data_files.h)
  std::vector<std::string> overrides;
  std::string ftl, report_path, out_dir = "results", pattern = "random", mode = "auto";
  std::string precondition = "fill";
  bool no_vcd = false, quiet = false, no_verify = false;
  auto* cmd_run = app.add_subcommand("run", "simulate a workload on a platform and write the report");
  cmd_run->add_option("-p,--platform", platform_file, "platform file (YAML; default: the shipped platforms/default.yaml)");
  cmd_run->add_option("--ftl", ftl, "FTL to run (overrides ftl.name; see `ssdsim ftls`)");
  cmd_run->add_option("--set", overrides, "override a parameter: key=value (e.g. channels=4, ftl.overprovisioning=0.1)");
  cmd_run->add_option("-t,--trace", run.trace,
                      "trace to replay (default, when no --synthetic or --jobs: the bundled MSR hm_0 trace, "
                      "workloads/traces/hm_0.csv)");
  cmd_run->add_option("--trace-format", run.trace_format,
                      "trace format: auto (by name/content), msr, mqsim, disksim, blkparse, spc")
      ->check(CLI::IsMember({"auto", "msr", "mqsim", "disksim", "blkparse", "spc"}))
      ->capture_default_str();
  cmd_run->add_flag("--skip-bad-lines", run.skip_bad_lines,
                    "skip (and count) malformed trace lines instead of stopping at the first");
  std::string time_order = "clamp";
  auto* time_order_option =
      cmd_run->add_option("--time-order", time_order,
                          "trace requests whose time goes backwards: clamp (replay at the previous arrival, with a "
                          "warning), sort (replay the trace in time order; bounded memory, spills to $TMPDIR), "
                          "refuse (stop at the first, naming file:line)")
          ->check(CLI::IsMember({"clamp", "sort", "refuse"}))
          ->capture_default_str();
  bool sort_by_time = false;
  cmd_run->add_flag("--sort-by-time", sort_by_time, "same as --time-order sort")->excludes(time_order_option);
  std::uint32_t device = 0;
  auto* device_option = cmd_run->add_option("--device", device, "replay only this device of a multi-device trace")
                            ->check(kDecimal);
  std::uint64_t device_offset = 0;
  cmd_run->add_option("--device-offset-bytes", device_offset,
                      "merge a multi-device trace's devices, device d's addresses shifted by d x this (multiple of 512)")
      ->check(kDecimal)
      ->excludes(device_option);
  double window_start_s = 0, window_end_s = 0;
  cmd_run->add_option("--window-start-s", window_start_s, "replay the trace from this trace time on (seconds)")
      ->check(CLI::NonNegativeNumber);
  cmd_run->add_option("--window-end-s", window_end_s, "stop the replay at this trace time (seconds; 0 = the end)")
      ->check(CLI::NonNegativeNumber);
  std::string jobs_file;
  cmd_run->add_option("--jobs", jobs_file, "fio-style job file (YAML; see platforms/config/job_file.h): several "
                                           "synthetic jobs at once, instead of a trace");
  cmd_run->add_option("--synthetic", pattern, "synthetic workload (implies no trace): random or sequential")
      ->check(CLI::IsMember({"random", "sequential"}));
  cmd_run->add_option("--read-fraction", run.synthetic.read_fraction, "synthetic: share of reads")->check(CLI::Range(0.0, 1.0));
  cmd_run->add_option("--request-bytes", run.synthetic.request_bytes, "synthetic: request size in bytes (multiple of 512)")->check(kDecimal);
  cmd_run->add_option("--count", run.synthetic.count, "synthetic: number of requests")->check(kDecimal);
  cmd_run->add_option("--range-bytes", run.synthetic.range_bytes, "synthetic: addressed range (0 = whole drive)")->check(kDecimal);
  cmd_run->add_option("--seed", run.synthetic.seed, "random seed of the synthetic workload and of random preconditioning")
      ->check(kDecimal);
  cmd_run->add_option("--issuers", run.synthetic.issuers,
                      "synthetic: request i comes from issuer i % N (for issuer-based FTL placement)")
      ->check(kDecimal & CLI::Range(1u, 1u << 20));
  cmd_run->add_option("--qd,--queue-depth", run.queue_depth, "host queue depth")
      ->check(kDecimal & CLI::Range(1u, 65536u))
      ->capture_default_str();
  cmd_run->add_option("--mode", mode,
                      "replay: closed (keep QD outstanding), open (trace timestamps), auto (open for traces)")
      ->check(CLI::IsMember({"open", "closed", "auto"}))->capture_default_str();
  cmd_run->add_option("--time-scale", run.time_scale, "open loop: multiply trace times (0.5 = twice as fast)")
      ->check(CLI::PositiveNumber);
  cmd_run->add_option("--repeat", run.repeat, "replay the trace or synthetic workload N times back to back")
      ->check(kDecimal & CLI::Range(1u, 1000000u));
  cmd_run->add_flag("--fold", run.fold_addresses, "fold requests beyond the drive into it (by whole pages, modulo the capacity)");
  cmd_run->add_option("--precondition", precondition,
                      "before measuring: none, fill (sequential), fill+random:X (then X capacities of random page "
                      "writes), fill+steady (the steady state of random page writes, preloaded where the FTL can, "
                      "then random writes until the WAF settles), fill+steady:fill (reached by a steady-state fill "
                      "instead of the preload) or fill+steady:run (random page writes from the sequential fill "
                      "until GC runs and the WAF settles)")
      ->capture_default_str();
  cmd_run->add_option("--out", out_dir, "folder for the outputs not given a path of their own (report.json, run.vcd), "
                                       "relative to the current directory")
      ->capture_default_str();
  cmd_run->add_option("-r,--report", report_path, "JSON report path (default: <out>/report.json)");
  std::string csv_path;
  cmd_run->add_option("--csv", csv_path, "append the run's headline figures as a CSV row (header if the file is new)");
  cmd_run->add_option("--vcd", run.vcd_path, "VCD waveform path (default: <out>/run.vcd; .fst for FST)");
  cmd_run->add_flag("--no-vcd", no_vcd, "do not write a waveform");
  cmd_run->add_option("--vcd-start-us", run.vcd_start_us, "waveform window start (simulated microseconds)")
      ->check(CLI::NonNegativeNumber);
  cmd_run->add_option("--vcd-end-us", run.vcd_end_us, "waveform window end (0 = until the end)")
      ->check(CLI::NonNegativeNumber);
  cmd_run->add_option("--vcd-signals", run.vcd_groups,
                      "waveform signal groups to keep, e.g. host,cores,channel0 (\"channel\" = all channels)")
      ->delimiter(',');
  cmd_run->add_flag("--no-verify", no_verify, "skip the end-of-run mapping/OOB check of the whole drive");
  cmd_run->add_flag("-q,--quiet", quiet, "print nothing but errors");
  std::string progress = "auto";
  cmd_run->add_option("--progress", progress, "progress line on stderr: auto (unless --quiet, when stderr is a terminal), "
                                              "always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();

  // ftls, validate, params
  auto* cmd_ftls = app.add_subcommand("ftls", "list the FTLs the firmware can run");
  std::string validate_file = platform_file;
  std::vector<std::string> validate_overrides;
  auto* cmd_validate = app.add_subcommand("validate", "check a platform file and print its effective parameters");
  cmd_validate->add_option("platform", validate_file, "platform file (YAML)")->required();
  cmd_validate->add_option("--set", validate_overrides, "override a parameter: key=value");
  auto* cmd_params = app.add_subcommand("params", "list every platform parameter with its type, unit, range and default");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kOk : kBadInput;
  }

  try {
    if (*cmd_ftls) {  // with each FTL's parameters and their defaults on the default platform
      const FlashGeometry g = platform::load_platform(platform::data_file("platforms/default.yaml")).geometry;
      for (const auto& f : fw::ftl_registry()) {
        std::cout << fmt::format("{:16} {}\n", f.name, f.description);
        fw::FtlOptions defaults;
        f.check(defaults, g);
        for (const auto& [key, value] : defaults.effective())
          std::cout << fmt::format("  ftl.{:28} default {:8} {}\n", key, value, defaults.descriptions().at(key));
      }
      return kOk;
    }
    if (*cmd_params) {
      // key, type, unit ("-": none), range, "default" value, meaning: one parameter a line.
      for (const auto& p : platform::platform_parameters())
        std::cout << fmt::format("{:34} {:8} {:5} {:28} default {:12} {}\n", p.key, p.type_name(),
                                 p.unit.empty() ? "-" : p.unit, p.range_text(),
                                 p.fallback.is_string() ? p.fallback.get<std::string>() : p.fallback.dump(), p.help);
      std::cout << fmt::format("{:34} {:8} {:5} {:28} default {:12} {}\n", "ftl.<parameter>", "ftl", "-",
                               "see `ssdsim ftls`", "-", "parameters of the chosen FTL");
      return kOk;
    }
    if (*cmd_validate) {
      platform::PlatformConfig c = platform::load_platform(validate_file, validate_overrides);
      std::cout << fmt::format("{}: valid platform '{}' ({} MiB raw, {} dies)\n", validate_file, c.name,
                               c.geometry.capacity_bytes() >> 20, c.geometry.total_dies());
      for (const auto& [k, v] : c.effective.items())
        std::cout << fmt::format("  {} = {}\n", k, v.is_string() ? v.get<std::string>() : v.dump());
      return kOk;
    }
    // run
    // Defaults resolved now, relative to the current directory (outputs) or the data folder.
    if (platform_file.empty()) platform_file = platform::data_file("platforms/default.yaml");
    if (!cmd_run->count("--trace") && !cmd_run->count("--synthetic") && jobs_file.empty())
      run.trace = platform::data_file("workloads/traces/hm_0.csv");
    if (report_path.empty()) report_path = (std::filesystem::path(out_dir) / "report.json").string();
    if (run.vcd_path.empty()) run.vcd_path = (std::filesystem::path(out_dir) / "run.vcd").string();
    if (!ftl.empty()) overrides.push_back("ftl.name=" + ftl);
    run.platform = platform::load_platform(platform_file, overrides);
    if (cmd_run->count("--synthetic")) {
      run.trace.clear();
      run.synthetic.pattern = pattern == "random" ? stimuli::SyntheticSpec::Pattern::Random
                                                  : stimuli::SyntheticSpec::Pattern::Sequential;
    }
    if (!jobs_file.empty()) {
      if (cmd_run->count("--synthetic") || cmd_run->count("--trace"))
        throw CLI::ValidationError("--jobs", "replaces --trace and --synthetic; give only one of them");
      run.jobs = platform::load_job_file(jobs_file);
      run.trace.clear();
    }
    const bool jobs_have_rates = !run.jobs.empty() && run.jobs.front().rate_iops > 0;
    run.open_loop = mode == "open" || (mode == "auto" && (!run.trace.empty() || jobs_have_rates));
    if (sort_by_time) time_order = "sort";
    run.time_order = time_order == "sort"     ? stimuli::TimeOrder::Sort
                     : time_order == "refuse" ? stimuli::TimeOrder::Refuse
                                              : stimuli::TimeOrder::Clamp;
    if (cmd_run->count("--device")) run.selection.device = device;
    if (device_offset % kSectorBytes != 0)
      throw CLI::ValidationError("--device-offset-bytes", "must be a multiple of 512, got " + std::to_string(device_offset));
    run.selection.device_offset_sectors = device_offset / kSectorBytes;
    run.selection.start_ns = static_cast<std::uint64_t>(window_start_s * 1e9);
    if (window_end_s > 0) {
      if (window_end_s <= window_start_s)
        throw CLI::ValidationError("--window-end-s", "must be after --window-start-s");
      run.selection.end_ns = static_cast<std::uint64_t>(window_end_s * 1e9);
    }
    if (no_vcd) run.vcd_path.clear();
    run.verify_mapping = !no_verify;
    run.progress = progress == "always" || (progress == "auto" && !quiet && isatty(STDERR_FILENO));
    try {
      run.precondition = fw::PreconditionSpec::parse(precondition);
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError("--precondition", e.what());
    }
    check_writable(report_path, "report");
    if (!run.vcd_path.empty()) check_writable(run.vcd_path, "waveform");
    // A waveform path ending in .fst: trace to a VCD beside it, convert with vcd2fst afterwards.
    std::string fst_path;
    if (ends_with(run.vcd_path, ".fst")) {
      fst_path = run.vcd_path;
      run.vcd_path = fst_path + ".vcd";
    }
    const bool csv_is_new = !csv_path.empty() && !std::filesystem::exists(csv_path);
    if (!csv_path.empty() && csv_is_new) check_writable(csv_path, "CSV");
    platform::RunOutcome out = platform::run_simulation(run);
    if (run.progress) std::cerr << '\r' << std::string(79, ' ') << '\r' << std::flush;  // clear the progress line
    {
      std::ofstream f(report_path);
      if (!f) throw platform::ConfigError("cannot write report file '" + report_path + "'");
      f << out.report.dump(2) << '\n';
    }
    if (!fst_path.empty()) {
      convert_to_fst(run.vcd_path, fst_path);
      run.vcd_path = fst_path;
    }
    if (!csv_path.empty()) {
      std::ofstream f(csv_path, std::ios::app);
      if (!f) throw platform::ConfigError("cannot write CSV file '" + csv_path + "'");
      f << (csv_is_new ? platform::csv_header() : "") << platform::csv_row(out.report);
    }
    if (!quiet) {
      std::cout << platform::summary_text(out.report);
      std::cout << "  report: " << report_path << (run.vcd_path.empty() ? "" : ", waveform: " + run.vcd_path) << '\n';
    }
    if (!out.integrity_ok) {
      std::cerr << "ssdsim: INTEGRITY FAILURE: " << out.report["integrity"].dump() << '\n';
      return kIntegrity;
    }
    return kOk;
  } catch (const std::exception& e) {
    if (is_bad_input(e)) {
      std::cerr << "ssdsim: " << e.what() << '\n';
      return kBadInput;
    }
    std::cerr << "ssdsim: simulation stopped: " << e.what() << '\n';
    return kInternal;
  }
}

// SystemC prints its banner before sc_main runs; keep stdout for the summary and the reports.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  // A workload error ends the run through sc_stop(); its notice is noise next to our message.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  return sc_core::sc_elab_and_sim(argc, argv);
}
