// A flash channel controller with its ONFI channel and the NAND dies (ways x dies per way) on it.
//
// Event-driven: one method wakes only when a command arrives, a die finishes a phase, or the
// bus frees while a die waits for it; at a bus grant it computes when the die's bus and array
// phases end (and traces both), so an uncontended operation costs few wakes. Phases:
//   read:    [bus: command/address cycles] [die: tR] [bus: data out] [system bus: DMA to DRAM]
//            (an OOB read moves only the spare area's bytes out and to DRAM)
//   program: [system bus: DMA from DRAM] [bus: command/address + data in] [die: tPROG]
//   erase:   [bus: command/address cycles] [die: tBERS]
// The channel carries one transfer at a time; array time occupies only the die, so the other
// dies use the bus meanwhile (way interleaving). Which waiting die gets the bus is the
// arbitration policy (channel.arbitration, hw/channel/bus_arbitration.h); which of a die's
// queued commands runs next is the die queue policy (channel.scheduler, die_queue_policy.h).
// A die is free for its next command once a read's data is out of its page register: the DMA
// from the controller's buffer to DRAM runs on, and the read completes when it is done. With multiplane on, operations of the
// same kind to the same page offset on different planes of a die run as one multi-plane
// operation: one array time, command cycles and data transfer per plane (partners are looked
// for among the first 32 queued commands, and may pass reads of their plane, nothing else).
//
// The NAND contents and rules live in the shared NandArray; an operation is applied to it when
// its array time ends, and a rule violation stops the simulation with the array's message.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/metrics.h"
#include "hw/channel/bus_arbitration.h"
#include "hw/channel/die_queue_policy.h"
#include "hw/nand/nand_array.h"
#include "hw/nand/nand_timing.h"
#include "hw/stats.h"
#include "tlm/flash_command.h"
#include "tlm/vcd_tracer.h"

namespace ssd::hw {


struct ChannelControllerConfig {
  std::uint32_t channel = 0;
  FlashGeometry geometry;
  NandTiming nand;
  ChannelTiming bus;
  std::string scheduler = "fifo";  // the die queue policy (hw/channel/die_queue_policy.h)
  std::uint64_t dram_base = 0;  // system-bus address of the data buffer's address 0
  std::string arbitration = "command_first";  // who gets the bus (hw/channel/bus_arbitration.h)
};

class ChannelController : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ChannelController, 32, tlmx::flash_protocol_types> flash_target;
  tlm_utils::simple_initiator_socket<ChannelController> dma;  // to the system bus

  ChannelController(sc_core::sc_module_name name, const ChannelControllerConfig& config, NandArray& array,
                    MetricsRegistry& metrics, tlmx::VcdTracer* vcd);
  SC_HAS_PROCESS(ChannelController);

  void end_of_simulation_stats(sc_core::sc_time end);

 private:
  // Array covers the command/address (+ data-in) bus phase and the array time after it;
  // DataOut the data-out bus phase (the DMA to DRAM after it no longer holds the die).
  enum class Phase : std::uint8_t { Idle, DmaIn, WantBusCmd, Array, WantBusOut, DataOut };
  using Op = QueuedCommand;
  // Reads whose data is out of the die, completing when their DMA to DRAM is done.
  struct Outgoing {
    sc_core::sc_time done;
    std::vector<Op> ops;
  };
  struct Die {
    std::uint32_t index = 0;
    std::deque<QueuedCommand> queue;
    std::vector<Op> group;  // the operation (or multi-plane group) in progress
    Phase phase = Phase::Idle;
    sc_core::sc_time until, ready_since, busy_since;
    sc_core::sc_event event;
    tlm::tlm_generic_payload dma_trans;
    std::uint64_t *busy_ticks = nullptr, *reads = nullptr, *programs = nullptr, *erases = nullptr, *multiplane = nullptr;
    int vcd_state = -1, vcd_queue = -1;
  };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void step();
  void advance(Die& die, sc_core::sc_time now);
  void start(Die& die, sc_core::sc_time now);
  bool pick_group(Die& die, sc_core::sc_time now);  // false: the die waits for a partner
  void arbitrate(sc_core::sc_time now);
  void finish(Die& die, sc_core::sc_time now);
  void respond(const std::vector<Op>& ops);
  void complete_outgoing(sc_core::sc_time now);
  sc_core::sc_time dma_transfer(Die& die, tlm::tlm_command command, sc_core::sc_time start);
  void set_phase(Die& die, Phase p, sc_core::sc_time now);
  void trace_state(Die& die, std::uint64_t code, sc_core::sc_time at);
  bool anyone_waits_for_bus() const;
  std::uint32_t data_bytes(tlmx::FlashOpcode op) const;  // moved per plane: page, or spare area only
  void trace_queue(Die& die);

  ChannelControllerConfig cfg_;
  std::unique_ptr<DieQueuePolicy> queue_policy_;
  std::unique_ptr<BusArbitration> arbitration_;
  std::vector<BusRequest> waiting_;     // arbitration scratch: dies waiting for the bus
  std::vector<Die*> waiting_dies_;
  std::vector<Outgoing> outgoing_;      // unordered; a handful at most
  std::vector<std::vector<Op>> spare_groups_;  // recycled vectors (no allocation per read)
  sc_core::sc_event outgoing_done_;
  NandArray& array_;
  tlmx::VcdTracer* vcd_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> posted_;
  std::vector<std::unique_ptr<Die>> dies_;
  sc_core::sc_time bus_free_at_;
  sc_core::sc_event bus_free_;  // notified only when a die waits for the bus
  std::vector<unsigned char> dma_dummy_;
  std::uint64_t &bus_busy_ticks_, &bus_transfers_;
  int vcd_owner_ = -1;
  std::uint32_t first_die_;  // global index of this channel's die 0
};

}  // namespace ssd::hw
