// The controller's embedded core(s) running host-compiled, annotated firmware.
//
// Work arrives as jobs (a fetched host command, a flash completion). A free core takes the next
// job, runs the firmware natively, and the firmware annotates what it spends: cycles (at the
// core clock) and table accesses (TLM transactions to SRAM/DRAM through the system bus, issued
// at the job's local time, so they contend with DMA). Whatever the job starts (flash commands,
// DMA, completions) is posted with the local time as annotated delay. The core is busy until
// the job's local time has passed, then takes its next job.
//
// Which core runs a job is a policy (core.dispatch, see hw/core/core_dispatch.h): first_idle
// (one shared queue, the lowest-numbered free core takes the oldest job; the default),
// round_robin, least_loaded or channel_affinity. The firmware's state is shared: jobs run one
// at a time in the host but overlap in simulated time. One method process schedules every
// core, in core order, so which core goes first never depends on the kernel's process order;
// it wakes only when a posted job can start or a core with waiting work becomes free. A single
// core that finds several jobs waiting runs them back to back in one activation (the same
// timing as one after the other, with fewer kernel events).
//
// With a data cache (CoreConfig::dcache_bytes), a table access goes to the bus only for the
// lines it misses (a dirty victim written back first), as the ISS core's loads and stores do,
// and so do the firmware's accesses to its own records (access_record: operations in flight,
// write-buffer entries), which cost nothing apart without a cache (the calibrated cycles hold
// their stalls where the costs were measured).
//
// Each core's time splits into compute (cycles / clock), memory wait (table accesses: bus and
// memory latency plus contention) and idle (the rest of the run): compute_ticks,
// memory wait and, after finalize(), idle: durations under <name>.coreN (hw/stats.h).
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "common/metrics.h"
#include "hw/core/core_dispatch.h"
#include "hw/core/data_cache.h"
#include "hw/core/firmware_core.h"
#include "hw/stats.h"
#include "tlm/direct_access.h"
#include "tlm/time_base.h"
#include "tlm/vcd_tracer.h"

namespace ssd::hw {

struct CoreConfig {
  std::uint32_t count = 1;
  double clock_mhz = 400;
  std::string dispatch = "first_idle";  // one of core_dispatch_names()
  // annotated: host-compiled firmware charging cycles (this model); iss: the firmware image on
  // the instruction-set simulator (platforms/soc/controller_registers.h).
  std::string model = "annotated";
  // annotated: an L1 data cache per core in front of the table accesses (4-way, 32-byte lines,
  // write-back, as the ISS core's): a hit costs no bus transaction, a miss fills its line. 0: none,
  // every access is a bus transaction of its own bytes.
  std::uint32_t dcache_bytes = 0;
  // How a table access (or line fill) is timed on the bus and the memory: contended (booked on
  // their calendars at the job's local time, waiting for DMA and delaying it) or annotated
  // (TLM-2.0 loosely timed: their uncontended time, counted in transfers, bytes and energy but
  // neither booked nor in the busy time; cheaper, and blind to contention between the firmware
  // and DMA). core.table_access_timing.
  bool annotated_table_accesses = false;
};

class EmbeddedCore : public sc_core::sc_module, public FirmwareCore {
 public:
  tlm_utils::simple_initiator_socket<EmbeddedCore> bus;

  EmbeddedCore(sc_core::sc_module_name name, const CoreConfig& config, MetricsRegistry& metrics,
               tlmx::VcdTracer* vcd);

  void post(Job job, JobHint hint = {}) override;

  // Annotation API for the running job (outside a job, e.g. at boot, charges are ignored).
  void charge_cycles(std::uint64_t cycles) override;
  void access(std::uint64_t address, std::uint32_t bytes, bool write) override;
  void access_record(std::uint64_t address, std::uint32_t bytes, bool write) override;
  bool models_data_cache() const override { return cfg_.dcache_bytes != 0; }
  // Table accesses (and line fills) take this path instead of a transaction through `bus`, with
  // the same timing (tlm/direct_access.h), or annotated (CoreConfig::annotated_table_accesses);
  // `bus` still carries what the path refuses.
  void use_direct_access(tlmx::DirectAccess& path) { direct_ = &path; }
  sc_core::sc_time offset() const override { return sc_core::sc_time::from_value(offset_ticks_); }
  std::uint64_t offset_ticks() const override { return offset_ticks_; }
  bool in_job() const override { return in_job_; }
  unsigned current_core() const { return current_; }  // the core running the job (valid in a job)
  const CoreConfig& config() const { return cfg_; }

  // When the last job started so far ends (a job may end after the last kernel event).
  sc_core::sc_time drained_at() const;
  // Publishes each core's idle time for a run that lasted until `end` (not before drained_at()).
  void finalize(sc_core::sc_time end);
  // The power went at `now`: waiting jobs are dropped, a job still being charged ends now, and
  // the data caches' contents are gone. The cores boot idle (for the next firmware's jobs).
  void power_off(sc_core::sc_time now);

 private:
  struct Core {
    sc_core::sc_time busy_until;
    std::deque<Job> waiting;  // assigned to this core by the dispatch policy
    BusyTime* busy;
    std::uint64_t *compute_ticks, *memory_wait_ticks, *idle_ticks, *cycles, *table_accesses, *jobs;
    std::unique_ptr<DataCache> dcache;  // null: none
    std::uint64_t *dcache_hits = nullptr, *dcache_misses = nullptr;
    int vcd_busy = -1;
  };
  void cached_access(Core& c, std::uint64_t address, std::uint32_t bytes, bool write);
  void bus_access(Core& c, std::uint64_t address, std::uint32_t bytes, bool write);
  void schedule();                      // the method process: starts what can start, arms the next wake-up
  void run_jobs(unsigned core, sc_core::sc_time now);
  void arm_wake(sc_core::sc_time now);  // for the earliest free time of a core with work waiting
  bool has_work(const Core& c) const { return !c.waiting.empty() || !shared_.empty(); }
  std::size_t jobs_waiting() const;

  CoreConfig cfg_;
  std::unique_ptr<CoreDispatch> dispatch_;
  std::vector<Core> cores_;
  std::vector<CoreLoad> loads_;  // reused by post()
  std::deque<Job> shared_;       // jobs for whichever core is free first
  tlmx::CycleTicks cycle_ticks_;  // charges round once, not per cycle
  std::uint64_t offset_ticks_ = 0;  // the running job's local time (kept in ticks: charged many times a job)
  unsigned current_ = 0;         // the core running the job in progress
  bool in_job_ = false;
  sc_core::sc_event work_;
  bool armed_ = false;           // the scheduler waits for wake_at_ (or an earlier post)
  sc_core::sc_time wake_at_;
  tlm::tlm_generic_payload access_;
  tlmx::DirectAccess* direct_ = nullptr;
  std::vector<unsigned char> scratch_;
  std::uint64_t &cycles_, &accesses_, &access_ticks_;
  tlmx::VcdTracer* vcd_;
  int vcd_jobs_ = -1;
};

}  // namespace ssd::hw
