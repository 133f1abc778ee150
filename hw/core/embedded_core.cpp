#include "hw/core/embedded_core.h"

#include <cmath>
#include <string>

#include "tlm/time_base.h"

namespace ssd::hw {

using sc_core::sc_time;

EmbeddedCore::EmbeddedCore(sc_core::sc_module_name name, const CoreConfig& config, MetricsRegistry& metrics,
                           tlmx::VcdTracer* vcd)
    : sc_module(name),
      bus("bus"),
      cfg_(config),
      cores_(config.count),
      period_ticks_(1e6 / config.clock_mhz / tlmx::kTickPicoseconds),
      scratch_(4096),
      cycles_(metrics.set("hw.cores").counter("cycles")),
      accesses_(metrics.set("hw.cores").counter("table_accesses")),
      access_ticks_(metrics.set("hw.cores").counter("table_access_ticks")),
      vcd_(vcd) {
  if (vcd_) vcd_jobs_ = vcd_->add("ssd.cores", "jobs_waiting", 16);
  for (unsigned k = 0; k < cfg_.count; ++k) {
    MetricSet& m = metrics.set("hw.cores.core" + std::to_string(k));
    busy_ticks_.push_back(&m.counter("busy_ticks"));
    jobs_run_.push_back(&m.counter("jobs"));
    if (vcd_) vcd_busy_.push_back(vcd_->add("ssd.cores", "core" + std::to_string(k) + "_busy", 1));
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&work_);
    opts.dont_initialize();
    sc_core::sc_spawn([this, k] { run(k); }, sc_core::sc_gen_unique_name("core"), &opts);
  }
}

void EmbeddedCore::post(Job job) {
  jobs_.push_back(std::move(job));
  if (vcd_) vcd_->change(vcd_jobs_, jobs_.size());
  work_.notify(sc_core::SC_ZERO_TIME);
}

void EmbeddedCore::charge_cycles(std::uint64_t cycles) {
  if (!in_job_) return;
  cycles_ += cycles;
  offset_ += sc_time::from_value(static_cast<std::uint64_t>(std::llround(period_ticks_ * double(cycles))));
}

void EmbeddedCore::access(std::uint64_t address, std::uint32_t bytes, bool write) {
  if (!in_job_) return;
  if (bytes > scratch_.size()) scratch_.resize(bytes);
  access_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  access_.set_address(address);
  access_.set_data_ptr(scratch_.data());
  access_.set_data_length(bytes);
  access_.set_streaming_width(bytes);
  access_.set_byte_enable_ptr(nullptr);
  access_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const sc_time before = offset_;
  bus->b_transport(access_, offset_);
  if (access_.is_response_error())
    SC_REPORT_ERROR(name(), ("firmware table access failed at address " + std::to_string(address) + ": " +
                             access_.get_response_string())
                                .c_str());
  ++accesses_;
  access_ticks_ += (offset_ - before).value();
}

void EmbeddedCore::run(unsigned core) {
  CoreState& c = cores_[core];
  const sc_time now = sc_core::sc_time_stamp();
  if (c.busy) {
    if (now < c.busy_until) {  // woken by new work while still busy
      sc_core::next_trigger(c.busy_until - now);
      return;
    }
    c.busy = false;
  }
  if (jobs_.empty()) return;  // static sensitivity: the next post() wakes us
  in_job_ = true;
  offset_ = sc_core::SC_ZERO_TIME;
  do {
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    job();
    ++*jobs_run_[core];
  } while (cfg_.count == 1 && !jobs_.empty());
  in_job_ = false;
  const sc_time spent = offset_;
  offset_ = sc_core::SC_ZERO_TIME;
  *busy_ticks_[core] += spent.value();
  c.busy = true;
  c.busy_until = now + spent;
  if (vcd_) {  // the falling edge is known now: traced ahead, never woken for (observers never perturb)
    vcd_->change(vcd_jobs_, jobs_.size());
    vcd_->change(vcd_busy_[core], 1);
    vcd_->change_at(vcd_busy_[core], 0, c.busy_until.value());
  }
  // Wake at the end of the job only if something is waiting; otherwise the next post() finds
  // the core idle (busy_until passed) without an extra event.
  if (!jobs_.empty()) sc_core::next_trigger(spent);
}

}  // namespace ssd::hw
