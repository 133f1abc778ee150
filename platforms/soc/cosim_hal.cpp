#include "platforms/soc/cosim_hal.h"

#include <stdexcept>

namespace ssd::platform {

CoSimHal::CoSimHal(sc_core::sc_module_name name, const FlashGeometry& geometry, const tlmx::AddressMap& map,
                   hw::FirmwareCore& core, MetricsRegistry& metrics, const hw::NandArray& array)
    : sc_module(name),
      flash("flash"),
      host_commands("host_commands"),
      host_requests("host_requests"),
      geo_(geometry),
      map_(map),
      core_(core),
      array_(array),
      placer_(map.sram_size, map.dram_size),
      records_cached_(core.models_data_cache()),
      last_post_(geometry.total_dies()) {
  flash.register_nb_transport_bw(this, &CoSimHal::nb_transport_bw);
  host_commands.register_nb_transport_fw(this, &CoSimHal::host_command);
  host_requests.register_nb_transport_bw(this, &CoSimHal::host_dma_done);
  MetricSet& profile = metrics.set("firmware.profile");
  for (std::size_t w = 0; w < fw::kFirmwareWorkKinds; ++w)
    profile_[w] = &profile.counter(fw::work_name(static_cast<fw::FirmwareWork>(w)) + std::string("_cycles"));
  completion_ = new tlmx::HostDmaRequest;
  completion_trans_.set_extension(completion_);
  SC_METHOD(fire_timers);
  sensitive << timer_due_;
  dont_initialize();
}

void CoSimHal::start_timer(const fw::HalOp& op) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  timers_.push(Timer{now + core_.offset() + sc_core::sc_time(double(op.wait_ns), sc_core::SC_NS), op.tag, op.trail});
  timer_due_.notify(timers_.top().due - now);  // an earlier pending notification stands
}

void CoSimHal::fire_timers() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  while (!timers_.empty() && timers_.top().due <= now) {
    fw::HalResult done;
    done.trail = timers_.top().trail;
    const std::uint32_t tag = timers_.top().tag;
    timers_.pop();
    core_.post([this, tag, done] { listener_->on_hal_complete(tag, done); }, hw::JobHint{});
  }
  if (!timers_.empty()) timer_due_.notify(timers_.top().due - now);
}

CoSimHal::Slot& CoSimHal::slot_for(std::uint32_t tag) {
  while (slots_.size() <= tag) {
    auto s = std::make_unique<Slot>();
    s->cmd = new tlmx::FlashCommand;
    s->trans.set_extension(s->cmd);
    s->dma = new tlmx::HostDmaRequest;
    s->host_trans.set_extension(s->dma);
    slots_.push_back(std::move(s));
  }
  return *slots_[tag];
}

