#include "hw/core/embedded_core.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "tlm/bus_access.h"
#include "tlm/time_base.h"

namespace ssd::hw {

using sc_core::sc_time;

EmbeddedCore::EmbeddedCore(sc_core::sc_module_name name, const CoreConfig& config, MetricsRegistry& metrics,
                           tlmx::VcdTracer* vcd)
    : sc_module(name),
      bus("bus"),
      cfg_(config),
      dispatch_(make_core_dispatch(config.dispatch)),
      cores_(config.count),
      loads_(config.count),
      cycle_ticks_(1e6 / config.clock_mhz / tlmx::kTickPicoseconds),
      scratch_(4096),
      cycles_(stats_of(*this, metrics).counter("cycles")),
      accesses_(stats_of(*this, metrics).counter("table_accesses")),
      access_ticks_(stats_of(*this, metrics).duration("table_access")),
      vcd_(vcd) {
  stats_of(*this, metrics).report_as("cores");
  if (vcd_) vcd_jobs_ = vcd_->add(this->name(), "jobs_waiting", 32);
  for (unsigned k = 0; k < cfg_.count; ++k) {
    MetricSet& m = stats_of(*this, "core" + std::to_string(k), metrics);
    m.report_as("per_core", k);
    Core& c = cores_[k];
    c.busy = &m.busy("utilization");
    c.compute_ticks = &m.duration("compute");
    c.memory_wait_ticks = &m.duration("memory_wait");
    c.idle_ticks = &m.duration("idle");
    c.cycles = &m.counter("cycles");
    c.table_accesses = &m.counter("table_accesses");
    c.jobs = &m.counter("jobs");
    if (cfg_.dcache_bytes) {
      c.dcache = std::make_unique<DataCache>(cfg_.dcache_bytes, kCortexR5CacheWays, kCortexR5CacheLineBytes);
      c.dcache_hits = &m.counter("dcache_hits");
      c.dcache_misses = &m.counter("dcache_misses");
    }
    if (vcd_) c.vcd_busy = vcd_->add(this->name(), "core" + std::to_string(k) + "_busy", 1);
  }
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.set_sensitivity(&work_);
  opts.dont_initialize();
  sc_core::sc_spawn([this] { schedule(); }, sc_core::sc_gen_unique_name("scheduler"), &opts);
}

void EmbeddedCore::post(Job job, JobHint hint) {
  const sc_time now = sc_core::sc_time_stamp();
  for (unsigned k = 0; k < cores_.size(); ++k)
    loads_[k] = CoreLoad{cores_[k].busy_until > now, cores_[k].waiting.size(), cores_[k].busy->ticks()};
  const unsigned k = dispatch_->assign(hint, loads_);
  sc_time ready;  // when a core can start this job (at the earliest)
  if (k == CoreDispatch::kSharedQueue) {
    shared_.push_back(std::move(job));
    ready = cores_[0].busy_until;
    for (const Core& c : cores_) ready = std::min(ready, c.busy_until);
  } else {
    if (k >= cores_.size())
      SC_REPORT_ERROR(name(), ("core dispatch chose core " + std::to_string(k) + " of " +
                               std::to_string(cores_.size())).c_str());
    cores_[k].waiting.push_back(std::move(job));
    ready = cores_[k].busy_until;
  }
  if (vcd_) vcd_->change(vcd_jobs_, jobs_waiting());
  // Wake the scheduler if the job can start now, or if it is not due to wake by then anyway.
  if (ready <= now || !armed_ || ready < wake_at_) work_.notify(sc_core::SC_ZERO_TIME);
}

void EmbeddedCore::charge_cycles(std::uint64_t cycles) {
  if (!in_job_) return;
  const std::uint64_t ticks = cycle_ticks_(cycles);
  Core& c = cores_[current_];
  cycles_ += cycles;
  *c.cycles += cycles;
  *c.compute_ticks += ticks;
  offset_ticks_ += ticks;
}

void EmbeddedCore::access(std::uint64_t address, std::uint32_t bytes, bool write) {
  if (!in_job_) return;
  Core& c = cores_[current_];
  if (c.dcache)
    cached_access(c, address, bytes, write);
  else
    bus_access(c, address, bytes, write);
}

void EmbeddedCore::access_record(std::uint64_t address, std::uint32_t bytes, bool write) {
  if (in_job_ && cores_[current_].dcache) cached_access(cores_[current_], address, bytes, write);
}

void EmbeddedCore::cached_access(Core& c, std::uint64_t address, std::uint32_t bytes, bool write) {
  // Line by line: a hit costs nothing; a miss writes back a dirty victim and fills the line.
  const std::uint64_t line = c.dcache->line_bytes();
  for (std::uint64_t at = address & ~(line - 1); at < address + std::max<std::uint32_t>(bytes, 1); at += line) {
    const DataCache::Outcome o = c.dcache->access(at, write);
    if (o.hit) {
      ++*c.dcache_hits;
      continue;
    }
    ++*c.dcache_misses;
    if (o.writeback) bus_access(c, o.writeback_line, std::uint32_t(line), true);
    bus_access(c, o.fill_line, std::uint32_t(line), false);
  }
}

// One table access (or line fill, or write-back) over the system bus at the job's local time:
// its latency and contention are the core's memory wait.
void EmbeddedCore::bus_access(Core& c, std::uint64_t address, std::uint32_t bytes, bool write) {
  const std::uint64_t before = offset_ticks_;
  std::uint64_t now = 0, end = tlmx::DirectAccess::kRefused;
  if (direct_) {
    now = sc_core::sc_time_stamp().value();
    end = cfg_.annotated_table_accesses ? direct_->annotated_access(address, bytes, write, now + before)
                                        : direct_->direct_access(address, bytes, write, now, now + before);
  }
  if (end != tlmx::DirectAccess::kRefused) {
    offset_ticks_ = end - now;
  } else {
    if (bytes > scratch_.size()) scratch_.resize(bytes);
    tlmx::prepare_bus_access(access_, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, address,
                             scratch_.data(), bytes);
    sc_time delay = sc_time::from_value(before);
    bus->b_transport(access_, delay);
    offset_ticks_ = delay.value();
    if (access_.is_response_error())
      SC_REPORT_ERROR(name(), ("firmware table access failed at address " + std::to_string(address) + ": " +
                               access_.get_response_string())
                                  .c_str());
  }
  const std::uint64_t waited = offset_ticks_ - before;  // latency and contention on the way
  ++accesses_;
  ++*c.table_accesses;
  access_ticks_ += waited;
  *c.memory_wait_ticks += waited;
}

void EmbeddedCore::schedule() {
  const sc_time now = sc_core::sc_time_stamp();
  armed_ = false;
  for (unsigned k = 0; k < cores_.size(); ++k)
    if (cores_[k].busy_until <= now && has_work(cores_[k])) run_jobs(k, now);
  if (vcd_) vcd_->change(vcd_jobs_, jobs_waiting());
  arm_wake(now);
}

void EmbeddedCore::run_jobs(unsigned core, sc_time now) {
  Core& c = cores_[core];
  current_ = core;
  in_job_ = true;
  offset_ticks_ = 0;
  do {
    std::deque<Job>& from = c.waiting.empty() ? shared_ : c.waiting;
    Job job = std::move(from.front());
    from.pop_front();
    job();
    ++*c.jobs;
  } while (cores_.size() == 1 && has_work(c));  // several cores: one job each, so they interleave in time order
  in_job_ = false;
  const sc_time spent = sc_time::from_value(offset_ticks_);
  offset_ticks_ = 0;
  c.busy->add(now.value(), (now + spent).value());
  c.busy_until = now + spent;
  if (vcd_) {  // the falling edge is known now: traced ahead, never woken for (observers never perturb)
    vcd_->change(c.vcd_busy, 1);
    vcd_->change_at(c.vcd_busy, 0, c.busy_until.value());
  }
}

void EmbeddedCore::arm_wake(sc_time now) {
  bool any = false;
  sc_time next;
  for (const Core& c : cores_)
    if (has_work(c) && (!any || c.busy_until < next)) {
      next = c.busy_until;
      any = true;
    }
  if (!any) return;  // static sensitivity: the next post() wakes us
  armed_ = true;
  wake_at_ = next;
  sc_core::next_trigger(next - now, work_);
}

std::size_t EmbeddedCore::jobs_waiting() const {
  std::size_t n = shared_.size();
  for (const Core& c : cores_) n += c.waiting.size();
  return n;
}

sc_time EmbeddedCore::drained_at() const {
  sc_time t;
  for (const Core& c : cores_) t = std::max(t, c.busy_until);
  return t;
}

void EmbeddedCore::power_off(sc_time now) {
  shared_.clear();
  for (Core& c : cores_) {
    c.waiting.clear();
    c.busy_until = std::min(c.busy_until, now);
    if (c.dcache) c.dcache = std::make_unique<DataCache>(cfg_.dcache_bytes, kCortexR5CacheWays, kCortexR5CacheLineBytes);
  }
  if (vcd_) vcd_->change(vcd_jobs_, 0);
}

void EmbeddedCore::finalize(sc_time end) {
  const std::uint64_t elapsed = std::max(end, drained_at()).value();
  for (Core& c : cores_) *c.idle_ticks = elapsed - c.busy->ticks();
}

}  // namespace ssd::hw
