// NVMe-style host interface: the host's I/O queue pairs (create_io_queues; one of `queue_depth`
// entries unless the host creates others), the controller's command fetch with arbitration
// between the submission queues (hw/host/submission_arbiter.h), interrupt coalescing on the
// completion side, a PCIe-like host link (lanes x rate x encoding efficiency, one-way latency,
// separate directions), and the DMA engine that moves command data between host memory and the
// DRAM data buffer over the link and the system bus.
//
// Fetching: the controller holds at most `controller_commands` commands fetched and not yet
// completed (0: every queue's entries, so nothing waits to be fetched and arbitration decides only
// the order of fetches rung at the same instant). When it has room and queues hold commands, the
// arbiter picks the queue of each next fetch.
//
// Power states (hw/power/idle_power_states.h): once the controller holds no command, the drive
// and its link may sleep; the first doorbell after the gap is fetched when they are awake again.
//
// Interrupt coalescing (NVMe Set Features, Interrupt Coalescing): a completion entry in host
// memory is seen by the host when its queue's interrupt fires: once `coalescing_threshold`
// entries wait, or `coalescing_time` after the first of them arrived. The wait is part of the
// completion stage of the latency breakdown. Off with a threshold of 0 or 1.
//
// Timing (each link transfer is booked in the first free gap of its direction at or after it is
// ready, takes bytes / bandwidth, then the one-way latency):
//   command:    doorbell (latency) + SQE fetch (request latency + 64 B down)  -> firmware
//   write data: read request (latency) + data down + system-bus write to DRAM
//   read data:  system-bus read from DRAM + data up
//   completion: CQE 16 B up (+ the interrupt in the same posted stream)        -> host
//
// Bound by sockets on both sides (tlm/host_protocol.h): `host` to the host model, `dma` to the
// system bus, `fetched_commands` and `firmware_requests` to the firmware's HAL.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <deque>
#include <memory>
#include <vector>

#include "common/io_queue.h"
#include "common/metrics.h"
#include "hw/host/submission_arbiter.h"
#include "hw/power/idle_power_states.h"
#include "hw/stats.h"
#include "tlm/busy_calendar.h"
#include "tlm/callback_queue.h"
#include "tlm/host_protocol.h"
#include "tlm/vcd_tracer.h"

namespace ssd::hw {

struct HostLinkConfig {
  std::uint32_t lanes = 4;
  double lane_gtps = 8.0;                 // giga-transfers (bits) per second per lane
  double encoding = 128.0 / 130.0;        // payload share of the line rate
  sc_core::sc_time latency{500, sc_core::SC_NS};  // one way
  std::uint32_t queue_depth = 64;         // entries of each submission queue
  std::uint64_t mdts_bytes = 0;           // largest command; the host splits larger requests (0: the data buffer's)
  ArbitrationConfig arbitration;
  std::uint32_t controller_commands = 0;  // fetched and not completed, at most (0: every queue's entries)
  std::uint32_t coalescing_threshold = 0; // completion entries per interrupt (0 or 1: one interrupt each)
  sc_core::sc_time coalescing_time = sc_core::SC_ZERO_TIME;  // the longest an entry waits for its interrupt
  double bytes_per_second() const { return double(lanes) * lane_gtps * 1e9 * encoding / 8.0; }
};

class HostInterface : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<HostInterface, 32, tlmx::host_protocol_types> host;
  tlm_utils::simple_initiator_socket<HostInterface> dma;  // to the system bus
  // Each fetched command, to the firmware's HAL.
  tlm_utils::simple_initiator_socket<HostInterface, 32, tlmx::host_firmware_protocol_types> fetched_commands;
  // Data DMAs and completion entries the firmware asks for.
  tlm_utils::simple_target_socket<HostInterface, 32, tlmx::host_firmware_protocol_types> firmware_requests;

  HostInterface(sc_core::sc_module_name name, const HostLinkConfig& config, const PowerConfig& power,
                std::uint64_t dram_base, MetricsRegistry& metrics, tlmx::VcdTracer* vcd);
  SC_HAS_PROCESS(HostInterface);