tlm::tlm_sync_enum CoSimHal::host_command(tlm::tlm_generic_payload& trans, tlm::tlm_phase&, sc_core::sc_time&) {
  const tlmx::FetchedCommand fetched = *trans.get_extension<tlmx::FetchedCommand>();
  if (flow_aware_)
    flow_class_of_request_[fetched.command->trail.owner] = static_cast<std::uint8_t>(fetched.command->priority);
  core_.post(
      [this, fetched] {
        tlmx::HostCommandExtension& e = *fetched.command;
        fw::HostCommand cmd{fetched.slot, e.op, e.lba, e.sectors, nullptr, nullptr, e.issuer, e.trail, e.fua};
        if (e.op == HostOp::Write)
          cmd.write_tokens = e.tokens.data();
        else
          cmd.read_tokens = e.tokens.data();
        host_handler_->on_host_command(cmd);
      },
      hw::JobHint{});
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum CoSimHal::host_dma_done(tlm::tlm_generic_payload& trans, tlm::tlm_phase&, sc_core::sc_time&) {
  const std::uint32_t tag = trans.get_extension<tlmx::HostDmaRequest>()->tag;
  core_.post(
      [this, tag] {  // the slot's request stays untouched until this job has run
        fw::HalResult done;
        done.trail = slots_[tag]->dma->trail;
        listener_->on_hal_complete(tag, done);
      },
      hw::JobHint{});
  return tlm::TLM_COMPLETED;
}

void CoSimHal::start_host_dma(const fw::HalOp& op) {
  Slot& s = slot_for(op.tag);
  tlmx::HostDmaRequest& d = *s.dma;
  d.kind =
      op.kind == fw::OpKind::HostDmaOut ? tlmx::HostDmaRequest::Kind::ToHost : tlmx::HostDmaRequest::Kind::ToDevice;
  d.slot = op.host_cmd;
  d.bytes = op.bytes;
  d.buffer_addr = op.buffer_addr;
  d.tag = op.tag;
  d.trail = op.trail;
  s.host_trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = core_.offset();
  host_requests->nb_transport_fw(s.host_trans, phase, delay);
}

void CoSimHal::complete_host_command(std::uint32_t host_cmd, const LatencyTrail& trail, HostStatus status) {
  if (flow_aware_) flow_class_of_request_.erase(trail.owner);
  completion_->kind = tlmx::HostDmaRequest::Kind::Completion;
  completion_->slot = host_cmd;
  completion_->status = status;
  completion_->trail = trail;
  completion_->trail.advance(Stage::Firmware, now_ticks());
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = core_.offset();
  host_requests->nb_transport_fw(completion_trans_, phase, delay);
}

void CoSimHal::issue(const fw::HalOp& op) {
  if (op.kind == fw::OpKind::HostDmaIn || op.kind == fw::OpKind::HostDmaOut) {
    start_host_dma(op);
    return;
  }
  if (op.kind == fw::OpKind::Timer) {
    start_timer(op);
    return;
  }
  Slot& s = slot_for(op.tag);
  tlmx::FlashCommand& c = *s.cmd;
  c.opcode = op.kind == fw::OpKind::Read      ? tlmx::FlashOpcode::Read
             : op.kind == fw::OpKind::ReadOob ? tlmx::FlashOpcode::ReadOob
             : op.kind == fw::OpKind::Program ? tlmx::FlashOpcode::Program
                                              : tlmx::FlashOpcode::Erase;
  c.ppn = op.ppn;
  c.lpn = op.lpn;
  c.token = op.token;
  c.version = op.version;
  c.buffer_addr = op.buffer_addr;
  c.tag = op.tag;
  c.partner_wait = sc_core::sc_time(double(op.partner_wait_ns), sc_core::SC_NS);
  c.background = op.background;
  c.slc = op.slc;
  c.flow_class = tlmx::FlashCommand::kNoFlowClass;
  if (flow_aware_ && op.trail.owner != 0)
    if (const auto it = flow_class_of_request_.find(op.trail.owner); it != flow_class_of_request_.end())
      c.flow_class = it->second;
  c.hold_up = op.hold_up;
  c.origin = op.origin == fw::OpOrigin::Gc        ? tlmx::CommandOrigin::Gc
             : op.origin == fw::OpOrigin::Mapping ? tlmx::CommandOrigin::Mapping
                                                  : tlmx::CommandOrigin::Host;
  c.trail = op.trail;
  s.trans.set_command(fw::is_flash_read(op.kind) ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  s.trans.set_address(op.ppn);
  s.trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const std::uint32_t die = geo_.die_of_block(geo_.block_of(op.ppn));
  const std::uint32_t channel = geo_.channel_of_die(die);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  // Commands reach a die's queue in the order the firmware issued them. With several cores,
  // jobs run one after another in the host but overlap in simulated time, so a later-issued
  // command could carry an earlier local time; it is posted no earlier than its predecessor.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time delay = core_.offset();
  if (last_post_[die] > now + delay) delay = last_post_[die] - now;
  last_post_[die] = now + delay;
  flash[static_cast<int>(channel)]->nb_transport_fw(s.trans, phase, delay);
}

tlm::tlm_sync_enum CoSimHal::nb_transport_bw(int channel, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                             sc_core::sc_time&) {
  // The command's slot stays untouched until the firmware has handled this completion, so the
  // job reads the result from it (a two-pointer capture needs no allocation).
  const tlmx::FlashCommand* c = trans.get_extension<tlmx::FlashCommand>();
  core_.post(
      [this, c] {
        listener_->on_hal_complete(c->tag, fw::HalResult{c->lpn, c->token, c->trail, c->failed, c->version});
      },
      hw::JobHint{channel});  // sockets are bound in channel order
  return tlm::TLM_COMPLETED;
}

void CoSimHal::touch(const fw::TableRegion& table, std::uint64_t offset, std::uint32_t bytes, fw::Access access) {
  if (offset + bytes > table.bytes) throw std::out_of_range("firmware access beyond table '" + table.name + "'");
  const std::uint64_t base = table.memory == fw::MemoryKind::Sram ? map_.sram_base : map_.dram_base;
  core_.access(base + table.base + offset, bytes, access == fw::Access::Write);
}

void CoSimHal::time_record_access(const fw::TableRegion& records, std::uint64_t offset, std::uint32_t bytes,
                                  fw::Access access) {
  const std::uint64_t base = records.memory == fw::MemoryKind::Sram ? map_.sram_base : map_.dram_base;
  core_.access_record(base + records.base + offset, bytes, access == fw::Access::Write);
}

}  // namespace ssd::platform
