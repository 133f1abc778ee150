// The host: replays a workload into the drive's NVMe interface as a TLM initiator, writes a
// fresh data token per logical page per write and checks every read with the integrity oracle.
//
// Open loop: each request is submitted at its trace time (x time_scale), or as soon after as
// the queue depth and ordering allow. Closed loop: `queue_depth` requests are kept outstanding.
// Either way a request that conflicts with one in flight or held before it (overlapping pages,
// at least one a write) is held until that one completes: NVMe does not order commands, so a
// host that wants read-after-write must wait. Only the overlapping request waits; the requests
// behind it go on (a held request keeps its place in the queue depth). The count is reported as
// host.held_for_ordering. Latency is measured from the request's arrival (its trace time in
// open loop, the moment a slot frees in closed loop) to the completion reaching the host, so
// it includes the time held.
//
// Queues: the host submits each request to its I/O queue (HostRequest::queue; one per flow, as a
// host gives each core its own queue pair), and each queue has its own depth: a request waits for
// a free slot of its queue only, in its queue's backlog, while the other queues' requests go on. With more than one queue the report gives each flow's figures
// apart (host.flows.<queue>: its operations, bytes, latency histograms and latency breakdown, and
// when its first request arrived, its first completed and its last completed).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "common/host_addressing.h"
#include "common/metrics.h"
#include "stimuli/durability_tracker.h"
#include "stimuli/host_request.h"
#include "stimuli/integrity_oracle.h"
#include "stimuli/request_admission.h"
#include "tlm/host_protocol.h"
#include "tlm/vcd_tracer.h"

namespace ssd::stimuli {

struct HostModelConfig {
  std::uint32_t queue_depth = 16;
  // Open or closed loop, time scale, folding, and the drive's bounds every request is checked
  // against (capacity, buffer and page size are filled in by the testbench).
  AdmissionRules admission;
  // Called every 1,024 completions with the count so far, the simulated time and the share of
  // the workload read (negative: unknown), for progress lines.
  std::function<void(std::uint64_t completed, double simulated_s, double fraction)> progress;
  // Called at every completion with the count so far and the simulated time: the liveness
  // guard's heartbeat (platforms/run/liveness_guard.h).
  std::function<void(std::uint64_t completed, double simulated_s)> heartbeat;
  // A power cut is planned (--power-cut-at/--power-cut-after): the host keeps what is durable
  // (stimuli/durability_tracker.h); `volatile_write_cache`: the drive acknowledges writes before
  // they are on the flash. stop_after: the simulation stops when that many requests completed.
  bool track_durability = false;
  bool volatile_write_cache = false;
  std::uint64_t stop_after = 0;
  // The I/O queues and their depths (each > 0); empty: one queue of queue_depth. queue_depth is
  // then their sum (the testbench sets both).
  std::vector<IoQueueSpec> queues{};
};

class HostModel : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostModel, 32, tlmx::host_protocol_types> nvme;

  HostModel(sc_core::sc_module_name name, const HostModelConfig& config, Workload& workload, IntegrityOracle& oracle,
            MetricsRegistry& metrics, tlmx::VcdTracer* vcd);
  SC_HAS_PROCESS(HostModel);

  bool finished() const { return finished_; }
  std::uint32_t queue_depth() const { return cfg_.queue_depth; }
  const std::vector<IoQueueSpec>& io_queues() const { return cfg_.queues; }
  // A workload error (bad trace line, request beyond the drive) stops the simulation; the
  // runner rethrows it after sc_start returns, so it is reported as bad input.
  const std::string& workload_error() const { return workload_error_; }
  const sc_core::sc_event& finished_event() const { return finished_event_; }
  std::uint64_t completed() const { return completed_; }
  std::uint64_t outstanding() const { return outstanding_; }
  const DurabilityTracker* durability() const { return durability_.get(); }
  // The power went: nothing more is submitted, and completions the drive still posts (capacitors
  // hold it up) never reach the host: they are not acknowledged.
  void power_off() { powered_ = false; }
  // The drive is back after its recovery (--after-recovery continue): the requests in flight at the
  // cut were never acknowledged and are given up (the host's application sees them fail), and the
  // workload goes on from where it was. Durability is no longer tracked (there is one cut a run).
  // Returns the requests given up.
  std::uint64_t power_on();
  sc_core::sc_time first_arrival() const { return first_arrival_; }
  sc_core::sc_time last_completion() const { return last_completion_; }