  // The host's I/O queue pairs (before the simulation starts), replacing the one of queue_depth
  // entries the interface starts with. Each has IoQueueSpec::depth entries (0: queue_depth; more
  // is refused with std::invalid_argument). Commands name their queue (HostCommandExtension::queue).
  void create_io_queues(const std::vector<IoQueueSpec>& queues);
  std::size_t io_queues() const { return queues_.size(); }

  // The power went: doorbells not yet seen, fetches, DMAs and completions under way are dropped,
  // and every submission slot is free (the host's commands in flight never complete).
  void power_off();

 private:
  struct Slot {
    tlm::tlm_generic_payload* trans = nullptr;
    tlmx::HostCommandExtension* ext = nullptr;
  };
  struct QueuePair {
    std::deque<tlm::tlm_generic_payload*> submitted;  // doorbell seen, not fetched yet
    std::uint32_t outstanding = 0;                    // submitted, completion not yet seen by the host
    std::vector<tlm::tlm_generic_payload*> posted;    // completion entries waiting for the interrupt
    std::uint64_t interrupt_generation = 0;           // a coalescing timer of an older generation is void
    std::uint64_t* fetched = nullptr;
  };
  struct Direction {
    tlmx::BusyCalendar calendar;
    BusyTime* busy = nullptr;  // when the direction carried data
  };
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  tlm::tlm_sync_enum firmware_request(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void accept();
  void admit(tlm::tlm_generic_payload* trans);  // a doorbell the awake controller takes
  bool holds_nothing() const;  // no command fetched or waiting to be: the drive is idle
  // Fetches while the controller has room and a queue holds commands, in the arbiter's order.
  void fetch_arbitrated();
  void fetch(std::uint32_t queue);
  // The completion entry of `trans` (queue `queue`) is in host memory: the host sees it at the
  // queue's next interrupt.
  void post_completion(std::uint32_t queue, tlm::tlm_generic_payload* trans);
  void interrupt(std::uint32_t queue);
  std::uint32_t entries_of(const IoQueueSpec& q) const { return q.depth ? q.depth : cfg_.queue_depth; }
  std::uint32_t capacity() const { return static_cast<std::uint32_t>(slots_.size()); }
  void reset_slots();
  // The firmware's requests, effective at now + delay.
  void start_dma(tlm::tlm_generic_payload& trans, tlmx::HostDmaRequest& dma, sc_core::sc_time delay);
  void complete(std::uint32_t slot, sc_core::sc_time delay, const LatencyTrail& trail, HostStatus status);
  // Arrival time at the far end of a transfer of `bytes` that may start at `ready`.
  sc_core::sc_time link(Direction& dir, sc_core::sc_time ready, std::uint64_t bytes);
  sc_core::sc_time bus_transfer(bool to_dram, std::uint64_t addr, std::uint32_t bytes, sc_core::sc_time at);

  HostLinkConfig cfg_;
  std::uint64_t dram_base_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> doorbells_;
  tlmx::CallbackQueue later_;
  std::vector<Slot> slots_;  // the controller's commands, fetched and not completed
  std::vector<std::uint32_t> free_slots_;
  std::vector<IoQueueSpec> queue_specs_;
  std::vector<QueuePair> queues_;
  std::vector<std::uint32_t> waiting_;  // per queue: submitted and not fetched (the arbiter's view)
  std::unique_ptr<SubmissionArbiter> arbiter_;
  MetricsRegistry& metrics_;
  IdlePowerStates power_states_;
  std::deque<tlm::tlm_generic_payload*> waking_;  // doorbells that came while the drive slept
  sc_core::sc_time awake_at_;                      // when the wake-up under way ends
  sc_core::sc_event woken_;
  std::uint64_t* interrupts_ = nullptr;  // with coalescing on
  Direction down_, up_;
  tlm::tlm_generic_payload dma_trans_;
  tlm::tlm_generic_payload fetch_trans_;  // reused: the HAL takes what it needs at once
  tlmx::FetchedCommand* fetched_;         // owned by fetch_trans_
  std::vector<unsigned char> scratch_;
  std::uint64_t &commands_, &bytes_down_, &bytes_up_, &link_wait_ticks_;
  tlmx::VcdTracer* vcd_;
  int vcd_outstanding_ = -1;
};

}  // namespace ssd::hw
