#include "hw/host/host_interface.h"

#include "tlm/bus_access.h"
#include "tlm/time_base.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::hw {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {
constexpr std::uint32_t kSqeBytes = 64, kCqeBytes = 16;

// The host sees the completion of `trans` now (its queue's interrupt); the wait for a coalesced
// interrupt is the completion stage's (nothing without coalescing).
template <typename Socket>
void deliver(Socket& host, std::uint32_t& outstanding, tlm::tlm_generic_payload* trans) {
  --outstanding;
  trans->get_extension<tlmx::HostCommandExtension>()->trail.advance(Stage::Completion, sc_core::sc_time_stamp().value());
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time zero = SC_ZERO_TIME;
  trans->set_response_status(tlm::TLM_OK_RESPONSE);
  host->nb_transport_bw(*trans, phase, zero);
}
}

HostInterface::HostInterface(sc_core::sc_module_name name, const HostLinkConfig& config, const PowerConfig& power,
                             std::uint64_t dram_base, MetricsRegistry& metrics, tlmx::VcdTracer* vcd)
    : sc_module(name),
      host("host"),
      dma("dma"),
      fetched_commands("fetched_commands"),
      firmware_requests("firmware_requests"),
      cfg_(config),
      dram_base_(dram_base),
      doorbells_("doorbells"),
      later_("later"),
      metrics_(metrics),
      power_states_(power, stats_of(*this, "power", metrics)),
      scratch_(1 << 16),
      commands_(stats_of(*this, metrics).counter("commands")),
      bytes_down_(stats_of(*this, metrics).counter("bytes_to_device")),
      bytes_up_(stats_of(*this, metrics).counter("bytes_to_host")),
      link_wait_ticks_(stats_of(*this, metrics).duration("link_wait")),
      vcd_(vcd) {
  down_.busy = &stats_of(*this, metrics).busy("to_device_busy_fraction");
  up_.busy = &stats_of(*this, metrics).busy("to_host_busy_fraction");
  host.register_nb_transport_fw(this, &HostInterface::nb_transport_fw);
  firmware_requests.register_nb_transport_fw(this, &HostInterface::firmware_request);
  fetched_ = new tlmx::FetchedCommand;
  fetch_trans_.set_extension(fetched_);
  if (cfg_.coalescing_threshold > 1) interrupts_ = &stats_of(*this, metrics).counter("interrupts");
  stats_of(*this, metrics).report_as("host_interface");
  create_io_queues({IoQueueSpec{config.queue_depth, QueuePriority::Medium}});
  if (vcd_) vcd_outstanding_ = vcd_->add(this->name(), "outstanding", 32);
  SC_METHOD(accept);
  sensitive << doorbells_.get_event() << woken_;
  dont_initialize();
}

void HostInterface::create_io_queues(const std::vector<IoQueueSpec>& queues) {
  if (queues.empty()) throw std::invalid_argument("host interface: no I/O queue");
  queue_specs_ = queues;
  queues_.assign(queues.size(), QueuePair{});
  waiting_.assign(queues.size(), 0);
  std::vector<QueuePriority> classes;
  for (std::size_t q = 0; q < queues.size(); ++q) {
    classes.push_back(queues[q].priority);
    // One queue is the drive's whole traffic (host_interface.commands); several have theirs apart.
    if (queues.size() > 1) {
      MetricSet& set = metrics_.set(std::string(name()) + ".queues." + std::to_string(q));
      set.report_as("queues", q);
      queues_[q].fetched = &set.counter("fetched");
    }
  }
  arbiter_ = std::make_unique<SubmissionArbiter>(cfg_.arbitration, std::move(classes));
  std::uint64_t entries = 0;
  for (const IoQueueSpec& q : queues) {
    if (q.depth > cfg_.queue_depth)
      throw std::invalid_argument("host interface: an I/O queue of " + std::to_string(q.depth) +
                                  " entries, more than host.queue_depth = " + std::to_string(cfg_.queue_depth));
    entries += entries_of(q);
  }
  slots_.assign(cfg_.controller_commands ? std::min<std::uint64_t>(cfg_.controller_commands, entries) : entries, Slot{});
  reset_slots();
}

void HostInterface::reset_slots() {
  std::fill(slots_.begin(), slots_.end(), Slot{});
  free_slots_.clear();
  for (std::uint32_t s = capacity(); s-- > 0;) free_slots_.push_back(s);
}

