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
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "common/metrics.h"
#include "fw/firmware/firmware.h"
#include "hw/bus/system_bus.h"
#include "hw/channel/channel_controller.h"
#include "hw/core/embedded_core.h"
#include "hw/host/host_interface.h"
#include "hw/memory/memory_target.h"
#include "hw/nand/nand_array.h"
#include "platforms/config/platform_config.h"
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
  fw::Firmware& firmware() { return *firmware_; }
  CoSimHal& hal() { return *hal_; }
  HalSwitch& hal_switch() { return *switch_; }
  const tlmx::AddressMap& address_map() const { return map_; }
  // Adds end-of-run figures (busy time of operations still in progress, the cores' idle time)
  // before reporting, for a run whose last event was at `end`. Returns when the drive went idle:
  // `end`, or later if a firmware job was still running (its charges need no kernel event).
  sc_core::sc_time finalize(sc_core::sc_time end);

 private:
  tlmx::AddressMap map_;
  std::unique_ptr<hw::SystemBus> bus_;
  std::unique_ptr<hw::MemoryTarget> sram_, dram_;
  std::unique_ptr<hw::EmbeddedCore> core_;
  std::unique_ptr<hw::HostInterface> host_if_;
  std::vector<std::unique_ptr<hw::ChannelController>> channels_;
  std::unique_ptr<CoSimHal> hal_;
  std::unique_ptr<HalSwitch> switch_;
  std::unique_ptr<fw::Firmware> firmware_;
};

}  // namespace ssd::platform
