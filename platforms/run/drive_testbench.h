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
#include "platforms/functional/functional_hal.h"
#include "platforms/soc/ssd_top.h"
#include "stimuli/host/host_model.h"
#include "stimuli/integrity_oracle.h"

namespace ssd::platform {

using WorkloadFactory = std::function<std::unique_ptr<stimuli::Workload>(std::uint64_t capacity_sectors)>;

class DriveTestbench {
 public:
  // host.capacity_sectors is filled in from the firmware.
  DriveTestbench(const std::string& name, const PlatformConfig& config, const WorkloadFactory& workload,
                 stimuli::HostModelConfig host, tlmx::VcdTracer* vcd = nullptr);

  // Before sc_start: write every logical page sequentially, then `random_capacities` x the
  // capacity in random page writes, on the functional HAL (same firmware, same NAND array);
  // then measure from zero. Returns a description of what was done.
  // until_steady: after the fill, random page writes in chunks of 5% of the capacity until at
  // least one capacity is overwritten, GC runs, and the mean write amplification of the last 4
  // chunks is within 2% of the mean of 4 chunks 8 chunks earlier (at most 10 capacities).
  std::string precondition(bool fill, double random_capacities, std::uint64_t seed, bool until_steady = false);

  const PlatformConfig& config() const { return config_; }
  MetricsRegistry& metrics() { return metrics_; }
  hw::NandArray& array() { return array_; }
  SsdTop& top() { return *top_; }
  fw::Firmware& firmware() { return top_->firmware(); }
  stimuli::IntegrityOracle& oracle() { return *oracle_; }
  stimuli::Workload& workload() { return *workload_; }
  stimuli::HostModel& host() { return *host_; }

 private:
  std::string random_until_steady(FunctionalHal& functional, std::uint64_t seed);
  PlatformConfig config_;
  MetricsRegistry metrics_;
  hw::NandArray array_;
  std::unique_ptr<SsdTop> top_;
  std::unique_ptr<stimuli::IntegrityOracle> oracle_;
  std::unique_ptr<stimuli::Workload> workload_;
  std::unique_ptr<stimuli::HostModel> host_;
};

}  // namespace ssd::platform
