// The controller's embedded core(s) running host-compiled, annotated firmware.
//
// Work arrives as jobs (a fetched host command, a flash completion). An idle core takes the
// next job, runs the firmware natively, and the firmware annotates what it spends: cycles
// (at the core clock) and table accesses (TLM transactions to SRAM/DRAM through the system bus,
// issued at the job's local time, so they contend with DMA). Whatever the job starts (flash
// commands, DMA, completions) is posted with the local time as annotated delay. The core is
// busy until the job's local time has passed, then takes the next job. With several cores,
// jobs go to whichever core is idle; the firmware's state is shared (jobs run one at a time in
// the host, but overlap in simulated time). A single core that finds several jobs waiting runs
// them back to back in one activation (the same timing as one after the other, with fewer
// kernel events); each core is a method process, so no thread stacks are switched.
#pragma once

#include <deque>
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "common/metrics.h"
#include "tlm/vcd_tracer.h"

namespace ssd::hw {

struct CoreConfig {
  std::uint32_t count = 1;
  double clock_mhz = 400;
};

class EmbeddedCore : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<EmbeddedCore> bus;

  EmbeddedCore(sc_core::sc_module_name name, const CoreConfig& config, MetricsRegistry& metrics,
               tlmx::VcdTracer* vcd);

  using Job = std::function<void()>;
  void post(Job job);

  // Annotation API for the running job (outside a job, e.g. at boot, charges are ignored).
  void charge_cycles(std::uint64_t cycles);
  void access(std::uint64_t address, std::uint32_t bytes, bool write);
  sc_core::sc_time offset() const { return offset_; }
  bool in_job() const { return in_job_; }
  const CoreConfig& config() const { return cfg_; }

 private:
  void run(unsigned core);

  struct CoreState {
    bool busy = false;
    sc_core::sc_time busy_until;
  };
  CoreConfig cfg_;
  std::vector<CoreState> cores_;
  double period_ticks_;  // a cycle in kernel ticks, unrounded: charges round once, not per cycle
  sc_core::sc_time offset_;
  std::deque<Job> jobs_;
  sc_core::sc_event work_;
  bool in_job_ = false;
  tlm::tlm_generic_payload access_;
  std::vector<unsigned char> scratch_;
  std::vector<std::uint64_t*> busy_ticks_, jobs_run_;
  std::uint64_t &cycles_, &accesses_, &access_ticks_;
  tlmx::VcdTracer* vcd_;
  std::vector<int> vcd_busy_;
  int vcd_jobs_ = -1;
};

}  // namespace ssd::hw
