#include "platforms/run/simulation.h"

#include <sys/resource.h>

#include <chrono>
#include <memory>
#include <systemc>

#include "platforms/functional/functional_drive.h"
#include "platforms/functional/functional_hal.h"
#include "platforms/report/report.h"
#include "platforms/soc/ssd_top.h"
#include "stimuli/host/host_model.h"
#include "stimuli/msr_trace.h"
#include "stimuli/sequential_fill.h"

namespace ssd::platform {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace

RunOutcome run_simulation(const RunOptions& o) {
  const PlatformConfig& cfg = o.platform;
  MetricsRegistry metrics;
  hw::NandArray array(cfg.geometry, cfg.sequential_program);
  std::unique_ptr<tlmx::VcdTracer> vcd;
  if (!o.vcd_path.empty())
    vcd = std::make_unique<tlmx::VcdTracer>(o.vcd_path, std::uint64_t(o.vcd_start_us * 1e6),
                                            std::uint64_t(o.vcd_end_us * 1e6));

  SsdTop top("ssd", cfg, array, metrics, vcd.get());
  fw::Firmware& firmware = top.firmware();
  const std::uint64_t capacity = firmware.capacity_sectors();
  stimuli::IntegrityOracle oracle(firmware.ftl().logical_pages(), cfg.geometry.page_bytes);

  // Preconditioning: the same firmware on the functional HAL, on the same NAND array.
  RunFacts facts;
  std::string pre = "none (fresh drive)";
  const auto pre_t0 = std::chrono::steady_clock::now();
  if (o.precondition_fill || o.precondition_random > 0) {
    FunctionalHal functional(array, cfg.sram.size_bytes, cfg.dram.size_bytes);
    top.hal_switch().use(functional);
    pre.clear();
    if (o.precondition_fill) {
      stimuli::SequentialFill fill(capacity, 512);
      replay_functional(firmware, functional, fill, oracle, 64);
      pre = "sequential fill of the whole logical space";
    }
    if (o.precondition_random > 0) {
      stimuli::SyntheticSpec s;
      s.pattern = stimuli::SyntheticSpec::Pattern::Random;
      s.request_bytes = cfg.geometry.page_bytes;
      s.range_bytes = capacity * fw::kSectorBytes;
      s.count = static_cast<std::uint64_t>(o.precondition_random * double(firmware.ftl().logical_pages()));
      s.seed = o.seed + 1000;
      stimuli::SyntheticWorkload random(s);
      replay_functional(firmware, functional, random, oracle, 64);
      pre += (pre.empty() ? "" : ", then ") + std::to_string(s.count) + " random page writes";
    }
    if (oracle.mismatches()) throw RunError("integrity failure during preconditioning: " + oracle.first_mismatch());
    top.hal_switch().use(top.hal());
    metrics.reset("ftl");
    metrics.reset("firmware");
  }
  facts.precondition_wall_seconds = seconds_since(pre_t0);
  facts.precondition = pre;

  std::unique_ptr<stimuli::Workload> workload;
  if (!o.trace.empty()) {
    workload = std::make_unique<stimuli::MsrTrace>(o.trace);
  } else {
    stimuli::SyntheticSpec s = o.synthetic;
    if (s.range_bytes == 0) s.range_bytes = capacity * fw::kSectorBytes - s.range_start_bytes;
    workload = std::make_unique<stimuli::SyntheticWorkload>(s);
  }
  stimuli::HostModelConfig hc{o.queue_depth, o.open_loop, o.time_scale, o.fold_addresses, capacity};
  if (o.queue_depth > cfg.host.queue_depth)
    throw ConfigError("queue depth " + std::to_string(o.queue_depth) + " exceeds host.queue_depth = " +
                      std::to_string(cfg.host.queue_depth));
  stimuli::HostModel host("host", hc, *workload, oracle, metrics, vcd.get());
  host.nvme.bind(top.host_interface().host);

  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  facts.wall_seconds = seconds_since(t0);
  if (!host.workload_error().empty()) throw stimuli::WorkloadError(host.workload_error());
  if (!host.finished())
    throw RunError("simulation stalled at " + sc_core::sc_time_stamp().to_string() + " with " +
                   std::to_string(host.completed()) + " requests completed: nothing left to happen (firmware deadlock?)");
  top.finalize(sc_core::sc_time_stamp());
  if (vcd) vcd->close();

  facts.workload = workload->describe();
  facts.mode = o.open_loop ? "open-loop" : "closed-loop";
  facts.queue_depth = o.queue_depth;
  facts.time_scale = o.time_scale;
  facts.simulated_seconds = host.last_completion().to_seconds();
  facts.delta_cycles = sc_core::sc_delta_count();
  facts.pages_checked = oracle.pages_checked();
  facts.mismatches = oracle.mismatches();
  facts.first_mismatch = oracle.first_mismatch();
  facts.ftl_parameters = firmware.config().ftl_options.effective();
  facts.vcd_path = o.vcd_path;
  if (o.verify_mapping) {
    std::string problem = verify_mapping(firmware.ftl(), array, oracle);
    facts.mapping_check = problem.empty() ? "ok" : problem;
  } else {
    facts.mapping_check = "skipped";
  }
  facts.peak_rss_mib = peak_rss_mib();

  RunOutcome out;
  out.report = build_report(cfg, metrics, facts);
  out.integrity_ok = facts.mismatches == 0 && (facts.mapping_check == "ok" || facts.mapping_check == "skipped");
  return out;
}

}  // namespace ssd::platform
