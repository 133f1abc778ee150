// The co-simulation HAL: the firmware's HAL implemented on the modeled controller. Every flash
// operation becomes a FlashCommand transaction to its channel's controller, host DMA and
// completions go to the host interface, completions come back as jobs for the core, and every
// firmware charge becomes core time or a table access through the system bus.
#pragma once

#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <vector>

#include "fw/hal/hal.h"
#include "tlm/vcd_tracer.h"
#include "fw/hal/table_placer.h"
#include "fw/runtime/host_command.h"
#include "hw/core/embedded_core.h"
#include "hw/host/host_interface.h"
#include "tlm/flash_command.h"

namespace ssd::platform {

struct AddressMap {
  std::uint64_t sram_base = 0x0000'0000;
  std::uint64_t sram_size = 0;
  std::uint64_t dram_base = 0x1'0000'0000ull;
  std::uint64_t dram_size = 0;
};

class CoSimHal : public sc_core::sc_module, public fw::Hal {
 public:
  // One socket per channel controller, bound in channel order.
  tlm_utils::multi_passthrough_initiator_socket<CoSimHal, 32, tlmx::flash_protocol_types> flash;

  CoSimHal(sc_core::sc_module_name name, const FlashGeometry& geometry, const AddressMap& map, hw::EmbeddedCore& core,
           hw::HostInterface& host);

  const FlashGeometry& geometry() const override { return geo_; }
  void set_listener(fw::HalListener* l) override { listener_ = l; }
  void issue(const fw::HalOp& op) override;
  void charge_cycles(std::uint64_t cycles) override { core_.charge_cycles(cycles); }
  void touch(const fw::TableRegion& table, std::uint64_t offset, std::uint32_t bytes, fw::Access access) override;
  fw::TableRegion place_table(const std::string& name, std::uint64_t bytes, fw::MemoryKind preferred) override {
    return placer_.place(name, bytes, preferred);
  }
  void complete_host_command(std::uint32_t host_cmd) override { host_.complete(host_cmd, core_.offset()); }
  void note_gc(std::uint32_t in_progress) override {
    if (vcd_) vcd_->change(vcd_gc_, in_progress);
  }
  // Traces the firmware's GC activity as ssd.firmware.gc_running.
  void trace_to(tlmx::VcdTracer* vcd) {
    vcd_ = vcd;
    if (vcd_) vcd_gc_ = vcd_->add("ssd.firmware", "gc_running", 8);
  }

  const std::vector<fw::TableRegion>& tables() const { return placer_.tables(); }

  // The firmware's entry for a fetched host command (runs as a job on the core).
  std::function<void(const fw::HostCommand&)> on_host_command;

 private:
  struct Slot {
    tlm::tlm_generic_payload trans;
    tlmx::FlashCommand* cmd = nullptr;
  };
  tlm::tlm_sync_enum nb_transport_bw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  Slot& slot_for(std::uint32_t tag);

  FlashGeometry geo_;
  AddressMap map_;
  hw::EmbeddedCore& core_;
  hw::HostInterface& host_;
  fw::HalListener* listener_ = nullptr;
  std::vector<std::unique_ptr<Slot>> slots_;  // indexed by the operation's tag
  fw::TablePlacer placer_;
  std::vector<sc_core::sc_time> last_post_;  // per die: when its newest command was posted
  tlmx::VcdTracer* vcd_ = nullptr;
  int vcd_gc_ = -1;
};

}  // namespace ssd::platform
