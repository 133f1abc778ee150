// The controller's registers in front of the ISS core (core.model: iss): what the firmware
// image (fw/target/) drives through common/controller_mmio.h, turned into the same hardware
// traffic the annotated firmware makes through the co-simulation HAL (platforms/soc/cosim_hal.h).
//
//   host interface --fetched command--> CoSimHal --post(job)--> ControllerRegisters
//        ^                                  ^                      | event register read: the
//        | DMA, completion entries          | issue(), complete()  | job runs, fills the image's
//        |                                  |                      v mailbox
//        +---------------- CoSimHal <-- descriptor registers <-- image on hw::IssCore
//
// Events wait in arrival order; the image takes one with each read of the event register and
// waits there (the core idle) while there is none. Every register access synchronises the
// core with SystemC time first, so what the image starts, starts when it executed. A command's
// host data tokens show in the token window at the command's id (the image reads a write's,
// fills a read's), as the annotated firmware reads them from the fetched command.
//
// Statistics as the annotated core publishes them (<name>.core0: utilization, compute,
// memory_wait, idle, cycles, table_accesses = bus accesses, jobs = events), plus what the ISS
// counts: instructions, per class, bus stall.
#pragma once

#include <cstdint>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "common/controller_mmio.h"
#include "common/metrics.h"
#include "fw/firmware/host_command.h"
#include "fw/ftl/ftl.h"
#include "fw/hal/hal.h"
#include "hw/core/firmware_core.h"
#include "hw/iss/iss_core.h"
#include "hw/stats.h"
#include "tlm/vcd_tracer.h"

