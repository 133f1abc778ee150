#include "platforms/soc/ssd_top.h"

#include <algorithm>
#include <string>

namespace ssd::platform {

SsdTop::SsdTop(sc_core::sc_module_name name, const PlatformConfig& c, hw::NandArray& array, MetricsRegistry& metrics,
               tlmx::VcdTracer* vcd)
    : sc_module(name) {
  map_.sram_size = c.sram.size_bytes;
  map_.dram_size = c.dram.size_bytes;
  bus_ = std::make_unique<hw::SystemBus>("bus", c.bus, metrics);
  sram_ = std::make_unique<hw::MemoryTarget>("sram", c.sram, metrics);
  dram_ = std::make_unique<hw::MemoryTarget>("dram", c.dram, metrics);
  bus_->targets.bind(sram_->socket);
  bus_->targets.bind(dram_->socket);
  bus_->map(map_.sram_base, map_.sram_size, 0, "sram");
  bus_->map(map_.dram_base, map_.dram_size, 1, "dram");

  core_ = std::make_unique<hw::EmbeddedCore>("cores", c.core, metrics, vcd);
  core_->bus.bind(bus_->initiators);
  host_if_ = std::make_unique<hw::HostInterface>("host_interface", c.host, map_.dram_base, metrics, vcd);
  host_if_->dma.bind(bus_->initiators);

  hal_ = std::make_unique<CoSimHal>("firmware_hal", c.geometry, map_, *core_, metrics);
  host_if_->fetched_commands.bind(hal_->host_commands);
  hal_->host_requests.bind(host_if_->firmware_requests);
  hal_->trace_to(vcd);
  for (std::uint32_t ch = 0; ch < c.geometry.channels; ++ch) {
    hw::ChannelControllerConfig cc{ch, c.geometry, c.nand, c.channel, c.scheduler, map_.dram_base, c.arbitration};
    auto ctrl = std::make_unique<hw::ChannelController>(("channel" + std::to_string(ch)).c_str(), cc, array, metrics, vcd);
    hal_->flash.bind(ctrl->flash_target);
    ctrl->dma.bind(bus_->initiators);
    channels_.push_back(std::move(ctrl));
  }
  switch_ = std::make_unique<HalSwitch>(*hal_);
  firmware_ = std::make_unique<fw::Firmware>(*switch_, c.firmware, metrics);
  hal_->set_host_handler(*firmware_);
}

sc_core::sc_time SsdTop::finalize(sc_core::sc_time end) {
  const sc_core::sc_time idle = std::max(end, core_->drained_at());
  for (auto& ch : channels_) ch->end_of_simulation_stats(idle);
  core_->finalize(idle);
  return idle;
}

}  // namespace ssd::platform
