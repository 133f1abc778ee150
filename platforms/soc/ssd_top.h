// The assembled SSD: host interface, embedded core(s) running the firmware, system bus with
// SRAM and DRAM buffer, and one channel controller per channel with its NAND dies, all bound
// by TLM sockets and configured from a PlatformConfig.
//
//   host model --nvme--> HostInterface --dma--> SystemBus --> SRAM, DRAM
//                           |  ^                  ^  ^
//    fetched_commands       |  | firmware_requests |  +-- ChannelController[i].dma
//    (to the core as jobs)  v  | (DMAs, completion entries)
//                           |  |                   +----- EmbeddedCore.bus (table accesses)
//                        CoSimHal (firmware HAL on the core) --flash[i]--> ChannelController[i]
//
// The core is the annotated model running host-compiled firmware (core.model = annotated) or
// the firmware image on the ISS behind the controller's registers (core.model = iss; its bus
// windows reach the SRAM and DRAM through the same system bus).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "common/metrics.h"
#include "fw/firmware/firmware.h"
#include "fw/recovery/boot_recovery.h"
#include "fw/recovery/mount_image.h"
#include "platforms/soc/checkpoint_records.h"
#include "hw/bus/system_bus.h"
#include "hw/channel/channel_controller.h"
#include "hw/core/embedded_core.h"
#include "hw/host/host_interface.h"
#include "hw/memory/memory_target.h"
#include "hw/nand/nand_array.h"
#include "platforms/config/platform_config.h"
#include "platforms/functional/mapping_view.h"
#include "platforms/report/power_cut_section.h"
#include "platforms/soc/controller_registers.h"
#include "platforms/soc/cosim_hal.h"
#include "platforms/soc/hal_switch.h"
#include "tlm/vcd_tracer.h"

namespace ssd::platform {

class SsdTop : public sc_core::sc_module {
 public:
  // `array` may be shared with a functional preconditioning run; `vcd` may be null.
  SsdTop(sc_core::sc_module_name name, const PlatformConfig& config, hw::NandArray& array, MetricsRegistry& metrics,
         tlmx::VcdTracer* vcd);

  hw::HostInterface& host_interface() { return *host_if_; }
  // The host-compiled firmware (core.model = annotated); throws std::logic_error on the ISS.
  fw::Firmware& firmware();
  // The firmware image and its registers (core.model = iss), or null.
  ControllerRegisters* image() { return registers_.get(); }
  // What either firmware tells of itself.
  Lpn logical_pages() const;
  std::uint64_t capacity_sectors() const {
    return std::uint64_t(logical_pages()) * map_page_bytes_ / kSectorBytes;
  }
  std::map<std::string, std::string> ftl_parameters() const;
  const MappingView& mapping() const { return *mapping_; }
  CoSimHal& hal() { return *hal_; }
  HalSwitch& hal_switch() { return *switch_; }
  const tlmx::AddressMap& address_map() const { return map_; }
  // Adds end-of-run figures (busy time of operations still in progress, the cores' idle time)
  // before reporting, for a run whose last event was at `end`. Returns when the drive went idle:
  // `end`, or later if a firmware job was still running (its charges need no kernel event).
  sc_core::sc_time finalize(sc_core::sc_time end);
  // Work left unfinished when nothing is left to happen (a deadlock or a lost wake-up): the
  // firmware's, then the flash channels'. "" when the drive is idle.
  std::string unfinished_work() const;
  // The power went at `now` (platforms/report/power_cut_section.h): the flash's programs and
  // erases under way are cut short (hw::ChannelController::power_cut), and the DRAM's contents
  // are gone. The simulation does not go on.
  void power_cut(sc_core::sc_time now, PowerCutFacts& facts);
  // Capacitors hold the drive up (firmware.plp): the firmware learns of the power loss now, in a
  // job on its core (fw::Firmware::on_power_loss); if it stops its FTL's work then, the channel
  // controllers drop the programs and erases not yet on a die (hw::ChannelController::power_fail).
  void begin_power_loss();
  // After power_cut, with the statistics read: every module is powered off (hw::ChannelController::
  // power_off and the host interface's, the core's and the HAL's), so nothing under way completes.
  void power_off(sc_core::sc_time now);
  // Then the drive boots: the recovery firmware (fw/recovery/boot_recovery.h) starts on the core
  // now, and `done` runs in its last job. The annotated core only (image() is null).
  const fw::BootRecovery& boot_recovery(const fw::FirmwareCosts& costs, bool scan_whole_blocks,
                                        std::function<void()> done);
  // Once the boot is over (--after-recovery continue): the firmware that served before the cut is
  // gone, and a new one, made over the flash as the cut left it, mounts what the boot found
  // (fw::Firmware::mount) in a job on the core; `done` runs in its last job, and host commands
  // go to it from then on. Returns the registry of its statistics (the run's ended at the cut);
  // the boot's tables are given up first, as its code's memory is the firmware's again.
  const MetricsRegistry& remount(std::function<void(const fw::Firmware::MountCounts&)> done);
  // When the cores have worked off every job charged so far (a job's cycles and memory waits run
  // past the kernel time it started at).
  sc_core::sc_time cores_drained_at() const { return core_ ? core_->drained_at() : sc_core::sc_time_stamp(); }

 private:
  hw::IssConfig iss_config(const PlatformConfig& c) const;

  MetricsRegistry& metrics_;
  hw::NandArray& array_;
  fw::FirmwareConfig firmware_config_;
  tlmx::AddressMap map_;
  std::unique_ptr<hw::SystemBus> bus_;
  std::unique_ptr<hw::MemoryTarget> sram_, dram_;
  std::unique_ptr<hw::EmbeddedCore> core_;  // annotated
  std::unique_ptr<hw::HostInterface> host_if_;
  std::vector<std::unique_ptr<hw::ChannelController>> channels_;
  std::unique_ptr<CoSimHal> hal_;
  std::unique_ptr<HalSwitch> switch_;
  std::unique_ptr<MetricsRegistry> remount_metrics_;  // the statistics of a firmware that mounts after a cut
  std::unique_ptr<fw::Firmware> firmware_;      // annotated
  std::unique_ptr<ControllerRegisters> registers_;  // iss
  std::unique_ptr<MappingView> mapping_;
  std::unique_ptr<CheckpointRecords> checkpoints_;  // map checkpoints' content (annotated, with checkpoints)
  std::unique_ptr<fw::BootRecovery> boot_;  // after a power cut
  std::unique_ptr<fw::MountImage> mount_image_;  // what the boot found, for the firmware that mounts it
  std::uint32_t map_page_bytes_ = 0;
};

}  // namespace ssd::platform