void HostInterface::power_off() {
  doorbells_.cancel_all();
  later_.clear();
  reset_slots();
  for (QueuePair& q : queues_) {
    q.submitted.clear();
    q.posted.clear();
    q.outstanding = 0;
    ++q.interrupt_generation;
  }
  std::fill(waiting_.begin(), waiting_.end(), 0);
  waking_.clear();
  woken_.cancel();
  awake_at_ = SC_ZERO_TIME;
  if (vcd_) vcd_->change(vcd_outstanding_, 0);
}

tlm::tlm_sync_enum HostInterface::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                  sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) SC_REPORT_ERROR(name(), "host protocol: only BEGIN_REQ goes forward");
  doorbells_.notify(trans, delay + cfg_.latency);  // the doorbell write crosses the link
  return tlm::TLM_ACCEPTED;
}

sc_time HostInterface::link(Direction& dir, sc_time ready, std::uint64_t bytes) {
  const std::uint64_t duration = static_cast<std::uint64_t>(double(bytes) / cfg_.bytes_per_second() / tlmx::ticks_to_seconds(1) + 0.5);
  const std::uint64_t start = dir.calendar.book(ready.value(), duration, sc_core::sc_time_stamp().value());
  link_wait_ticks_ += start - ready.value();
  dir.busy->add(start, start + duration);
  return sc_time::from_value(start + duration) + cfg_.latency;
}

sc_time HostInterface::bus_transfer(bool to_dram, std::uint64_t addr, std::uint32_t bytes, sc_time at) {
  if (bytes > scratch_.size()) scratch_.resize(bytes);
  tlmx::prepare_bus_access(dma_trans_, to_dram ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, dram_base_ + addr,
                           scratch_.data(), bytes);
  sc_time delay = at - sc_core::sc_time_stamp();
  dma->b_transport(dma_trans_, delay);
  if (dma_trans_.is_response_error())
    SC_REPORT_ERROR(name(), ("host DMA to the data buffer failed: " + dma_trans_.get_response_string()).c_str());
  return sc_core::sc_time_stamp() + delay;
}

void HostInterface::accept() {
  const sc_time now = sc_core::sc_time_stamp();
  if (now >= awake_at_)  // the wake-up is over: its doorbells first, in their order
    while (!waking_.empty()) {
      admit(waking_.front());
      waking_.pop_front();
    }
  while (tlm::tlm_generic_payload* trans = doorbells_.get_next_transaction()) {
    if (power_states_.enabled() && power_states_.idle()) {  // the first doorbell after an idle gap
      awake_at_ = sc_time::from_value(power_states_.wake(now.value()));
      if (awake_at_ > now) woken_.notify(awake_at_ - now);
    }
    if (now < awake_at_)
      waking_.push_back(trans);
    else
      admit(trans);
  }
  fetch_arbitrated();
}

void HostInterface::admit(tlm::tlm_generic_payload* trans) {
  const std::uint32_t queue = trans->get_extension<tlmx::HostCommandExtension>()->queue;
  if (queue >= queues_.size())
    SC_REPORT_ERROR(name(), ("host submitted to I/O queue " + std::to_string(queue) + " of " +
                             std::to_string(queues_.size())).c_str());
  QueuePair& q = queues_[queue];
  if (q.outstanding == entries_of(queue_specs_[queue]))
    SC_REPORT_ERROR(name(), ("host submitted more commands than the queue depth (" +
                             std::to_string(entries_of(queue_specs_[queue])) + ") to I/O queue " + std::to_string(queue))
                                .c_str());
  ++q.outstanding;
  q.submitted.push_back(trans);
  ++waiting_[queue];
}

bool HostInterface::holds_nothing() const {
  return free_slots_.size() == capacity() && std::all_of(waiting_.begin(), waiting_.end(), [](std::uint32_t w) { return w == 0; });
}

void HostInterface::fetch_arbitrated() {
  // Nothing waits unless the controller's slots ran out (one comparison a completion for one queue).
  if (std::all_of(waiting_.begin(), waiting_.end(), [](std::uint32_t w) { return w == 0; })) return;
  while (!free_slots_.empty()) {
    const std::optional<std::uint32_t> queue = arbiter_->next(waiting_);
    if (!queue) return;
    fetch(*queue);
  }
}

void HostInterface::fetch(std::uint32_t queue) {
  QueuePair& q = queues_[queue];
  tlm::tlm_generic_payload* trans = q.submitted.front();
  q.submitted.pop_front();
  --waiting_[queue];
  if (q.fetched) ++*q.fetched;
  const std::uint32_t slot = free_slots_.back();
  free_slots_.pop_back();
  slots_[slot] = Slot{trans, trans->get_extension<tlmx::HostCommandExtension>()};
  ++commands_;
  if (vcd_) vcd_->change(vcd_outstanding_, capacity() - free_slots_.size());
  // The controller fetches the 64-byte entry: a read request up, the entry down.
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time fetched = link(down_, now + cfg_.latency, kSqeBytes);
  bytes_down_ += kSqeBytes;
  later_.schedule(fetched - now, [this, slot] {
    slots_[slot].ext->trail.advance(Stage::Submission, sc_core::sc_time_stamp().value());
    fetched_->slot = slot;
    fetched_->command = slots_[slot].ext;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time zero = SC_ZERO_TIME;
    fetched_commands->nb_transport_fw(fetch_trans_, phase, zero);
  });
}

