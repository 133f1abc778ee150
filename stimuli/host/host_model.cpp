#include "stimuli/host/host_model.h"

#include "common/host_addressing.h"
#include "tlm/time_base.h"

#include <stdexcept>

namespace ssd::stimuli {

namespace {
// An issuer's completions counter per HostOp (Read, Write, Flush, Trim).
const char* const kIssuerCompletionNames[] = {"reads", "writes", "flushes", "trims"};
}  // namespace

using sc_core::sc_time;

void HostModel::OperationFigures::bind(MetricsRegistry& metrics, const std::string& set) {
  for (std::size_t op = 0; op < kOps; ++op) {
    const std::string name = to_string(static_cast<HostOp>(op));
    latency[op] = &metrics.set(set).histogram(name + "_latency_ns");
    for (std::size_t s = 0; s < kStages; ++s)
      stages[op][s] = &metrics.set(set + ".latency_breakdown." + name).histogram(stage_name(static_cast<Stage>(s)));
  }
}

void HostModel::OperationFigures::record_stages(HostOp op, const LatencyTrail& trail) const {
  for (std::size_t s = 0; s < kStages; ++s) stages[static_cast<std::size_t>(op)][s]->record(trail.ticks[s]);
}

HostModel::HostModel(sc_core::sc_module_name name, const HostModelConfig& config, Workload& workload,
                     IntegrityOracle& oracle, MetricsRegistry& metrics, tlmx::VcdTracer* vcd)
    : sc_module(name),
      nvme("nvme"),
      cfg_(config),
      admission_(config.admission),
      workload_(workload),
      oracle_(oracle),
      reads_(metrics.set("host").counter("reads")),
      writes_(metrics.set("host").counter("writes")),
      read_bytes_(metrics.set("host").counter("read_bytes")),
      write_bytes_(metrics.set("host").counter("write_bytes")),
      held_(metrics.set("host").counter("held_for_ordering")),
      folded_(metrics.set("host").counter("folded_requests")),
      arrival_span_s_(metrics.set("host").gauge("arrival_span_s")),
      flushes_(metrics.set("host").counter("flushes")),
      fua_writes_(metrics.set("host").counter("fua_writes")),
      trims_(metrics.set("host").counter("trims")),
      trim_bytes_(metrics.set("host").counter("trim_bytes")),
      over_time_(metrics.set("host").series("completions")),
      metrics_(metrics),
      vcd_(vcd) {
  nvme.register_nb_transport_bw(this, &HostModel::nb_transport_bw);
  figures_.bind(metrics, "host");
  if (cfg_.queues.empty()) cfg_.queues.push_back(IoQueueSpec{cfg_.queue_depth, QueuePriority::Medium});
  std::uint64_t depths = 0;
  for (const IoQueueSpec& q : cfg_.queues) depths += q.depth;
  if (depths != cfg_.queue_depth) throw std::logic_error("host: the queues' depths do not add up to the queue depth");
  std::uint32_t queue = 0, first_of_queue = 0;
  for (std::uint32_t i = 0; i < cfg_.queue_depth; ++i) {
    while (i >= first_of_queue + cfg_.queues[queue].depth) first_of_queue += cfg_.queues[queue++].depth;
    auto s = std::make_unique<Slot>();
    s->ext = new tlmx::HostCommandExtension;
    s->ext->host_tag = i;
    s->queue = queue;
    s->trans.set_extension(s->ext);  // owned by the payload
    slots_.push_back(std::move(s));
  }
  reset_slots();
  if (cfg_.queues.size() > 1) {
    flows_.resize(cfg_.queues.size());
    for (std::size_t q = 0; q < flows_.size(); ++q) {
      const std::string flow = "host.flows." + std::to_string(q);
      Flow& f = flows_[q];
      f.set = &metrics.set(flow);
      f.figures.bind(metrics, flow);
    }
  }
  if (vcd_) vcd_outstanding_ = vcd_->add("ssd.host", "outstanding", 32);
  if (cfg_.track_durability) durability_ = std::make_unique<DurabilityTracker>(oracle_, cfg_.volatile_write_cache);
  SC_THREAD(issue);
}

void HostModel::issue() {
  try {
    replay();
  } catch (const WorkloadError& e) {
    workload_error_ = e.what();
    sc_core::sc_stop();
  }
}

void HostModel::replay() {
  HostRequest req;
  const std::uint32_t page_bytes = oracle_.page_bytes();
  // NVMe does not order outstanding commands, so only a request that overlaps one in flight
  // waits (parked_). With one shared queue a parked request keeps its place in the queue depth
  // (it is outstanding at the host); with per-stream depths its stream's depth counts it.
  const bool per_stream = !workload_.stream_depths().empty();
  std::vector<ParkedRequest>& parked = parked_;
  InFlightPages& still_parked = still_parked_;
  // Whether a request overlaps one in flight or one parked before it (at least one of them a write or a trim).
  auto held_back = [&](const ParkedRequest& p) {
    return in_flight_.conflicts(p.span.first, p.span.count, p.req.modifies()) ||
           still_parked.conflicts(p.span.first, p.span.count, p.req.modifies());
  };
  auto park = [&](const ParkedRequest& p) {
    parked.push_back(p);
    ++parked_in_[p.req.queue];
    still_parked.add(0, p.span.first, p.span.count, p.req.modifies());
    ++held_;
  };
  // Issues the parked requests that no longer conflict (in order: one never passes an earlier
  // parked request it overlaps).
  auto issue_parked = [&]() {
    still_parked.clear();
    for (std::size_t i = 0; i < parked.size();) {
      const ParkedRequest& p = parked[i];
      if (held_back(p)) {
        still_parked.add(0, p.span.first, p.span.count, p.req.modifies());
        ++i;
        continue;
      }
      const ParkedRequest issued = p;
      parked.erase(parked.begin() + static_cast<std::ptrdiff_t>(i));
      --parked_in_[issued.req.queue];
      send(issued.req, issued.arrival, issued.span);
    }
  };
  // Several queues: a request whose queue is full waits in that queue's backlog while the other
  // queues' requests go on (a host submits to each queue from its own core), in order within its
  // queue; at most kMaxBacklog wait so, then the host reads no further until one is sent.
  const bool several_queues = cfg_.queues.size() > 1;
  auto issue_backlog = [&]() {
    for (std::uint32_t q = 0; q < backlog_.size(); ++q)
      while (!backlog_[q].empty() && free_[q].size() > parked_in_[q]) {
        ParkedRequest p = backlog_[q].front();
        backlog_[q].pop_front();
        --backlogged_;
        if (!per_stream && !cfg_.admission.open_loop) p.arrival = sc_core::sc_time_stamp();  // closed loop: from its slot
        if (held_back(p))
          park(p);
        else
          send(p.req, p.arrival, p.span);
      }
  };
  auto issue_waiting = [&]() {
    issue_parked();
    if (backlogged_) issue_backlog();
  };
  while (true) {
    while (!powered_) sc_core::wait(power_on_);  // for good, unless the drive comes back (power_on)
    issue_waiting();
    if (!workload_.ready()) {  // per-stream queue depths: every stream is full
      sc_core::wait(slot_freed_);
      continue;
    }
    if (!workload_.next(req)) break;
    folded_ += admission_.admit(req, workload_);
    sc_time arrival = sc_core::sc_time_stamp();
    if (cfg_.admission.open_loop) {
      arrival = tlmx::seconds_to_time(admission_.arrival_seconds(req), "arrival");  // admitted: within the limit
      // Waiting for the arrival, parked requests go as soon as what they overlap completes.
      while (arrival > sc_core::sc_time_stamp()) {
        if (parked.empty() && backlogged_ == 0) {
          sc_core::wait(arrival - sc_core::sc_time_stamp());
          break;
        }
        sc_core::wait(arrival - sc_core::sc_time_stamp(), slot_freed_);
        issue_waiting();
      }
    }
    const PageSpan span = req.is_flush() ? PageSpan{} : page_span(req.lba, req.sectors, page_bytes);
    const std::uint32_t queue = queue_of(req);
    if (several_queues && (!backlog_[queue].empty() || free_[queue].size() <= parked_in_[queue])) {
      backlog_[queue].push_back({req, span, arrival});
      ++backlogged_;
      while (backlogged_ >= kMaxBacklog) {
        sc_core::wait(slot_freed_);
        issue_waiting();
      }
      continue;
    }
    // A free slot of its queue beyond those the parked requests keep. Per-stream depths add up to
    // their queue, so they never wait here, unless requests split at MDTS took extra slots.
    while (free_[queue].size() <= parked_in_[queue]) {
      sc_core::wait(slot_freed_);
      issue_parked();
    }
    if (!per_stream && !cfg_.admission.open_loop) arrival = sc_core::sc_time_stamp();
    const ParkedRequest next{req, span, arrival};
    if (held_back(next))
      park(next);
    else
      send(req, arrival, span);
  }
  while (!parked.empty() || backlogged_ > 0 || outstanding_ > 0) {
    issue_waiting();
    if (!parked.empty() || backlogged_ > 0 || outstanding_ > 0) sc_core::wait(slot_freed_);
  }
  finished_ = true;
  finished_event_.notify(sc_core::SC_ZERO_TIME);
}

std::string HostModel::at_position(const std::string& what) const {
  const std::string where = workload_.position();
  return where.empty() ? what : where + ": " + what;
}

std::uint32_t HostModel::queue_of(const HostRequest& req) const {
  if (req.queue >= cfg_.queues.size())
    throw WorkloadError(at_position("a request for I/O queue " + std::to_string(req.queue) + ", but the host has " +
                                    std::to_string(cfg_.queues.size())));
  return req.queue;
}

void HostModel::reset_slots() {
  free_.assign(cfg_.queues.size(), {});
  backlog_.resize(cfg_.queues.size());
  parked_in_.assign(cfg_.queues.size(), 0);
  for (std::uint32_t i = cfg_.queue_depth; i-- > 0;) free_[slots_[i]->queue].push_back(i);
}

void HostModel::send(const HostRequest& req, sc_time arrival, const PageSpan& span) {
  while (!powered_) sc_core::wait(power_on_);  // the power went while this one waited: sent once it is back
  if (durability_ && req.is_trim())
    throw WorkloadError(at_position("a trim (deallocate) in a run with a power cut: the FTLs journal no trims, so what "
                                    "a cut leaves of one is not modelled; leave the trims out or the cut"));
  std::vector<std::uint32_t>& free = free_[req.queue];
  if (free.empty()) throw std::logic_error("host: no free command slot (queue depths add up wrong)");
  if (first_) {
    first_arrival_ = arrival;
    first_ = false;
  }
  // Open loop: the trace's arrivals; closed loop: when each request could be issued.
  arrival_span_s_ = std::max(arrival_span_s_, (arrival - first_arrival_).to_seconds());
  const std::uint32_t id = free.back();
  free.pop_back();
  Slot& s = *slots_[id];
  s.arrival = arrival;
  s.serial = ++serial_;
  tlmx::HostCommandExtension& ext = *s.ext;
  ext.trail = LatencyTrail::begin(s.serial, arrival.value());
  ext.trail.advance(Stage::HostQueue, sc_core::sc_time_stamp().value());
  ext.op = req.op;
  ext.fua = req.fua && req.is_write();
  ext.lba = req.lba;
  ext.sectors = req.sectors;
  ext.issuer = req.issuer;
  ext.queue = req.queue;
  if (!flows_.empty() && !flows_[req.queue].started) {
    flows_[req.queue].set->gauge("first_arrival_s") = arrival.to_seconds();
    flows_[req.queue].started = true;
  }
  ext.priority = cfg_.queues[req.queue].priority;
  if (req.is_write()) {
    oracle_.make_write_tokens(req.lba, req.sectors, ext.tokens);
  } else if (req.is_read()) {
    ext.tokens.assign(span.count, 0);
  } else {
    ext.tokens.clear();  // a flush or a trim moves no data
  }
  if (durability_ && req.is_write()) durability_->write_issued(id, req.lba, req.sectors, ext.tokens.data());
  if (durability_ && req.is_flush()) durability_->flush_issued(id);
  in_flight_.add(id, span.first, span.count, req.modifies());
  ++outstanding_;
  if (vcd_) vcd_->change(vcd_outstanding_, outstanding_);
  s.trans.set_command(req.is_write() ? tlm::TLM_WRITE_COMMAND
                      : req.is_read() ? tlm::TLM_READ_COMMAND
                                      : tlm::TLM_IGNORE_COMMAND);
  s.trans.set_address(req.lba * kSectorBytes);
  s.trans.set_data_length(req.sectors * kSectorBytes);
  s.trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = sc_core::SC_ZERO_TIME;
  nvme->nb_transport_fw(s.trans, phase, delay);
}

std::uint64_t HostModel::power_on() {
  const std::uint64_t given_up = outstanding_;
  for (std::uint32_t i = 0; i < cfg_.queue_depth; ++i)
    if (in_flight_.holds(i)) workload_.completed(slots_[i]->ext->issuer);  // its stream's depth is free again
  const std::vector<std::uint32_t> parked = parked_in_;
  reset_slots();
  parked_in_ = parked;  // the requests parked before the cut are still the host's
  in_flight_.clear();
  outstanding_ = 0;
  durability_.reset();
  cfg_.stop_after = 0;
  powered_ = true;
  if (vcd_) vcd_->change(vcd_outstanding_, 0);
  power_on_.notify(sc_core::SC_ZERO_TIME);
  slot_freed_.notify(sc_core::SC_ZERO_TIME);
  return given_up;
}

// The request's stages must cover exactly its latency: a trail that ends elsewhere or belongs to
// another request means a model lost track of the critical path, and its breakdown is wrong.
void HostModel::check_trail(const tlmx::HostCommandExtension& ext, const Slot& slot, sc_time now) {
  const LatencyTrail& t = ext.trail;
  if (t.owner != slot.serial || t.at != now.value() || t.total() != (now - slot.arrival).value())
    SC_REPORT_ERROR(name(), ("internal error: the latency breakdown of request " + std::to_string(slot.serial) +
                             " does not add up (trail of request " + std::to_string(t.owner) + ", ends at tick " +
                             std::to_string(t.at) + " instead of " + std::to_string(now.value()) + ", covers " +
                             std::to_string(t.total()) + " of " + std::to_string((now - slot.arrival).value()) +
                             " ticks)")
                                .c_str());
}

void HostModel::record_flow(Flow& flow, const tlmx::HostCommandExtension& ext, std::uint64_t latency_ns, sc_time now) {
  MetricSet& set = *flow.set;
  if (!flow.served) {
    set.gauge("first_completion_s") = now.to_seconds();
    flow.served = true;
  }
  set.gauge("last_completion_s") = now.to_seconds();
  const std::uint64_t bytes = std::uint64_t(ext.sectors) * kSectorBytes;
  flow.figures.record_stages(ext.op, ext.trail);
  if (ext.op == HostOp::Flush) {
    ++set.counter("flushes");
  } else if (ext.op == HostOp::Trim) {
    ++set.counter("trims");
  } else if (ext.op == HostOp::Read) {
    ++set.counter("reads");
    set.counter("read_bytes") += bytes;
  } else if (ext.status == HostStatus::Success) {
    ++set.counter("writes");
    set.counter("write_bytes") += bytes;
  } else {
    return;  // a rejected write: not a write's latency
  }
  flow.figures.latency_of(ext.op).record(latency_ns);
}

HostModel::IssuerFigures& HostModel::issuer_figures(std::uint32_t issuer) {
  if (auto it = issuers_.find(issuer); it != issuers_.end()) return it->second;
  IssuerFigures& figures = issuers_.size() < kMaxIssuers ? issuers_[issuer] : other_issuers_;
  if (!figures.set)
    figures.set = &metrics_.set(&figures == &other_issuers_ ? "host.issuers.other" : "host.issuers." + std::to_string(issuer));
  return figures;
}

tlm::tlm_sync_enum HostModel::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time&) {
  auto* ext = trans.get_extension<tlmx::HostCommandExtension>();
  if (!powered_) return tlm::TLM_COMPLETED;  // never reaches the host
  Slot& s = *slots_[ext->host_tag];
  const sc_time now = sc_core::sc_time_stamp();
  const std::uint64_t latency_ns = static_cast<std::uint64_t>((now - s.arrival).to_seconds() * 1e9 + 0.5);
  check_trail(*ext, s, now);
  figures_.record_stages(ext->op, ext->trail);
  const bool write = ext->op == HostOp::Write;
  if (ext->op == HostOp::Flush) {
    ++flushes_;
    figures_.latency_of(HostOp::Flush).record(latency_ns);
    if (durability_) durability_->flush_completed(ext->host_tag);
  } else if (ext->op == HostOp::Trim) {  // refused by a read-only drive: nothing deallocated
    if (ext->status == HostStatus::Success) oracle_.acknowledge_trim(ext->lba, ext->sectors);
    ++trims_;
    trim_bytes_ += std::uint64_t(ext->sectors) * kSectorBytes;
    figures_.latency_of(HostOp::Trim).record(latency_ns);
  } else if (write && ext->status != HostStatus::Success) {
    // Not written (a read-only drive): the data stays what it was; not a write's latency either.
    ++metrics_.set("host").counter("rejected_writes");
    if (durability_) durability_->write_rejected(ext->host_tag);
    metrics_.set("host").counter("rejected_write_bytes") += std::uint64_t(ext->sectors) * kSectorBytes;
  } else if (write) {
    oracle_.acknowledge_write(ext->lba, ext->sectors, ext->tokens.data());
    if (durability_) durability_->write_acknowledged(ext->host_tag, ext->fua);
    ++writes_;
    fua_writes_ += ext->fua;
    write_bytes_ += std::uint64_t(ext->sectors) * kSectorBytes;
    figures_.latency_of(HostOp::Write).record(latency_ns);
  } else {
    oracle_.check_read(ext->lba, ext->sectors, ext->tokens.data(), ext->status);
    ++reads_;
    read_bytes_ += std::uint64_t(ext->sectors) * kSectorBytes;
    figures_.latency_of(HostOp::Read).record(latency_ns);
  }
  const bool data = ext->op == HostOp::Read || ext->op == HostOp::Write;
  if (data)  // the series is the data's (a flush or a trim moves none)
    over_time_.record(static_cast<std::uint64_t>(now.to_seconds() * 1e9 + 0.5), latency_ns,
                      std::uint64_t(ext->sectors) * kSectorBytes, write);
  IssuerFigures& by_issuer = issuer_figures(ext->issuer);
  std::uint64_t*& completions = by_issuer.completions[static_cast<std::size_t>(ext->op)];
  if (!completions) completions = &by_issuer.set->counter(kIssuerCompletionNames[static_cast<std::size_t>(ext->op)]);
  ++*completions;
  if (data) {
    if (!by_issuer.latency) by_issuer.latency = &by_issuer.set->histogram("latency_ns");
    by_issuer.latency->record(latency_ns);
  }
  if (!flows_.empty()) record_flow(flows_[s.queue], *ext, latency_ns, now);
  in_flight_.remove(ext->host_tag);
  workload_.completed(ext->issuer);
  free_[s.queue].push_back(ext->host_tag);
  --outstanding_;
  ++completed_;
  if (cfg_.progress && (completed_ & 1023) == 0) cfg_.progress(completed_, now.to_seconds(), workload_.fraction_done());
  if (cfg_.heartbeat) cfg_.heartbeat(completed_, now.to_seconds());
  if (cfg_.stop_after && completed_ == cfg_.stop_after) sc_core::sc_pause();  // the power goes now
  last_completion_ = now;
  if (vcd_) vcd_->change(vcd_outstanding_, outstanding_);
  slot_freed_.notify(sc_core::SC_ZERO_TIME);
  return tlm::TLM_COMPLETED;
}

}  // namespace ssd::stimuli
