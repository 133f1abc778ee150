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
// from the controller's buffer to DRAM runs on, and the read completes when it is done. With
// multiplane on, operations of the same kind to the same page offset on different planes of a
// die run as one multi-plane operation: one array time, command cycles and data transfer per
// plane (partners are looked for among the first 32 queued commands, and may pass reads of their
// plane, nothing else).
//
// The ECC engine (reliability.errors): a page read's data is decoded once it is out of the die
// (ecc.t_decode_us before its DMA). A page that does not decode (hw/nand/read_error_model.h)
// is read again with shifted read voltages, as the die's next command: SET FEATURES and the read
// (read-retry, ecc.retry_steps times at most), then soft sensing and a soft decode; a page that
// still does not decode completes with kUncorrectableToken. The spare area of an OOB-only read
// has its own strong code and always decodes. The waveform shows retry and soft sensing as die
// states of their own, the latency breakdown as the read_retry and soft_decode stages.
//
// NAND command options (hw/nand/nand_timing.h, hw/channel/flash_die.h):
//   cache read     a read whose tR ends moves to the cache register and leaves the array to the
//                  die's next command if that is a read; its data out overlaps the next tR.
//   cache program  while the array programs, the die's next command, if a program, gets its DMA
//                  and data in; it starts tPROG as soon as the array is free.
//   suspend        a read reaching a die in tPROG (tBERS) suspends it: t_suspend, then reads are
//                  served (oldest first, those no queued program/erase of their block holds back),
//                  then the operation resumes. Not while a cache program's data is on the bus.
//
// The NAND contents and rules live in the shared NandArray; an operation is applied to it when
// its array time ends, and a rule violation stops the simulation with the array's message.
#pragma once

#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "common/metrics.h"
#include "hw/channel/bus_arbitration.h"
#include "hw/channel/die_queue_policy.h"
#include "hw/channel/flash_die.h"
#include "hw/nand/nand_array.h"
#include "hw/nand/nand_timing.h"
#include "hw/nand/read_error_model.h"
#include "hw/power/power_config.h"
#include "hw/stats.h"
#include "tlm/flash_command.h"
#include "tlm/vcd_tracer.h"

namespace ssd::hw {

struct ChannelControllerConfig {
  std::uint32_t channel = 0;
  FlashGeometry geometry;
  NandTiming nand;
  ChannelTiming bus;
  std::string scheduler = "fifo";             // the die queue policy (hw/channel/die_queue_policy.h)
  std::uint64_t dram_base = 0;                // system-bus address of the data buffer's address 0
  std::string arbitration = "command_first";  // who gets the bus (hw/channel/bus_arbitration.h)
  ReliabilityConfig reliability;              // bit errors, the ECC engine, read-retry (hw/nand/reliability_config.h)
  PowerConfig power;                          // the dies' array currents (hw/power/power_config.h)
};

class ChannelController : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ChannelController, 32, tlmx::flash_protocol_types> flash_target;
  tlm_utils::simple_initiator_socket<ChannelController> dma;  // to the system bus

  ChannelController(sc_core::sc_module_name name, const ChannelControllerConfig& config, NandArray& array,
                    MetricsRegistry& metrics, tlmx::VcdTracer* vcd);
  SC_HAS_PROCESS(ChannelController);

  void end_of_simulation_stats(sc_core::sc_time end);
  // The dies holding work (queued, on a track, suspended), each with its tracks' phases: "" when
  // none. At the end of a run, when nothing is left to happen, any is a lost wake-up.
  std::string describe_unfinished() const;
  // The power went at `now`: every program or erase whose array time had begun (running, being
  // suspended, or suspended) is cut short in the array (hw/nand/nand_array.h); one still on the
  // bus, queued or staged never reached it. What was destroyed is added to `damage`.
  void power_cut(sc_core::sc_time now, CutDamage& damage);
  // The power failed and the firmware stops its FTL's work for the hold-up (fw::Firmware::
  // stops_work_at_power_loss): the controller drops every program and erase that has not reached
  // a die (queued, or arriving later) unless it is power-loss work (tlmx::FlashCommand::hold_up).
  // Reads, and what a die has begun, go on. The dropped commands never complete.
  void power_fail();
  std::uint64_t commands_dropped() const { return dropped_; }
  // And then: every command queued, on a track, suspended or on its way is dropped (none
  // completes), and the channel and its dies are idle, ready for the firmware that boots next.
  // The dies' and the bus's busy time booked beyond `now` must already be truncated.
  void power_off(sc_core::sc_time now);

