// The firmware that boots after a power cut (fw/recovery/boot_scan.h): its own operation
// scheduler on the HAL, the OOB scan through the timed model and the mapping it rebuilds. It
// runs on the controller's core like the firmware it replaces; its figures are its own (they do
// not go to the run's statistics, which end at the cut).
#pragma once

#include <functional>
#include <utility>

#include "common/metrics.h"
#include "fw/hal/hal.h"
#include "fw/recovery/boot_scan.h"
#include "fw/recovery/oob_recovery.h"
#include "fw/runtime/firmware_costs.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

class BootRecovery {
 public:
  // `hal` must have been powered off: the scheduler becomes its listener.
  BootRecovery(Hal& hal, const FirmwareCosts& costs, Lpn logical_pages, bool scan_whole_blocks,
               const BootCheckpoints& checkpoints = {})
      : ops_(hal, costs, metrics_.set("boot.ops")),
        recovery_(logical_pages),
        scan_(hal, ops_, costs, recovery_, scan_whole_blocks, checkpoints) {}

  // Call from a job on the core; `done` runs (in a job) once the scan and its erases are over.
  void start(std::function<void()> done) { scan_.start(std::move(done)); }
  const OobRecovery& recovery() const { return recovery_; }
  const BootScanCounts& counts() const { return scan_.counts(); }
  const std::vector<bool>& written() const { return scan_.written(); }

 private:
  MetricsRegistry metrics_;
  OpScheduler ops_;
  OobRecovery recovery_;
  BootScan scan_;
};

}  // namespace ssd::fw
