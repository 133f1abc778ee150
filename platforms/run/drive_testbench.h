// One simulated drive with its host: the NAND array, the SoC (with the firmware), the
// integrity oracle, the workload and the host model, elaborated under one name. Several can
// live in one elaboration (they share nothing), so a test can compare configurations side by
// side in a single SystemC process.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/metrics.h"
#include "hw/nand/nand_array.h"
#include "platforms/config/platform_config.h"
#include "platforms/run/preconditioner.h"
#include "platforms/soc/ssd_top.h"
#include "stimuli/host/host_model.h"
#include "stimuli/integrity_oracle.h"

namespace ssd::platform {

using WorkloadFactory = std::function<std::unique_ptr<stimuli::Workload>(std::uint64_t capacity_sectors)>;

class DriveTestbench {
 public:
  // host.admission's drive bounds (capacity, page, buffer, time limit) are filled in here.
  DriveTestbench(const std::string& name, const PlatformConfig& config, const WorkloadFactory& workload,
                 stimuli::HostModelConfig host, tlmx::VcdTracer* vcd = nullptr);

  // Before anything is simulated: reads a second copy of the workload through, checking every
  // request as the host will (bounds, buffer, arrival within the time limit); throws
  // WorkloadError on the first bad request or an empty workload.
  stimuli::WorkloadScan check_workload();
  // Before sc_start: preconditions the drive on the functional HAL (same firmware, same NAND
  // array; see platforms/run/preconditioner.h), then measurement starts from zero.
  // An aged spec (+pe:N, +days:D) sets the blocks' erase counts and the data's age first.
  fw::PreconditionOutcome precondition(const fw::PreconditionSpec& spec);

  const PlatformConfig& config() const { return config_; }
  MetricsRegistry& metrics() { return metrics_; }
  hw::NandArray& array() { return array_; }
  SsdTop& top() { return *top_; }
  fw::Firmware& firmware() { return top_->firmware(); }
  stimuli::IntegrityOracle& oracle() { return *oracle_; }
  stimuli::Workload& workload() { return *workload_; }
  stimuli::HostModel& host() { return *host_; }

 private:
  std::string age_drive(const fw::PreconditionSpec& spec);  // returns the description's part
  void plan_queues(stimuli::HostModelConfig& host) const;  // host.queues and queue_depth; throws ConfigError
  PlatformConfig config_;
  MetricsRegistry metrics_;
  hw::NandArray array_;
  std::unique_ptr<SsdTop> top_;
  std::unique_ptr<stimuli::IntegrityOracle> oracle_;
  std::unique_ptr<stimuli::Workload> workload_;
  std::unique_ptr<stimuli::HostModel> host_;
  WorkloadFactory workload_factory_;
  std::uint32_t mdts_sectors_ = 0;  // the host splits larger requests (host.mdts_bytes)
  stimuli::AdmissionRules admission_rules_;
};

}  // namespace ssd::platform
