#include "stimuli/host/host_model.h"

#include "fw/runtime/host_command.h"

namespace ssd::stimuli {

using sc_core::sc_time;

HostModel::HostModel(sc_core::sc_module_name name, const HostModelConfig& config, Workload& workload,
                     IntegrityOracle& oracle, MetricsRegistry& metrics, tlmx::VcdTracer* vcd)
    : sc_module(name),
      nvme("nvme"),
      cfg_(config),
      workload_(workload),
      oracle_(oracle),
      reads_(metrics.set("host").counter("reads")),
      writes_(metrics.set("host").counter("writes")),
      read_bytes_(metrics.set("host").counter("read_bytes")),
      write_bytes_(metrics.set("host").counter("write_bytes")),
      held_(metrics.set("host").counter("held_for_ordering")),
      folded_(metrics.set("host").counter("folded_requests")),
      read_latency_(metrics.set("host").histogram("read_latency_ns")),
      write_latency_(metrics.set("host").histogram("write_latency_ns")),
      over_time_(metrics.set("host").series("completions")),
      metrics_(metrics),
      vcd_(vcd) {
  nvme.register_nb_transport_bw(this, &HostModel::nb_transport_bw);
  for (std::uint32_t i = 0; i < cfg_.queue_depth; ++i) {
    auto s = std::make_unique<Slot>();
    s->ext = new tlmx::HostCommandExtension;
    s->ext->host_tag = i;
    s->trans.set_extension(s->ext);  // owned by the payload
    slots_.push_back(std::move(s));
    free_.push_back(cfg_.queue_depth - 1 - i);
  }
  if (vcd_) vcd_outstanding_ = vcd_->add("ssd.host", "outstanding", 16);
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
  // Per-stream queue depths: a request that overlaps one in flight waits parked while the other
  // streams go on (one job's ordering must not stall another's queue). With one shared queue a
  // held request holds the queue, keeping the workload's order.
  const bool per_stream = !workload_.stream_depths().empty();
  struct Parked {
    HostRequest req;
    fw::PageSpan span;
  };
  std::vector<Parked> parked;
  InFlightPages still_parked;  // the pages of the requests left in `parked`
  // Issues the parked requests that no longer conflict (in order: one never passes an earlier
  // parked request it overlaps).
  auto issue_parked = [&]() {
    still_parked.clear();
    for (std::size_t i = 0; i < parked.size();) {
      const Parked& p = parked[i];
      if (in_flight_.conflicts(p.span.first, p.span.count, p.req.write) ||
          still_parked.conflicts(p.span.first, p.span.count, p.req.write)) {
        still_parked.add(0, p.span.first, p.span.count, p.req.write);
        ++i;
        continue;
      }
      const Parked issued = p;
      parked.erase(parked.begin() + static_cast<std::ptrdiff_t>(i));
      send(issued.req, sc_core::sc_time_stamp(), issued.span);
    }
  };
  while (true) {
    issue_parked();
    if (!workload_.ready()) {  // per-stream queue depths: every stream is full
      sc_core::wait(slot_freed_);
      continue;
    }
    if (!workload_.next(req)) break;
    check_and_fold(req);
    sc_time arrival = sc_core::sc_time_stamp();
    if (cfg_.open_loop) {
      arrival = sc_time(double(req.arrival_ns) * cfg_.time_scale, sc_core::SC_NS);
      if (arrival > sc_core::sc_time_stamp()) sc_core::wait(arrival - sc_core::sc_time_stamp());
    }
    const fw::PageSpan span = fw::page_span(req.lba, req.sectors, page_bytes);
    if (span.count > cfg_.max_request_pages)
      throw WorkloadError(where() + ": request of " + std::to_string(span.count) +
                          " pages is larger than the drive's data buffer (firmware.buffer_slots = " +
                          std::to_string(cfg_.max_request_pages) + ")");
    if (per_stream) {
      if (in_flight_.conflicts(span.first, span.count, req.write) ||
          still_parked.conflicts(span.first, span.count, req.write)) {
        parked.push_back({req, span});
        still_parked.add(0, span.first, span.count, req.write);
        ++held_;
        continue;
      }
    } else {
      bool held = false;
      while (free_.empty() || in_flight_.conflicts(span.first, span.count, req.write)) {
        if (!free_.empty()) held = true;
        sc_core::wait(slot_freed_);
      }
      if (held) ++held_;
      if (!cfg_.open_loop) arrival = sc_core::sc_time_stamp();
    }
    send(req, arrival, span);
  }
  while (!parked.empty() || outstanding_ > 0) {
    issue_parked();
    if (!parked.empty() || outstanding_ > 0) sc_core::wait(slot_freed_);
  }
  finished_ = true;
  finished_event_.notify(sc_core::SC_ZERO_TIME);
}

std::string HostModel::where() const {
  return workload_.position().empty() ? workload_.describe() : workload_.position();
}

void HostModel::check_and_fold(HostRequest& req) {
  if (req.sectors == 0) throw WorkloadError(where() + ": request of zero sectors");
  if (req.lba + req.sectors <= cfg_.capacity_sectors) return;
  if (!cfg_.fold_addresses || req.sectors > cfg_.capacity_sectors)
    throw WorkloadError(where() + ": request at sector " + std::to_string(req.lba) + " (+" +
                        std::to_string(req.sectors) + ") is beyond the drive's " +
                        std::to_string(cfg_.capacity_sectors) + " sectors (use --fold to map it in)");
  // Fold by whole pages so the request keeps its alignment within a page.
  const std::uint32_t page_bytes = oracle_.page_bytes();
  const std::uint64_t page_sectors = page_bytes / fw::kSectorBytes;
  const std::uint64_t span_pages = fw::page_span(req.lba, req.sectors, page_bytes).count;
  const std::uint64_t slots = cfg_.capacity_sectors / page_sectors - span_pages + 1;
  req.lba = (req.lba / page_sectors) % slots * page_sectors + req.lba % page_sectors;
  ++folded_;
}

void HostModel::send(const HostRequest& req, sc_time arrival, const fw::PageSpan& span) {
  if (free_.empty()) throw std::logic_error("host: no free command slot (queue depths add up wrong)");
  if (first_) {
    first_arrival_ = arrival;
    first_ = false;
  }
  const std::uint32_t id = free_.back();
  free_.pop_back();
  Slot& s = *slots_[id];
  s.arrival = arrival;
  tlmx::HostCommandExtension& ext = *s.ext;
  ext.write = req.write;
  ext.lba = req.lba;
  ext.sectors = req.sectors;
  ext.issuer = req.issuer;
  if (req.write) {
    oracle_.make_write_tokens(req.lba, req.sectors, ext.tokens);
  } else {
    ext.tokens.assign(span.count, 0);
  }
  in_flight_.add(id, span.first, span.count, req.write);
  ++outstanding_;
  if (vcd_) vcd_->change(vcd_outstanding_, outstanding_);
  s.trans.set_command(req.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  s.trans.set_address(req.lba * fw::kSectorBytes);
  s.trans.set_data_length(req.sectors * fw::kSectorBytes);
  s.trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = sc_core::SC_ZERO_TIME;
  nvme->nb_transport_fw(s.trans, phase, delay);
}

MetricSet& HostModel::issuer_metrics(std::uint32_t issuer) {
  if (auto it = issuers_.find(issuer); it != issuers_.end()) return *it->second;
  const bool own = issuers_.size() < kMaxIssuers;
  MetricSet& set = metrics_.set(own ? "host.issuers." + std::to_string(issuer) : "host.issuers.other");
  if (own) issuers_[issuer] = &set;
  return set;
}

tlm::tlm_sync_enum HostModel::nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time&) {
  auto* ext = trans.get_extension<tlmx::HostCommandExtension>();
  Slot& s = *slots_[ext->host_tag];
  const sc_time now = sc_core::sc_time_stamp();
  const std::uint64_t latency_ns = static_cast<std::uint64_t>((now - s.arrival).to_seconds() * 1e9 + 0.5);
  if (ext->write) {
    oracle_.acknowledge_write(ext->lba, ext->sectors, ext->tokens.data());
    ++writes_;
    write_bytes_ += std::uint64_t(ext->sectors) * fw::kSectorBytes;
    write_latency_.record(latency_ns);
  } else {
    oracle_.check_read(ext->lba, ext->sectors, ext->tokens.data());
    ++reads_;
    read_bytes_ += std::uint64_t(ext->sectors) * fw::kSectorBytes;
    read_latency_.record(latency_ns);
  }
  over_time_.record(static_cast<std::uint64_t>(now.to_seconds() * 1e9 + 0.5), latency_ns,
                    std::uint64_t(ext->sectors) * fw::kSectorBytes, ext->write);
  MetricSet& by_issuer = issuer_metrics(ext->issuer);
  ++by_issuer.counter(ext->write ? "writes" : "reads");
  by_issuer.histogram("latency_ns").record(latency_ns);
  in_flight_.remove(ext->host_tag);
  workload_.completed(ext->issuer);
  free_.push_back(ext->host_tag);
  --outstanding_;
  ++completed_;
  if (cfg_.progress && (completed_ & 1023) == 0) cfg_.progress(completed_, now.to_seconds(), workload_.fraction_done());
  last_completion_ = now;
  if (vcd_) vcd_->change(vcd_outstanding_, outstanding_);
  slot_freed_.notify(sc_core::SC_ZERO_TIME);
  return tlm::TLM_COMPLETED;
}

}  // namespace ssd::stimuli