tlm::tlm_sync_enum HostInterface::firmware_request(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                   sc_time& delay) {
  const auto* request = trans.get_extension<tlmx::HostDmaRequest>();
  if (phase != tlm::BEGIN_REQ || !request)
    SC_REPORT_ERROR(name(), "firmware requests: BEGIN_REQ carrying a HostDmaRequest only");
  if (request->kind == tlmx::HostDmaRequest::Kind::Completion) {
    complete(request->slot, delay, request->trail, request->status);
    return tlm::TLM_COMPLETED;
  }
  start_dma(trans, *trans.get_extension<tlmx::HostDmaRequest>(), delay);
  return tlm::TLM_ACCEPTED;
}

void HostInterface::start_dma(tlm::tlm_generic_payload& trans, tlmx::HostDmaRequest& dma, sc_time delay) {
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time begin = now + delay;
  sc_time done;
  dma.trail.advance(Stage::Firmware, begin.value());
  if (dma.kind == tlmx::HostDmaRequest::Kind::ToHost) {
    const sc_time in_buffer = bus_transfer(false, dma.buffer_addr, dma.bytes, begin);
    done = link(up_, in_buffer, dma.bytes);
    dma.trail.advance(Stage::DramBus, in_buffer.value());
    dma.trail.advance(Stage::Pcie, done.value());
    bytes_up_ += dma.bytes;
  } else {
    const sc_time arrived = link(down_, begin + cfg_.latency, dma.bytes);  // read request up, data down
    done = bus_transfer(true, dma.buffer_addr, dma.bytes, arrived);
    dma.trail.advance(Stage::Pcie, arrived.value());
    dma.trail.advance(Stage::DramBus, done.value());
    bytes_down_ += dma.bytes;
  }
  later_.schedule(done - now, [this, t = &trans] {
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_time zero = SC_ZERO_TIME;
    t->set_response_status(tlm::TLM_OK_RESPONSE);
    firmware_requests->nb_transport_bw(*t, phase, zero);
  });
}

void HostInterface::complete(std::uint32_t slot, sc_time delay, const LatencyTrail& trail, HostStatus status) {
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time seen = link(up_, now + delay, kCqeBytes);
  slots_[slot].ext->status = status;
  LatencyTrail& t = slots_[slot].ext->trail;
  t = trail;
  t.advance(Stage::Firmware, (now + delay).value());
  t.advance(Stage::Completion, seen.value());
  bytes_up_ += kCqeBytes;
  later_.schedule(seen - now, [this, slot] {
    const Slot s = slots_[slot];
    slots_[slot] = Slot{};
    free_slots_.push_back(slot);
    if (vcd_) vcd_->change(vcd_outstanding_, capacity() - free_slots_.size());
    post_completion(s.ext->queue, s.trans);
    fetch_arbitrated();  // the controller has room for one more
    if (power_states_.enabled() && waking_.empty() && holds_nothing()) power_states_.idle_from(sc_core::sc_time_stamp().value());
  });
}

void HostInterface::post_completion(std::uint32_t queue, tlm::tlm_generic_payload* trans) {
  QueuePair& q = queues_[queue];
  if (cfg_.coalescing_threshold <= 1) {  // an interrupt for each entry
    deliver(host, q.outstanding, trans);
    return;
  }
  q.posted.push_back(trans);
  if (q.posted.size() >= cfg_.coalescing_threshold) {
    interrupt(queue);
  } else if (q.posted.size() == 1) {  // the aggregation time runs from the first entry waiting
    later_.schedule(cfg_.coalescing_time, [this, queue, generation = q.interrupt_generation] {
      if (queues_[queue].interrupt_generation == generation) interrupt(queue);
    });
  }
}

void HostInterface::interrupt(std::uint32_t queue) {
  QueuePair& q = queues_[queue];
  ++q.interrupt_generation;
  if (interrupts_) ++*interrupts_;
  std::vector<tlm::tlm_generic_payload*> seen;
  seen.swap(q.posted);
  for (tlm::tlm_generic_payload* trans : seen) deliver(host, q.outstanding, trans);
}



}  // namespace ssd::hw
