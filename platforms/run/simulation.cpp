#include "platforms/run/simulation.h"

#include "platforms/run/liveness_guard.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <sstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <systemc>

#include "platforms/functional/functional_drive.h"
#include "platforms/report/report.h"
#include "platforms/report/report_invariants.h"
#include "platforms/run/drive_testbench.h"
#include "platforms/run/power_waveform.h"
#include "platforms/run/utilization_waveform.h"
#include "stimuli/open_trace.h"
#include "stimuli/queue_assignment.h"
#include "stimuli/repeated_workload.h"
#include "tlm/time_base.h"

namespace ssd::platform {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The whole process so far: wall seconds since it started (Linux: its start time in
// /proc/self/stat against the boot clock, 10 ms resolution; elsewhere 0) and CPU seconds.
double process_wall_seconds() {
  std::ifstream stat("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));  // from field 3 on
  std::string skipped;
  for (int field = 3; field < 22; ++field) fields >> skipped;
  double start_ticks = 0;  // field 22: the start time, clock ticks since boot
  if (!(fields >> start_ticks)) return 0;
  timespec boot{};
  clock_gettime(CLOCK_BOOTTIME, &boot);
  return double(boot.tv_sec) + double(boot.tv_nsec) * 1e-9 - start_ticks / double(sysconf(_SC_CLK_TCK));
}

double rusage_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// Prints "simulated T s, N requests (R/s), P% read, ETA" on one stderr line: at the first call,
// then at most twice a second of wall time; the share read comes from the workload (synthetic and
// job counts, or the bytes of a trace file read so far).
std::function<void(std::uint64_t, double, double)> progress_printer() {
  auto start = std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
  auto last = std::make_shared<double>(-1.0);  // the first call prints
  return [start, last](std::uint64_t done, double simulated_s, double fraction) {
    const double wall = seconds_since(*start);
    if (*last >= 0 && wall - *last < 0.5) return;
    *last = wall;
    std::string line = fmt::format("\r  simulated {:.3f} s, {} requests ({:.0f}/s)", simulated_s, done, done / wall);
    if (fraction > 0 && fraction < 1)
      line += fmt::format(", {:.0f}% read, ETA {:.0f} s", 100 * fraction, wall * (1 - fraction) / fraction);
    std::cerr << line << "   " << std::flush;
  };
}

// The waveform, when one was asked for (its window from the options).
std::unique_ptr<tlmx::VcdTracer> open_waveform(const RunOptions& o) {
  if (o.vcd_path.empty()) return nullptr;
  return std::make_unique<tlmx::VcdTracer>(o.vcd_path,
                                           tlmx::seconds_to_time(o.vcd_start_us * 1e-6, "--vcd-start-us").value(),
                                           tlmx::seconds_to_time(o.vcd_end_us * 1e-6, "--vcd-end-us").value(),
                                           o.vcd_groups);
}

// Opens the workload for a drive of `capacity` sectors: jobs, a trace (selected), or synthetic;
// repeated when asked. Called again for each pass and for the admission pre-pass.
WorkloadFactory workload_factory(const RunOptions& o) {
  return [&o](std::uint64_t capacity) -> std::unique_ptr<stimuli::Workload> {
    auto source = [&o, capacity]() -> std::unique_ptr<stimuli::Workload> {
      if (!o.jobs.empty()) {
        auto jobs = std::make_unique<stimuli::JobWorkload>(o.jobs, capacity * kSectorBytes);
        if (o.only_queue) jobs->keep_only_queue(*o.only_queue);
        return jobs;
      }
      if (!o.trace.empty()) {
        auto trace = stimuli::open_trace(o.trace, o.trace_format,
                                         o.skip_bad_lines ? stimuli::MalformedLines::Skip : stimuli::MalformedLines::Stop,
                                         o.time_order);
        if (!o.selection.selects_anything()) return trace;
        return std::make_unique<stimuli::TraceSelection>(std::move(trace), o.selection);
      }
      stimuli::SyntheticSpec s = o.synthetic;
      if (s.range_bytes == 0) s.range_bytes = capacity * kSectorBytes - s.range_start_bytes;
      return std::make_unique<stimuli::SyntheticWorkload>(s);
    };
    // A trace's or synthetic stream's issuers on queues, and one queue alone.
    auto open = [&o, source]() -> std::unique_ptr<stimuli::Workload> {
      std::unique_ptr<stimuli::Workload> w = source();
      if (o.trace_queues > 0) w = std::make_unique<stimuli::IssuerQueues>(std::move(w), o.trace_queues, o.queue_priorities);
      if (o.only_queue && o.jobs.empty()) w = std::make_unique<stimuli::OnlyQueue>(std::move(w), *o.only_queue);
      return w;
    };
    if (o.repeat == 1) return open();
    return std::make_unique<stimuli::RepeatedWorkload>(open, o.repeat);
  };
}

// One timed run per process (SystemC elaborates once), so one guard.
LivenessGuard& liveness() {
  static LivenessGuard guard;
  return guard;
}

stimuli::HostModelConfig host_config(const RunOptions& o) {
  stimuli::HostModelConfig hc;
  hc.queue_depth = o.queue_depth;
  hc.admission.open_loop = o.open_loop;
  hc.admission.time_scale = o.time_scale;
  hc.admission.fold_addresses = o.fold_addresses;
  if (o.progress) hc.progress = progress_printer();
  hc.track_durability = o.power_cut();
  hc.volatile_write_cache =
      o.platform.firmware.write_buffer.policy != fw::WriteBufferPolicy::kOff && !o.platform.firmware.plp;
  hc.stop_after = o.power_cut_after;
  hc.heartbeat = [](std::uint64_t completed, double simulated_s) { liveness().beat(completed, simulated_s); };
  return hc;
}

void precondition(const RunOptions& o, DriveTestbench& bench, RunFacts& facts) {
  const auto t0 = std::chrono::steady_clock::now();
  fw::PreconditionSpec pre = o.precondition;
  pre.seed = o.synthetic.seed + 1000;
  facts.precondition = bench.precondition(pre);
  facts.precondition_wall_seconds = seconds_since(t0);
}

// Runs the timed simulation to its end. Throws when the workload turned out bad, when time
// reached the time base's limit, or when the run stalled. Returns when the drive went idle.
sc_core::sc_time simulate(DriveTestbench& bench, RunFacts& facts, double stall_seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  // A run that stops making progress ends with an error naming where the kernel is, instead of
  // hanging (platforms/run/liveness_guard.h).
  liveness().arm(stall_seconds, {}, [] {
    const sc_core::sc_process_b* p = sc_core::sc_get_curr_simcontext()->get_curr_proc_info()->process_handle;
    return p ? std::string("process ") + p->name() : std::string("no process (between delta cycles)");
  });
  struct Disarm {  // also when sc_start throws (a model error): the watch ends with the simulation
    ~Disarm() { liveness().disarm(); }
  } disarm;
  // Bounded by the time base's limit: a run whose time runs away stops there instead of
  // saturating the kernel's clock (without the bound, starvation still ends the run).
  sc_core::sc_start(tlmx::max_simulated_time(), sc_core::SC_EXIT_ON_STARVATION);
  facts.wall_seconds = seconds_since(t0);
  stimuli::HostModel& host = bench.host();
  if (!host.workload_error().empty()) throw stimuli::WorkloadError(host.workload_error());
  if (sc_core::sc_time_stamp() >= tlmx::max_simulated_time())
    throw RunError("simulated time reached the simulator's limit of " + tlmx::describe_limit() + " with " +
                   std::to_string(host.completed()) + " requests completed: the run cannot be simulated faithfully");
  if (!host.finished()) {
    const std::string held = bench.top().unfinished_work();
    throw RunError("simulation stalled at " + sc_core::sc_time_stamp().to_string() + " with " +
                   std::to_string(host.completed()) + " requests completed: nothing left to happen (" +
                   (held.empty() ? "firmware deadlock?" : "a deadlock or a lost wake-up: " + held) + ")");
  }
  const sc_core::sc_time idle = bench.top().finalize(sc_core::sc_time_stamp());
  // The host saw every request complete, but acknowledged writes may still be on their way:
  // with nothing left to happen, the firmware must have finished them.
  const std::string unfinished = bench.top().unfinished_work();
  if (!unfinished.empty())
    throw RunError("simulation stalled at " + sc_core::sc_time_stamp().to_string() +
                   " with work unfinished (nothing left to happen: a deadlock or a lost wake-up): " + unfinished);
  return idle;
}

// Every readable data page on the flash (its OOB's logical page below the drive's), for the
// durability audit; returns the pages a power cut left unreadable.
std::uint64_t scan_flash(const hw::NandArray& array, Lpn logical_pages, const stimuli::DurabilityTracker::PageVisitor& visit) {
  const FlashGeometry& g = array.geometry();
  std::uint64_t unreadable = 0;
  for (BlockId b = 0; b < g.total_blocks(); ++b)
    for (std::uint32_t p = 0; p < g.pages_per_block; ++p) {
      const Ppn ppn = g.first_page(b) + p;
      if (!array.is_programmed(ppn)) continue;
      const hw::PageContent c = array.read(ppn);
      if (c.lpn == hw::kUnreadableLpn)
        ++unreadable;
      else if (c.lpn < logical_pages)
        visit(c.lpn, c.token);
    }
  return unreadable;
}

// The mapping rebuilt from the OOB of every programmed page, read straight from the array (the
// reference the timed boot's own scan must match).
fw::OobRecovery recover_from_flash(const hw::NandArray& array, Lpn logical) {
  fw::OobRecovery recovery(logical);
  for (Ppn ppn = 0; ppn < array.geometry().total_pages(); ++ppn)
    if (array.is_programmed(ppn)) {
      const hw::PageContent c = array.read(ppn);
      recovery.visit(ppn, c.lpn, c.token, array.version(ppn));
    }
  return recovery;
}

// Runs the timed simulation until the power cut (--power-cut-at / --power-cut-after, or the
// workload's end if it comes first), cuts the power and audits the flash. Returns the cut's time;
// `reference` gets the mapping rebuilt straight from the array as the cut left it.
sc_core::sc_time simulate_until_cut(const RunOptions& o, DriveTestbench& bench, RunFacts& facts,
                                    std::optional<fw::OobRecovery>& reference) {
  const auto t0 = std::chrono::steady_clock::now();
  liveness().arm(o.stall_seconds, {}, [] { return std::string("the run up to the power cut"); });
  struct Disarm {
    ~Disarm() { liveness().disarm(); }
  } disarm;
  const sc_core::sc_time limit =
      o.power_cut_at_s > 0 ? tlmx::seconds_to_time(o.power_cut_at_s, "--power-cut-at") : tlmx::max_simulated_time();
  // At a time: the clock runs up to it even when nothing happens in between.
  sc_core::sc_start(limit, o.power_cut_at_s > 0 ? sc_core::SC_RUN_TO_TIME : sc_core::SC_EXIT_ON_STARVATION);
  facts.wall_seconds = seconds_since(t0);
  stimuli::HostModel& host = bench.host();
  if (!host.workload_error().empty()) throw stimuli::WorkloadError(host.workload_error());
  PowerCutFacts cut;
  cut.at_s = sc_core::sc_time_stamp().to_seconds();
  cut.workload_ended = host.finished();
  cut.requests_completed = host.completed();
  cut.requests_in_flight = host.outstanding();
  cut.volatile_write_cache = o.platform.firmware.write_buffer.policy != fw::WriteBufferPolicy::kOff && !o.platform.firmware.plp;
  host.power_off();
  if (o.platform.firmware.plp) {  // the capacitors' hold-up: the firmware saves what it can
    cut.plp_hold_up_us = o.platform.firmware.plp_hold_up_us;
    bench.top().begin_power_loss();
    sc_core::sc_start(sc_core::sc_time(cut.plp_hold_up_us, sc_core::SC_US), sc_core::SC_RUN_TO_TIME);
    const MetricSet& fw = *bench.metrics().sets().at("firmware");
    const auto counter = [&bench](const char* set, const char* name) { return bench.metrics().counter_or_zero(set, name); };
    cut.plp_destage = o.platform.firmware.plp_destage == fw::FirmwareConfig::PlpDestage::Dump ? "dump" : "ftl";
    cut.plp_pages_evicted = counter("firmware", "plp_pages_evicted");
    cut.plp_pages_dumped = counter("firmware", "plp_pages_dumped");
    cut.plp_ftl_work_stopped = counter("firmware.ops", "parked_for_power_loss");
    // (Counted when the firmware took the signal: a host write fetched before it may still land.)
    cut.buffered_pages_at_cut = std::uint64_t(fw.gauge_or_zero("plp_buffered_pages"));
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  bench.top().power_cut(now, cut);
  const Lpn logical = bench.top().logical_pages();
  const hw::NandArray& array = bench.array();
  const fw::OobRecovery& recovery = reference.emplace(recover_from_flash(array, logical));
  cut.recovery = recovery.counts();
  cut.audit = host.durability()->audit(
      [&](const stimuli::DurabilityTracker::PageVisitor& visit) { return scan_flash(array, logical, visit); },
      [&](Lpn lpn) { return recovery.token_of(lpn); });
  facts.power_cut = cut;
  const sc_core::sc_time end = bench.top().finalize(now);
  for (const auto& [name, set] : bench.metrics().sets()) set->truncate_busy(now.value());  // booked ahead: never done
  return end;
}

// Runs the kernel until a job of the firmware's sets `over` (and pauses it), the liveness guard
// watching; running out of events first is `phase`'s deadlock.
void run_until_over(const bool& over, const std::string& phase, double stall_seconds) {
  liveness().arm(stall_seconds, {}, [phase] { return phase; });
  struct Disarm {
    ~Disarm() { liveness().disarm(); }
  } disarm;
  sc_core::sc_start();
  if (!over) throw std::logic_error(phase + " ran out of events before it ended");
}

// After the cut, with the run's statistics read: the drive is powered off and boots, and its
// recovery firmware rebuilds the mapping through the timed model (fw/recovery/boot_recovery.h).
// Its map must be `reference`'s, page for page (the report's power_cut.boot.map_differences).
BootFacts boot_after_cut(const RunOptions& o, DriveTestbench& bench, const fw::OobRecovery& reference) {
  SsdTop& top = bench.top();
  const sc_core::sc_time power_on = sc_core::sc_time_stamp();
  top.power_off(power_on);
  bool over = false;
  const fw::BootRecovery& boot =
      top.boot_recovery(o.platform.firmware.costs, !o.platform.sequential_program, [&over] {
        over = true;
        sc_core::sc_pause();
      });
  run_until_over(over, "the boot after the power cut", o.stall_seconds);
  BootFacts f;
  f.counts = boot.counts();
  f.recovery = boot.recovery().counts();
  f.checkpoints = o.platform.firmware.checkpoint_interval_bytes > 0;
  const Lpn logical = top.logical_pages();
  for (Lpn lpn = 0; lpn < logical; ++lpn)
    f.map_differences += boot.recovery().ppn_of(lpn) != reference.ppn_of(lpn) ||
                         boot.recovery().token_of(lpn) != reference.token_of(lpn);
  return f;
}

// After the boot (--after-recovery continue): a new firmware mounts the flash, the host's oracle
// takes what the recovery found as each page's content (the cut's audit has checked it is
// allowed), the host comes back and the workload runs to its end. Then every read since was
// checked, and the new firmware's mapping is checked against the flash and the oracle as any
// run's is.
AfterRecoveryFacts continue_after_recovery(const RunOptions& o, DriveTestbench& bench, const fw::OobRecovery& recovered) {
  SsdTop& top = bench.top();
  stimuli::HostModel& host = bench.host();
  stimuli::IntegrityOracle& oracle = bench.oracle();
  AfterRecoveryFacts f;
  const sc_core::sc_time mount_start = sc_core::sc_time_stamp();
  bool mounted = false;
  const MetricsRegistry& metrics = top.remount([&](const fw::Firmware::MountCounts& c) {
    f.mount = c;
    mounted = true;
    sc_core::sc_pause();
  });
  run_until_over(mounted, "the mount after the power cut", o.stall_seconds);
  // The mount's last job charged its table writes beyond the moment it ended the mount.
  if (top.cores_drained_at() > sc_core::sc_time_stamp())
    sc_core::sc_start(top.cores_drained_at() - sc_core::sc_time_stamp(), sc_core::SC_RUN_TO_TIME);
  const sc_core::sc_time power_on = sc_core::sc_time_stamp();
  f.mount_s = (power_on - mount_start).to_seconds();
  f.mount_pages_programmed = metrics.counter_or_zero("ftl", "flash_pages_programmed");
  f.mount_erases = metrics.counter_or_zero("ftl", "erases");
  for (Lpn lpn = 0; lpn < oracle.logical_pages(); ++lpn)
    if (oracle.expected(lpn) != recovered.token_of(lpn)) oracle.set_expected(lpn, recovered.token_of(lpn));
  const std::uint64_t completed = host.completed(), checked = oracle.pages_checked(), mismatches = oracle.mismatches();
  f.requests_given_up = host.power_on();
  RunFacts run;
  simulate(bench, run, o.stall_seconds);
  f.wall_s = run.wall_seconds;
  f.simulated_s = (host.last_completion() > power_on ? host.last_completion() - power_on : sc_core::SC_ZERO_TIME).to_seconds();
  f.requests_completed = host.completed() - completed;
  f.pages_checked = oracle.pages_checked() - checked;
  f.mismatches = oracle.mismatches() - mismatches;
  if (f.mismatches > 0) f.first_mismatch = oracle.first_mismatch();
  f.host_pages_written = metrics.counter_or_zero("ftl", "host_pages_written");
  f.flash_pages_programmed = metrics.counter_or_zero("ftl", "flash_pages_programmed");
  f.erases = metrics.counter_or_zero("ftl", "erases");
  if (metrics.sets().count("ftl")) f.ftl_counters = metrics.sets().at("ftl")->counters();
  const std::string problem = o.verify_mapping ? verify_mapping(top.mapping(), bench.array(), oracle) : "skipped";
  f.mapping_check = problem.empty() ? "ok" : problem;
  return f;
}

// What the report needs beyond the statistics registry: the workload, the run's times, the
// oracle's verdict, the erase distribution and the end-of-run mapping check.
void collect_facts(const RunOptions& o, DriveTestbench& bench, sc_core::sc_time drive_idle, RunFacts& facts) {
  stimuli::HostModel& host = bench.host();
  stimuli::IntegrityOracle& oracle = bench.oracle();
  facts.workload = bench.workload().describe();
  facts.skipped_lines = bench.workload().skipped_lines();
  facts.first_skipped = bench.workload().first_skipped();
  facts.time_order = stimuli::time_order_name(o.time_order);
  facts.backward_steps = bench.workload().backward_steps();
  facts.largest_backward_step_s = double(bench.workload().largest_backward_step_ns()) / 1e9;
  facts.mode = o.open_loop ? "open-loop" : "closed-loop";
  facts.queue_depth = host.queue_depth();  // with per-job iodepths or several queues: their sum
  if (host.io_queues().size() > 1) facts.queues = host.io_queues();
  facts.time_scale = o.time_scale;
  facts.simulated_seconds = host.last_completion().to_seconds();
  facts.idle_seconds = drive_idle.to_seconds();
  facts.delta_cycles = sc_core::sc_delta_count();
  facts.pages_checked = oracle.pages_checked();
  facts.mismatches = oracle.mismatches();
  facts.first_mismatch = oracle.first_mismatch();
  facts.failed_reads = oracle.failed_reads();
  facts.reported_lost_pages = oracle.reported_lost_pages();
  facts.ftl_parameters = bench.top().ftl_parameters();
  facts.vcd_path = o.vcd_path;
  facts.firmware_tables = bench.top().hal().tables();
  if (ControllerRegisters* image = bench.top().image()) {
    const hw::IssCore& core = image->core();
    IssRunFacts iss{core.image(), core.config().clock_mhz, core.counts(), {}, core.profile()};
    for (const hw::IssBusWindow& w : core.config().bus_windows) iss.window_names.push_back(w.name);
    facts.iss = std::move(iss);
  }
  for (BlockId b = 0; b < bench.array().geometry().total_blocks(); ++b) ++facts.erase_counts[bench.array().erase_count(b)];
  facts.factory_bad_blocks = bench.array().factory_bad_blocks().size();
  facts.program_failures = bench.array().program_failures();
  facts.erase_failures = bench.array().erase_failures();
  facts.worn_out_before_run = bench.array().retired_before_run().size();
  if (o.power_cut()) {
    facts.mapping_check = "skipped";  // the FTL's mapping was in the DRAM the cut lost
  } else if (o.verify_mapping) {
    const auto t0 = std::chrono::steady_clock::now();
    std::string problem = verify_mapping(bench.top().mapping(), bench.array(), oracle);
    facts.mapping_check = problem.empty() ? "ok" : problem;
    facts.verify_wall_seconds = seconds_since(t0);
  } else {
    facts.mapping_check = "skipped";
  }
  facts.peak_rss_mib = peak_rss_mib();
}

// --after-recovery continue needs a cut, and the annotated core (the image has no boot of its own).
void check_after_recovery(const RunOptions& o) {
  if (!o.continue_after_recovery) return;
  if (!o.power_cut()) throw ConfigError("--after-recovery continue needs a power cut (--power-cut-at or --power-cut-after)");
  if (o.platform.core.model == "iss")
    throw ConfigError("--after-recovery continue: the firmware image on the ISS core (core.model = iss) has no boot "
                      "after a power cut of its own yet; use core.model = annotated");
}

}  // namespace

RunOutcome run_simulation(const RunOptions& o) {
  const auto setup_start = std::chrono::steady_clock::now();
  std::unique_ptr<tlmx::VcdTracer> vcd = open_waveform(o);
  PlatformConfig platform = o.platform;
  if (!o.firmware_job_log.empty()) {
    if (platform.core.model != "iss")
      throw ConfigError("--firmware-jobs needs the firmware image on the ISS core (core.model = iss)");
    platform.firmware_job_log = o.firmware_job_log;
  }
  check_after_recovery(o);
  DriveTestbench bench("ssd", platform, workload_factory(o), host_config(o), vcd.get());  // elaborate
  std::unique_ptr<UtilizationWaveform> busy_waves;
  std::unique_ptr<PowerWaveform> power_waves;
  if (vcd) {
    busy_waves = std::make_unique<UtilizationWaveform>(*vcd, bench.metrics());
    power_waves = std::make_unique<PowerWaveform>(*vcd, platform, bench.metrics());
  }
  const stimuli::WorkloadScan scan = bench.check_workload();  // bad input stops the run here, before preconditioning
  RunFacts facts;
  facts.written_footprint_pages = scan.written_pages;
  if (o.power_cut()) bench.array().keep_versions();  // recovery reads the OOB's versions
  facts.setup_wall_seconds = seconds_since(setup_start);
  precondition(o, bench, facts);
  std::optional<fw::OobRecovery> reference;  // a power cut's: the mapping read straight from the array
  const sc_core::sc_time drive_idle =
      o.power_cut() ? simulate_until_cut(o, bench, facts, reference) : simulate(bench, facts, o.stall_seconds);
  collect_facts(o, bench, drive_idle, facts);
  if (vcd) {
    const sc_core::sc_time end = std::max(drive_idle, bench.host().last_completion());
    busy_waves->write(end.value());
    power_waves->write({end.to_seconds(), 0, 0, facts.iss ? &*facts.iss : nullptr});
    vcd->close();
  }

  facts.process_wall_seconds = process_wall_seconds();
  facts.process_cpu_seconds = rusage_cpu_seconds();
  RunOutcome out;
  if (vcd) out.waveform_signals = vcd->kept_signals();
  if (ControllerRegisters* image = bench.top().image()) out.firmware_functions = image->core().function_names();
  out.report = build_report(o.platform, bench.metrics(), facts);
  check_report_invariants(out.report, {scan.requests, scan.bytes});
  out.integrity_ok = facts.mismatches == 0 && (facts.mapping_check == "ok" || facts.mapping_check == "skipped") &&
                     (!facts.power_cut || (facts.power_cut->audit.ok() && facts.power_cut->recovery.version_conflicts == 0));
  if (facts.power_cut && !bench.top().image()) {  // (the image has no boot path of its own yet)
    const BootFacts boot = boot_after_cut(o, bench, *reference);
    out.report["power_cut"]["boot"] = boot_section(boot, o.platform.geometry);
    out.integrity_ok = out.integrity_ok && boot.map_differences == 0;
    if (o.continue_after_recovery) {
      const AfterRecoveryFacts after = continue_after_recovery(o, bench, *reference);
      out.report["power_cut"]["after_recovery"] = after_recovery_section(after);
      out.integrity_ok = out.integrity_ok && after.mismatches == 0 && (after.mapping_check == "ok" || after.mapping_check == "skipped");
    }
  }
  return out;
}

}  // namespace ssd::platform
