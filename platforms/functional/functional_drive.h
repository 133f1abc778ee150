// A whole drive on the functional HAL: NAND array, firmware and FTL, no timing. A closed-loop
// host replays a workload against it with the integrity oracle checking every read. Used by
// firmware tests, integrity fuzzing and (on the array the timed model will use) preconditioning.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/metrics.h"
#include "fw/firmware/firmware.h"
#include "hw/nand/nand_array.h"
#include "platforms/functional/functional_hal.h"
#include "platforms/functional/mapping_check.h"
#include "platforms/functional/mapping_view.h"
#include "stimuli/host_request.h"
#include "stimuli/integrity_oracle.h"

namespace ssd::platform {

struct FunctionalDriveConfig {
  FlashGeometry geometry;
  fw::FirmwareConfig firmware;
  std::uint64_t sram_bytes = 4u << 20;
  std::uint64_t dram_bytes = 1ull << 30;
  std::uint64_t completion_seed = 0;  // 0: round-robin completion order; else random across dies
  bool sequential_program = true;
  hw::FailureConfig failures;  // the owned array's bad blocks (hw/nand/block_failures.h)
};

class FunctionalDrive {
 public:
  explicit FunctionalDrive(const FunctionalDriveConfig& config);
  // Runs the firmware on an existing array (e.g. the timed platform's, to precondition it).
  FunctionalDrive(const FunctionalDriveConfig& config, hw::NandArray& array);

  hw::NandArray& array() { return *array_; }
  FunctionalHal& hal() { return hal_; }
  fw::Firmware& firmware() { return *firmware_; }
  MetricsRegistry& metrics() { return metrics_; }
  std::uint64_t capacity_sectors() const { return firmware_->capacity_sectors(); }

 private:
  std::unique_ptr<hw::NandArray> owned_array_;
  hw::NandArray* array_;
  FunctionalHal hal_;
  MetricsRegistry metrics_;
  std::unique_ptr<fw::Firmware> firmware_;
};

struct ReplayResult {
  std::uint64_t requests = 0, reads = 0, writes = 0, held_for_conflicts = 0;
  std::uint64_t rejected_writes = 0;  // completed with an error status (a read-only drive): not written
  std::uint64_t flushes = 0, trims = 0;
};

// Closed-loop replay at `queue_depth` with the oracle; conflicting requests are held until the
// conflicting ones complete. Throws stimuli::WorkloadError for requests beyond the drive.
ReplayResult replay_functional(fw::Firmware& firmware, FunctionalHal& hal, stimuli::Workload& workload,
                               stimuli::IntegrityOracle& oracle, std::uint32_t queue_depth);
inline ReplayResult replay_functional(FunctionalDrive& drive, stimuli::Workload& workload,
                                      stimuli::IntegrityOracle& oracle, std::uint32_t queue_depth) {
  return replay_functional(drive.firmware(), drive.hal(), workload, oracle, queue_depth);
}

inline std::string verify_drive(FunctionalDrive& drive, const stimuli::IntegrityOracle& oracle) {
  return verify_mapping(drive.firmware(), drive.array(), oracle);
}

}  // namespace ssd::platform