namespace ssd::platform {

class CoSimHal;

// What the image reported when it finished booting.
struct FirmwareBoot {
  std::uint32_t logical_pages = 0;
  std::uint32_t logical_block_pages = 0;
  std::map<std::string, std::string> effective_parameters;
  std::vector<std::string> warnings;
};

class ControllerRegisters : public sc_core::sc_module,
                            public hw::FirmwareCore,
                            public fw::HostCommandHandler,
                            public fw::HalListener {
 public:
  // `core` comes with its bus windows; the image is loaded and booted by boot().
  ControllerRegisters(sc_core::sc_module_name name, const hw::IssConfig& core, MetricsRegistry& metrics);

  hw::IssCore& core() { return *core_; }
  // Traces, per sample of the core's time (hw::IssConfig::sample_period), the function running
  // (ssd.cores.core0_function: its index into function_names(), which the waveform view turns into
  // names with a translate filter) and the instructions retired (ssd.cores.core0_instructions).
  // Before boot.
  void trace_to(tlmx::VcdTracer* vcd);
  const FirmwareBoot& boot_report() const { return boot_; }

  // Loads `image`, hands it `boot_text` (fw/firmware/boot_config.h) and runs it untimed until it
  // reports ready; its requests go to `hal`. Throws naming the image when it fails.
  const FirmwareBoot& boot(const std::string& image, const std::string& boot_text, CoSimHal& hal);

  // FirmwareCore: the co-simulation HAL's events become the image's.
  void post(Job job, hw::JobHint hint) override;
  void charge_cycles(std::uint64_t) override;
  void access(std::uint64_t, std::uint32_t, bool) override;
  sc_core::sc_time offset() const override { return core_->local_time(); }
  bool in_job() const override { return true; }
  // Fills the image's mailbox with the event the running job delivers.
  void on_host_command(const fw::HostCommand& cmd) override;
  void on_hal_complete(std::uint32_t tag, const fw::HalResult& result) override;

  // The firmware's mapping, asked of the image through its debug entry points a range at a time.
  void locate(Lpn first, std::uint32_t count, Ppn* out);
  void valid_pages(Ppn first, std::uint32_t count, std::uint8_t* out);
  std::vector<std::pair<Lpn, Token>> buffered_pages();
  std::string check_metadata(const fw::Ftl::PageReader& read_page);
  std::string unfinished_work();
  // Copies the image's metric sets (counters and gauges) into `metrics`.
  void export_metrics(MetricsRegistry& metrics);
  // Writes one CSV line per firmware job (each event the image took, up to its next wait for
  // one) to `path`: its kind, issue and stall cycles, and what the annotated model would have
  // charged for it (mmio::WorkCounters). For tools/calibrate.py. Throws if it cannot be written.
  void log_jobs(const std::string& path);
  // Publishes idle time and the ISS's counts for a run that lasted until `end`.
  void finalize(sc_core::sc_time end);

 private:
  std::uint32_t read_register(std::uint32_t offset);
  void write_register(std::uint32_t offset, std::uint32_t value);
  std::uint32_t next_event();
  void log_job();
  void place_table(std::uint32_t address);
  void booted(std::uint32_t address);
  template <typename T>
  T fetch(std::uint32_t address) {
    T value;
    core_->read_memory(address, &value, sizeof value);
    return value;
  }
  std::uint32_t read_token(std::uint32_t offset, unsigned bytes);
  void write_token(std::uint32_t offset, unsigned bytes, std::uint32_t value);
  Token* token_slot(std::uint32_t offset);

  std::unique_ptr<hw::IssCore> core_;
  CoSimHal* hal_ = nullptr;
  std::vector<BlockId> factory_bad_;   // as read by mmio::kBadBlockCount
  std::uint32_t bad_block_index_ = 0;  // mmio::kBadBlockIndex
  MetricsRegistry* export_to_ = nullptr;
  const fw::Ftl::PageReader* page_reader_ = nullptr;  // during check_metadata
  std::string boot_text_;
  FirmwareBoot boot_;
  bool booting_ = false;
  std::uint32_t heap_start_ = 0, heap_end_ = 0;
  std::uint32_t mailbox_ = 0;
  std::uint32_t time_high_ = 0;
  mmio::EventKind delivered_ = mmio::EventKind::None;
  std::deque<Job> events_;
  sc_core::sc_event posted_;
  std::uint64_t busy_since_ = 0;
  bool waiting_ = false;
  // Per command id: its host data tokens, how many pages they cover, and the latest of its
  // request's latency trail (below).
  struct Command {
    Token* tokens = nullptr;
    std::uint32_t pages = 0;
    LatencyTrail trail;
  };
  std::vector<Command> commands_;
  std::uint32_t page_bytes_ = 0;
  // Latency trails (common/latency_trail.h), which the image does not carry: what the image
  // submits or completes while it handles an event continues that event's trail when it is work
  // of the same request (or of none, as GC on a request's behalf); work of another request
  // continues that request's own trail, its wait since counted as dependency_wait. The firmware's
  // own rule, followed closely enough that a request's stages still add up to its latency.
  // host_cmd: the command the work is for, or kNoCommand (a flash operation names none).
  static constexpr std::uint32_t kNoCommand = ~0u;
  LatencyTrail trail_for(std::uint32_t host_cmd);
  LatencyTrail job_trail_;
  // The job log (log_jobs): where the image keeps its work counters; the job's segments between
  // the image's charge marks, each attributed to the kind of work its mark names.
  struct Snapshot {
    double cycles = 0;  // issue and stall cycles so far
    mmio::WorkCounters counters{};
  };
  struct Segment {  // what one kind of work spent in the job
    double cycles = 0;
    std::uint64_t touches[2] = {}, touch_bytes[2] = {};
  };
  Snapshot snapshot();
  void attribute(const Snapshot& now);  // the segment since the last mark, to its kind
  void mark_work(std::uint32_t kind);
  std::unique_ptr<std::ofstream> job_log_;
  std::uint32_t work_counters_ = 0;
  Snapshot job_start_, segment_start_;
  int segment_kind_ = -1, first_kind_ = -1;  // -1: no mark yet in this job
  Segment unmarked_;                         // before the job's first mark
  std::vector<Segment> segments_;            // by kind of work
  mmio::EventKind running_ = mmio::EventKind::None;  // the kind of the job in progress
  BusyTime* busy_;
  std::uint64_t &compute_, &memory_wait_, &idle_, &cycles_, &bus_accesses_, &events_taken_;
  std::uint64_t &all_cycles_, &all_accesses_, &all_access_ticks_;
};

}  // namespace ssd::platform
