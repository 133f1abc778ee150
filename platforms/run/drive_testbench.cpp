#include "platforms/run/drive_testbench.h"

#include <cmath>

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "platforms/functional/functional_drive.h"
#include "platforms/functional/functional_hal.h"
#include "stimuli/sequential_fill.h"
#include "stimuli/synthetic_workload.h"

namespace ssd::platform {

DriveTestbench::DriveTestbench(const std::string& name, const PlatformConfig& config, const WorkloadFactory& workload,
                               stimuli::HostModelConfig host, tlmx::VcdTracer* vcd)
    : config_(config), array_(config.geometry, config.sequential_program) {
  top_ = std::make_unique<SsdTop>(name.c_str(), config_, array_, metrics_, vcd);
  const std::uint64_t capacity = firmware().capacity_sectors();
  oracle_ = std::make_unique<stimuli::IntegrityOracle>(firmware().ftl().logical_pages(), config_.geometry.page_bytes);
  workload_ = workload(capacity);
  if (host.queue_depth > config_.host.queue_depth)
    throw ConfigError("queue depth " + std::to_string(host.queue_depth) + " exceeds host.queue_depth = " +
                      std::to_string(config_.host.queue_depth));
  host.capacity_sectors = capacity;
  host.max_request_pages = config_.firmware.buffer_slots;
  host_ = std::make_unique<stimuli::HostModel>((name + "_host").c_str(), host, *workload_, *oracle_, metrics_, vcd);
  host_->nvme.bind(top_->host_interface().host);
}

std::string DriveTestbench::random_until_steady(FunctionalHal& functional, std::uint64_t seed) {
  MetricSet& ftl = metrics_.set("ftl");
  const std::uint64_t logical_pages = firmware().ftl().logical_pages();
  const std::uint64_t chunk = std::max<std::uint64_t>(1, logical_pages / 20);
  const std::uint64_t capacity = firmware().capacity_sectors();
  std::vector<double> waf;
  std::uint64_t written = 0;
  bool steady = false;
  for (std::uint64_t k = 0; !steady && written < 10 * logical_pages; ++k) {
    const std::uint64_t programmed0 = ftl.counter("flash_pages_programmed"), host0 = ftl.counter("host_pages_written");
    const std::uint64_t erases0 = ftl.counter("erases");
    stimuli::SyntheticSpec s;
    s.pattern = stimuli::SyntheticSpec::Pattern::Random;
    s.request_bytes = config_.geometry.page_bytes;
    s.range_bytes = capacity * fw::kSectorBytes;
    s.count = chunk;
    s.seed = seed + k;
    stimuli::SyntheticWorkload random(s);
    replay_functional(firmware(), functional, random, *oracle_, 64);
    written += chunk;
    const std::uint64_t host = ftl.counter("host_pages_written") - host0;
    waf.push_back(double(ftl.counter("flash_pages_programmed") - programmed0) / double(host ? host : 1));
    const bool gc_active = ftl.counter("erases") > erases0;
    // Settled: at least one capacity overwritten, GC running, and the mean WAF of the last 4
    // chunks within 2% of the mean of 4 chunks 40% of a capacity earlier (a slow drift fails).
    const std::size_t n = waf.size();
    if (gc_active && n >= 20) {
      double recent = 0, before = 0;
      for (std::size_t i = 0; i < 4; ++i) {
        recent += waf[n - 1 - i];
        before += waf[n - 9 - i];
      }
      steady = std::abs(recent - before) <= 0.02 * before;
    }
  }
  return fmt::format("{} random page writes until steady state ({}: write amplification {:.3f})", written,
                     steady ? "reached" : "NOT reached within 10 capacities", waf.empty() ? 0.0 : waf.back());
}

std::string DriveTestbench::precondition(bool fill, double random_capacities, std::uint64_t seed, bool until_steady) {
  if (!fill && random_capacities <= 0 && !until_steady) return "none (fresh drive)";
  // Preconditioned pages hold known baseline tokens; pages a random pass never touched would
  // still be unwritten, so random preconditioning always starts from the full fill.
  if (!fill) throw std::invalid_argument("random preconditioning needs the sequential fill first");
  FunctionalHal functional(array_, config_.sram.size_bytes, config_.dram.size_bytes);
  top_->hal_switch().use(functional);
  const std::uint64_t capacity = firmware().capacity_sectors();
  oracle_->begin_preconditioning();
  std::string done;
  if (fill) {
    // Chunks of up to 256 KiB that the data buffer can hold.
    const std::uint32_t page_sectors = config_.geometry.page_bytes / fw::kSectorBytes;
    stimuli::SequentialFill fill_all(capacity, std::min<std::uint32_t>(512, config_.firmware.buffer_slots * page_sectors));
    replay_functional(firmware(), functional, fill_all, *oracle_, 64);
    done = "sequential fill of the whole logical space";
  }
  if (random_capacities > 0) {
    stimuli::SyntheticSpec s;
    s.pattern = stimuli::SyntheticSpec::Pattern::Random;
    s.request_bytes = config_.geometry.page_bytes;
    s.range_bytes = capacity * fw::kSectorBytes;
    s.count = static_cast<std::uint64_t>(random_capacities * double(firmware().ftl().logical_pages()));
    s.seed = seed;
    stimuli::SyntheticWorkload random(s);
    replay_functional(firmware(), functional, random, *oracle_, 64);
    done += (done.empty() ? "" : ", then ") + std::to_string(s.count) + " random page writes";
  }
  if (until_steady) done += (done.empty() ? "" : ", then ") + random_until_steady(functional, seed);
  oracle_->end_preconditioning();
  top_->hal_switch().use(top_->hal());
  if (oracle_->mismatches())
    throw std::runtime_error("integrity failure during preconditioning: " + oracle_->first_mismatch());
  metrics_.reset("ftl");
  metrics_.reset("firmware");
  return done;
}

}  // namespace ssd::platform
