#include "platforms/run/drive_testbench.h"

#include "common/controller_mmio.h"
#include "stimuli/split_requests.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "platforms/functional/functional_hal.h"
#include "tlm/time_base.h"

namespace ssd::platform {

DriveTestbench::DriveTestbench(const std::string& name, const PlatformConfig& config, const WorkloadFactory& workload,
                               stimuli::HostModelConfig host, tlmx::VcdTracer* vcd)
    : config_(config), array_(config.geometry, config.sequential_program) {
  array_.set_failures(config_.reliability.failures);
  array_.set_bits_per_cell(config_.firmware.word_line_pages);
  top_ = std::make_unique<SsdTop>(name.c_str(), config_, array_, metrics_, vcd);
  const std::uint64_t capacity = top_->capacity_sectors();
  oracle_ = std::make_unique<stimuli::IntegrityOracle>(top_->logical_pages(), config_.geometry.page_bytes);
  // The host splits requests larger than the drive's MDTS (hw/host/host_interface.h), at most what
  // the data buffer holds even unaligned (one page more).
  const std::uint64_t page_bytes = config_.geometry.page_bytes;
  const std::uint64_t buffer_mdts = std::uint64_t(std::max(1u, config_.firmware.buffer_slots - 1)) * page_bytes;
  if (config_.host.mdts_bytes > buffer_mdts)
    throw ConfigError("host.mdts_bytes = " + std::to_string(config_.host.mdts_bytes) + " is more than the data buffer "
                      "holds for an unaligned command: (firmware.buffer_slots - 1) x page = " +
                      std::to_string(buffer_mdts));
  if (config_.host.mdts_bytes % kSectorBytes != 0)
    throw ConfigError("host.mdts_bytes = " + std::to_string(config_.host.mdts_bytes) + " is not a whole number of " +
                      "512-byte sectors");
  mdts_sectors_ =
      static_cast<std::uint32_t>((config_.host.mdts_bytes ? config_.host.mdts_bytes : buffer_mdts) / kSectorBytes);
  workload_ = std::make_unique<stimuli::SplitRequests>(workload(capacity), mdts_sectors_,
                                                       metrics_.set("host").counter("mdts_splits"));
  plan_queues(host);
  host.admission.capacity_sectors = capacity;
  host.admission.page_bytes = config_.geometry.page_bytes;
  host.admission.max_request_pages = config_.firmware.buffer_slots;
  host.admission.max_arrival_seconds = tlmx::max_simulated_seconds();
  host.admission.limit_text = tlmx::describe_limit();
  admission_rules_ = host.admission;
  workload_factory_ = workload;
  host_ = std::make_unique<stimuli::HostModel>((name + "_host").c_str(), host, *workload_, *oracle_, metrics_, vcd);
  host_->nvme.bind(top_->host_interface().host);
  if (!host.queues.empty()) top_->host_interface().create_io_queues(host.queues);  // the workload's (plan_queues)
}

// The host's I/O queues and their depths, each within the drive's submission queue entries
// (host.queue_depth): one queue at the host's depth, or the sum of the jobs' iodepths; or the
// workload's queues, each at its jobs' iodepths or the host's depth.
void DriveTestbench::plan_queues(stimuli::HostModelConfig& host) const {
  std::vector<IoQueueSpec> queues = workload_->io_queues();
  if (queues.empty()) {
    if (const auto depths = workload_->stream_depths(); !depths.empty()) {
      // Each stream keeps its own depth outstanding: the host's queue holds them all.
      host.queue_depth = 0;
      for (std::uint32_t d : depths) host.queue_depth += d;
      if (host.queue_depth > config_.host.queue_depth)
        throw ConfigError("the jobs' iodepths add up to " + std::to_string(host.queue_depth) +
                          ", more than host.queue_depth = " + std::to_string(config_.host.queue_depth));
    }
    if (host.queue_depth > config_.host.queue_depth)
      throw ConfigError("queue depth " + std::to_string(host.queue_depth) + " exceeds host.queue_depth = " +
                        std::to_string(config_.host.queue_depth));
    return;
  }
  std::uint64_t total = 0;
  for (std::size_t q = 0; q < queues.size(); ++q) {
    if (queues[q].depth == 0) queues[q].depth = host.queue_depth;
    if (queues[q].depth > config_.host.queue_depth)
      throw ConfigError("I/O queue " + std::to_string(q) + ": depth " + std::to_string(queues[q].depth) +
                        " (its jobs' iodepths, or --qd) exceeds host.queue_depth = " +
                        std::to_string(config_.host.queue_depth) + " (each submission queue's entries)");
    total += queues[q].depth;
  }
  const std::uint64_t held = config_.host.controller_commands ? std::min<std::uint64_t>(config_.host.controller_commands, total) : total;
  if (config_.core.model == "iss" && held > mmio::kTokenWindowCommandIds)
    throw ConfigError("core.model = iss has a token window for " + std::to_string(mmio::kTokenWindowCommandIds) +
                      " command ids: " + std::to_string(queues.size()) +
                      " I/O queues hold " + std::to_string(held) + " commands (limit host.controller_commands)");
  if (total > 1u << 20) throw ConfigError("the I/O queues hold " + std::to_string(total) + " commands, more than 2^20");
  host.queues = queues;
  host.queue_depth = static_cast<std::uint32_t>(total);
}

stimuli::WorkloadScan DriveTestbench::check_workload() {
  std::uint64_t splits = 0;  // the run counts its own
  stimuli::SplitRequests copy(workload_factory_(top_->capacity_sectors()), mdts_sectors_, splits);
  return stimuli::scan_workload(copy, stimuli::RequestAdmission(admission_rules_));
}

// An aged drive in closed form (fw::PreconditionSpec::pe_cycles, data_age_days).
std::string DriveTestbench::age_drive(const fw::PreconditionSpec& spec) {
  std::mt19937_64 rng(spec.seed ^ 0x9e3779b97f4a7c15ULL);
  std::normal_distribution<double> cycles(spec.pe_cycles, spec.pe_spread * spec.pe_cycles);
  for (BlockId b = 0; b < array_.geometry().total_blocks(); ++b)
    array_.set_erase_count(b, static_cast<std::uint32_t>(std::lround(std::max(0.0, spec.pe_spread > 0 ? cycles(rng) : spec.pe_cycles))));
  array_.set_data_age_days(spec.data_age_days);
  // The blocks that went bad on the way there (failures.grown): each with the chance its erase
  // count gives, grown_bad_share (c / R)^(k + 1), drawn from a stream of its own.
  std::mt19937_64 worn_rng(spec.seed ^ 0x2545f4914f6cdd1dULL);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (BlockId b = 0; b < array_.geometry().total_blocks(); ++b)
    if (!array_.factory_bad(b) && uniform(worn_rng) < array_.failures().failed_by(array_.erase_count(b)))
      array_.retire_before_run(b);
  firmware().adopt_aged_drive([this](BlockId b) { return array_.erase_count(b); }, array_.retired_before_run());
  return fmt::format("; aged: {:g} P/E cycles a block (spread {:g}), data {:g} days old, {} blocks gone bad",
                     spec.pe_cycles, spec.pe_spread, spec.data_age_days, array_.retired_before_run().size());
}

fw::PreconditionOutcome DriveTestbench::precondition(const fw::PreconditionSpec& spec) {
  // The image's firmware keeps its block records in the ISS's memory, which aging cannot reach.
  if (spec.ages() && top_->image())
    throw ConfigError("core.model = iss starts from a fresh drive: an aged one (+pe:N, +days:D) needs core.model = "
                      "annotated");
  const std::string aged = spec.ages() ? age_drive(spec) : "";
  if (!spec.writes_anything()) {
    fw::PreconditionOutcome fresh = fw::PreconditionOutcome::fresh_drive();
    fresh.description += aged;
    return fresh;
  }
  // Preconditioning fills the flash through the host-compiled firmware's own objects (fast, on the
  // functional HAL); the image's state lives in the ISS's memory, which that cannot reach.
  if (top_->image())
    throw ConfigError("core.model = iss starts from a fresh drive: preconditioning needs core.model = annotated "
                      "(or run with --precondition none)");
  FunctionalHal functional(array_, config_.sram.size_bytes, config_.dram.size_bytes);
  top_->hal_switch().use(functional);
  // Fill requests of up to 256 KiB, which the data buffer can hold.
  const std::uint32_t page_sectors = config_.geometry.page_bytes / kSectorBytes;
  Preconditioner preconditioner(firmware(), functional, *oracle_, metrics_.set("ftl"), config_.geometry.page_bytes,
                                std::min<std::uint32_t>(512, config_.firmware.buffer_slots * page_sectors));
  oracle_->begin_preconditioning();
  array_.set_failures_armed(false);
  firmware().bypass_write_buffer(true);  // a factory image: straight to the flash
  fw::PreconditionOutcome outcome = preconditioner.run(spec);
  outcome.description += aged;
  firmware().bypass_write_buffer(false);
  if (firmware().close_all_word_lines() > 0) functional.run();
  if (firmware().checkpoint_now()) functional.run();  // the factory image's map checkpoint
  oracle_->end_preconditioning();
  array_.set_failures_armed(true);
  top_->hal_switch().use(top_->hal());
  if (oracle_->mismatches())
    throw std::runtime_error("integrity failure during preconditioning: " + oracle_->first_mismatch());
  metrics_.reset("ftl");
  metrics_.reset("firmware");
  firmware().refresh_gauges();
  return outcome;
}

}  // namespace ssd::platform