 private:
  using Phase = DiePhase;
  using Op = QueuedCommand;
  using Die = FlashDie;
  using Track = DieTrack;
  // Reads whose data is out of the die, completing when their DMA to DRAM is done.
  struct Outgoing {
    sc_core::sc_time done;
    std::vector<Op> ops;
  };
  // What a track may start now: anything; the policy's next command only if it is a read (cache
  // read) or a program (cache program); the oldest read nothing holds back (a suspended die).
  enum class Pick : std::uint8_t { Any, NextIfRead, NextIfProgram, OldestFreeRead };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void step();
  void advance(Die& die, Track& t, sc_core::sc_time now);
  void end_array(Die& die, sc_core::sc_time now);
  void schedule(Die& die, sc_core::sc_time now);
  bool start(Die& die, Track& t, Pick pick, sc_core::sc_time now);       // false: nothing started
  bool pick_group(Die& die, Track& t, Pick pick, sc_core::sc_time now);  // false: nothing to start yet
  bool try_suspend(Die& die, sc_core::sc_time now);
  void resume(Die& die, sc_core::sc_time now);
  void begin_array(Die& die, sc_core::sc_time from, sc_core::sc_time array_time);
  // The energy the array of the track's operation spent over [from, to): vcc x its current x
  // the time, per plane it drives (power.nand_*).
  void charge_array(const Track& t, sc_core::sc_time from, sc_core::sc_time to);
  sc_core::sc_time array_time(const Track& t) const;
  // A program says its mode; a read or an erase works in the mode its block was programmed in.
  bool in_slc_mode(const tlmx::FlashCommand& c) const {
    return c.opcode == tlmx::FlashOpcode::Program ? c.slc : array_.is_slc(cfg_.geometry.block_of(c.ppn));
  }
  void arbitrate(sc_core::sc_time now);
  void grant(Die& die, Track& t, sc_core::sc_time now);
  void respond(const std::vector<Op>& ops);
  // The operations' latency trails (common/latency_trail.h) reach `at` in stage `s`.
  // A read being retried spends every stage in read_retry, or soft_decode.
  static void mark(const std::vector<Op>& ops, Stage s, sc_core::sc_time at) {
    for (const Op& o : ops) o.cmd->trail.advance(stage_of(*o.cmd, s), at.value());
  }
  static Stage stage_of(const tlmx::FlashCommand& c, Stage s) {
    return c.soft ? Stage::SoftDecode : c.retry_step ? Stage::ReadRetry : s;
  }
  // After a read's data out: which pages decode; the others go back to the die to be read again.
  sc_core::sc_time decode(Die& die, std::vector<Op>& group, sc_core::sc_time now);
  bool decodes(Die& die, tlmx::FlashCommand& cmd);
  std::uint32_t out_bytes(const Track& t) const;  // a read's data out: the page, and its soft bits
  void send_out(Die& die, Track& t, sc_core::sc_time now);
  void complete_outgoing(sc_core::sc_time now);
  sc_core::sc_time dma_transfer(Die& die, const std::vector<Op>& group, tlm::tlm_command command,
                                sc_core::sc_time start = sc_core::SC_ZERO_TIME);
  void set_phase(Die& die, Track& t, Phase p, sc_core::sc_time now);
  void trace_state(Die& die, const Track& t, std::uint64_t code, sc_core::sc_time at);
  bool anyone_waits_for_bus() const;
  std::uint32_t data_bytes(tlmx::FlashOpcode op) const;  // moved per plane: page, or spare area only
  void trace_queue(Die& die);

  ChannelControllerConfig cfg_;
  std::unique_ptr<DieQueuePolicy> queue_policy_;
  std::unique_ptr<BusArbitration> arbitration_;
  std::vector<BusRequest> waiting_;  // arbitration scratch: tracks waiting for the bus
  std::vector<std::pair<Die*, Track*>> waiting_tracks_;
  std::vector<Outgoing> outgoing_;             // unordered; a handful at most
  std::vector<std::vector<Op>> spare_groups_;  // recycled vectors (no allocation per read)
  sc_core::sc_event outgoing_done_;
  NandArray& array_;
  tlmx::VcdTracer* vcd_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> posted_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> retried_;  // reads the ECC engine sends back to their die
  std::vector<std::unique_ptr<Die>> dies_;
  sc_core::sc_time bus_free_at_;
  sc_core::sc_event bus_free_;  // notified only when a die waits for the bus
  std::vector<unsigned char> dma_dummy_;
  BusyTime& bus_busy_;
  std::uint64_t& bus_transfers_;
  int vcd_owner_ = -1;
  std::uint32_t first_die_;     // global index of this channel's die 0
  bool power_failing_ = false;  // see power_fail
  std::uint64_t dropped_ = 0;
  // reliability.errors: the decode outcomes (this channel's stream) and the ECC engine's times.
  std::unique_ptr<ReadErrorModel> errors_;
  sc_core::sc_time t_decode_, t_soft_decode_, t_retry_setup_, t_soft_sense_;
  EnergyMeter &read_energy_, &program_energy_, &erase_energy_;
  MetricSet* stats_ = nullptr;
  LatencyHistogram* retry_steps_ = nullptr;  // per decoded page read: retry steps (soft: steps + 1)
  double rber_sum_ = 0, rber_max_ = 0;       // the first read's RBER, over decoded page reads
};

}  // namespace ssd::hw
