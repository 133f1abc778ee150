// The co-simulation HAL: the firmware's HAL implemented on the modeled controller. Every flash
// operation becomes a FlashCommand transaction to its channel's controller, host DMAs and
// completion entries become HostDmaRequest transactions to the host interface, fetched host
// commands and completions come back as jobs for the core, and every firmware charge becomes
// core time or a table access through the system bus.
#pragma once

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <memory>
#include <queue>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <vector>

#include "common/metrics.h"
#include "fw/firmware/host_command.h"
#include "fw/hal/hal.h"
#include "fw/hal/table_placer.h"
#include "hw/core/firmware_core.h"
#include "hw/nand/nand_array.h"
#include "tlm/address_map.h"
#include "tlm/flash_command.h"
#include "tlm/host_protocol.h"
#include "tlm/vcd_tracer.h"

namespace ssd::platform {

class CoSimHal : public sc_core::sc_module, public fw::Hal {
 public:
  SC_HAS_PROCESS(CoSimHal);
  // One socket per channel controller, bound in channel order.
  tlm_utils::multi_passthrough_initiator_socket<CoSimHal, 32, tlmx::flash_protocol_types> flash;
  // Fetched commands from the host interface, and the DMAs and completion entries asked of it.
  tlm_utils::simple_target_socket<CoSimHal, 32, tlmx::host_firmware_protocol_types> host_commands;
  tlm_utils::simple_initiator_socket<CoSimHal, 32, tlmx::host_firmware_protocol_types> host_requests;

  // The firmware profile (cycles per kind of work) goes to metric set "firmware.profile".
  // `array`: the flash whose factory bad-block markers the firmware's format scans.
  CoSimHal(sc_core::sc_module_name name, const FlashGeometry& geometry, const tlmx::AddressMap& map,
           hw::FirmwareCore& core, MetricsRegistry& metrics, const hw::NandArray& array);

  const FlashGeometry& geometry() const override { return geo_; }
  void set_listener(fw::HalListener* l) override { listener_ = l; }
  void issue(const fw::HalOp& op) override;
  void charge_cycles(std::uint64_t cycles, fw::FirmwareWork work) override {
    core_.charge_cycles(cycles);
    *profile_[static_cast<std::size_t>(work)] += cycles;
  }
  void touch(const fw::TableRegion& table, std::uint64_t offset, std::uint32_t bytes, fw::Access access) override;
  fw::TableRegion place_table(const std::string& name, std::uint64_t bytes, fw::MemoryKind preferred) override {
    return placer_.place(name, bytes, preferred);
  }
  // Records have addresses only where the core models a data cache (else no access is timed).
  fw::TableRegion place_records(const std::string& name, std::uint64_t bytes) override {
    return records_cached_ ? placer_.place_records(name, bytes) : fw::Hal::place_records(name, bytes);
  }
  void complete_host_command(std::uint32_t host_cmd, const LatencyTrail& trail, HostStatus status) override;
  // channel.scheduler = flow_priority: each flash command carries the class of the host queue its
  // request came from (tlmx::FlashCommand::flow_class), known by the request its trail is on.
  void mark_flow_classes() { flow_aware_ = true; }
  std::vector<BlockId> factory_bad_blocks() const override { return array_.factory_bad_blocks(); }
  std::uint64_t now_ticks() const override {
    return sc_core::sc_time_stamp().value() + (core_.in_job() ? core_.offset_ticks() : 0);
  }
  void note_gc(std::uint32_t in_progress) override {
    if (vcd_) vcd_->change(vcd_gc_, in_progress);
  }
  int trace_state(const std::string& name, unsigned width) override {
    if (!vcd_) return -1;
    const std::size_t dot = name.rfind('.');
    const std::string scope = dot == std::string::npos ? "ssd.firmware" : "ssd.firmware." + name.substr(0, dot);
    return vcd_->add(scope, dot == std::string::npos ? name : name.substr(dot + 1), width);
  }
  void note_state(int handle, std::uint64_t value) override {
    if (vcd_ && handle >= 0) vcd_->change(handle, value);
  }
  // Traces the firmware's GC activity as ssd.firmware.gc_running, and the FTL's declared states.
  void trace_to(tlmx::VcdTracer* vcd) {
    vcd_ = vcd;
    if (vcd_) vcd_gc_ = vcd_->add("ssd.firmware", "gc_running", 16);
  }

  const std::vector<fw::TableRegion>& tables() const { return placer_.tables(); }

  // Where fetched host commands go (each runs as a job on the core): the firmware.
  void set_host_handler(fw::HostCommandHandler& handler) { host_handler_ = &handler; }
  // The power went: the firmware that ran is gone (its listener, host handler and memory tables);
  // the next one places its tables afresh. The controller's other modules are powered off too.
  void power_off() {
    listener_ = nullptr;
    host_handler_ = nullptr;
    release_tables();
    last_post_.assign(last_post_.size(), sc_core::SC_ZERO_TIME);
    timers_ = {};    // the dead firmware's timers never fire
    vcd_ = nullptr;  // the waveform ends at the cut
  }
  // The memory the running firmware's tables took is free for the next one's.
  void release_tables() { placer_ = fw::TablePlacer(map_.sram_size, map_.dram_size); }

 protected:
  void time_record_access(const fw::TableRegion& records, std::uint64_t offset, std::uint32_t bytes,
                          fw::Access access) override;

 private:
  // One per operation tag: its flash transaction, and its host DMA transaction.
  struct Slot {
    tlm::tlm_generic_payload trans;
    tlmx::FlashCommand* cmd = nullptr;
    tlm::tlm_generic_payload host_trans;
    tlmx::HostDmaRequest* dma = nullptr;
  };
  tlm::tlm_sync_enum nb_transport_bw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum host_command(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  tlm::tlm_sync_enum host_dma_done(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void start_host_dma(const fw::HalOp& op);
  // Firmware timers (fw::OpKind::Timer): each completes, as a job on the core, at its due time.
  void start_timer(const fw::HalOp& op);
  void fire_timers();
  struct Timer {
    sc_core::sc_time due;
    std::uint32_t tag;
    LatencyTrail trail;
    bool operator>(const Timer& o) const { return due > o.due; }
  };
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;  // earliest first
  sc_core::sc_event timer_due_;
  Slot& slot_for(std::uint32_t tag);

  FlashGeometry geo_;
  tlmx::AddressMap map_;
  hw::FirmwareCore& core_;
  const hw::NandArray& array_;
  fw::HalListener* listener_ = nullptr;
  fw::HostCommandHandler* host_handler_ = nullptr;
  tlm::tlm_generic_payload completion_trans_;                     // reused: the interface takes the slot at once
  tlmx::HostDmaRequest* completion_;                              // owned by completion_trans_
  std::array<std::uint64_t*, fw::kFirmwareWorkKinds> profile_{};  // cycles per kind of work
  std::vector<std::unique_ptr<Slot>> slots_;                      // indexed by the operation's tag
  fw::TablePlacer placer_;
  // The core models a data cache, so the firmware's record accesses cost through it (21 a request
  // in a random-write run; without one the records are placed untimed and their accesses end in
  // fw::Hal::touch_record).
  bool records_cached_;
  std::vector<sc_core::sc_time> last_post_;  // per die: when its newest command was posted
  tlmx::VcdTracer* vcd_ = nullptr;
  int vcd_gc_ = -1;
  bool flow_aware_ = false;
  std::unordered_map<std::uint64_t, std::uint8_t> flow_class_of_request_;  // trail owner -> class, while in flight
};

}  // namespace ssd::platform