 private:
  struct Slot {
    tlm::tlm_generic_payload trans;
    tlmx::HostCommandExtension* ext = nullptr;
    sc_core::sc_time arrival;
    std::uint64_t serial = 0;  // the request's number, its latency trail's owner
    std::uint32_t queue = 0;   // the I/O queue the slot belongs to
  };
  // One flow's figures (host.flows.<queue>), with more than one queue.
  // The latency histograms of one set of figures (the host's, "host", or a flow's,
  // "host.flows.N"): per operation, <op>_latency_ns, and per operation and stage,
  // <set>.latency_breakdown.<op> (common/latency_trail.h; kernel ticks).
  struct OperationFigures {
    static constexpr std::size_t kOps = 4;  // HostOp: read, write, flush, trim
    std::array<LatencyHistogram*, kOps> latency{};
    std::array<std::array<LatencyHistogram*, kStages>, kOps> stages{};
    void bind(MetricsRegistry& metrics, const std::string& set);
    LatencyHistogram& latency_of(HostOp op) const { return *latency[static_cast<std::size_t>(op)]; }
    void record_stages(HostOp op, const LatencyTrail& trail) const;
  };
  struct Flow {
    MetricSet* set = nullptr;
    OperationFigures figures;
    bool started = false, served = false;  // its first request sent; its first completed
  };
  void record_flow(Flow& flow, const tlmx::HostCommandExtension& ext, std::uint64_t latency_ns, sc_core::sc_time now);
  void issue();
  void replay();
  std::uint32_t queue_of(const HostRequest& req) const;  // throws WorkloadError for a queue that is not there
  std::string at_position(const std::string& what) const;  // "trace.csv:12: what" (the workload's position)
  // Rejects a malformed request or one beyond the drive, or folds it in (--fold).
  // Hands the request to the drive in a free command slot.
  void send(const HostRequest& req, sc_core::sc_time arrival, const PageSpan& span);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);

  HostModelConfig cfg_;
  RequestAdmission admission_;
  Workload& workload_;
  IntegrityOracle& oracle_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::vector<std::uint32_t>> free_;  // per queue: its free slots
  std::vector<std::uint32_t> parked_in_;          // per queue: requests parked, each keeping a slot's place
  std::vector<Flow> flows_;
  void reset_slots();
  InFlightPages in_flight_;
  // A request that overlaps one in flight (or an earlier parked one) waits parked while the
  // requests behind it go on. Members, not replay()'s locals: a power cut leaves that thread
  // suspended for good, and what its stack alone held would be a leak at exit.
  struct ParkedRequest {
    HostRequest req;
    PageSpan span;
    sc_core::sc_time arrival;  // latency counts the time parked
  };
  std::vector<ParkedRequest> parked_;
  // Several queues: per queue, the requests waiting for one of its slots (see replay()).
  std::vector<std::deque<ParkedRequest>> backlog_;
  std::uint64_t backlogged_ = 0;
  static constexpr std::uint64_t kMaxBacklog = 1u << 20;
  InFlightPages still_parked_;  // the pages of the requests left in parked_
  sc_core::sc_event slot_freed_, finished_event_, power_on_;
  bool finished_ = false, first_ = true;
  std::string workload_error_;
  std::uint64_t outstanding_ = 0, completed_ = 0, serial_ = 0;
  sc_core::sc_time first_arrival_, last_completion_;
  std::uint64_t &reads_, &writes_, &read_bytes_, &write_bytes_, &held_, &folded_;
  double& arrival_span_s_;  // first to last arrival
  std::uint64_t &flushes_, &fua_writes_;
  std::uint64_t &trims_, &trim_bytes_;
  IntervalSeries& over_time_;
  OperationFigures figures_;  // the host's (a rejected write's latency is not a write's)
  // The request's latency trail must end now and cover its whole latency.
  void check_trail(const tlmx::HostCommandExtension& ext, const Slot& slot, sc_core::sc_time now);
  MetricsRegistry& metrics_;
  // An issuer's figures, each looked up by name once, when first counted (a figure appears in
  // the report only once something is counted in it).
  struct IssuerFigures {
    MetricSet* set = nullptr;
    std::array<std::uint64_t*, 4> completions{};  // by HostOp: "reads", "writes", "flushes", "trims"
    LatencyHistogram* latency = nullptr;           // "latency_ns": the data's
  };
  std::map<std::uint32_t, IssuerFigures> issuers_;  // the first kMaxIssuers issuers
  IssuerFigures other_issuers_;                     // the rest, as one
  IssuerFigures& issuer_figures(std::uint32_t issuer);
  static constexpr std::size_t kMaxIssuers = 64;
  tlmx::VcdTracer* vcd_;
  int vcd_outstanding_ = -1;
  std::unique_ptr<DurabilityTracker> durability_;
  bool powered_ = true;
};

}  // namespace ssd::stimuli
