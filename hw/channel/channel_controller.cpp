#include "hw/channel/channel_controller.h"

#include "tlm/bus_access.h"

#include <algorithm>
#include <string>

namespace ssd::hw {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {
// VCD codes of a die's state (waves/die_state.filter names them in GTKWave).
enum StateCode : std::uint64_t { kIdle = 0, kDma = 1, kCmd = 2, kRead = 3, kProg = 4, kErase = 5, kOut = 6, kWait = 7 };
std::uint64_t array_code(tlmx::FlashOpcode op) {
  return tlmx::is_read(op) ? kRead : op == tlmx::FlashOpcode::Program ? kProg : kErase;
}
std::uint64_t ticks(sc_time t) { return t.value(); }  // kernel ticks, the VCD's unit
}  // namespace

ChannelController::ChannelController(sc_core::sc_module_name name, const ChannelControllerConfig& config,
                                     NandArray& array, MetricsRegistry& metrics, tlmx::VcdTracer* vcd)
    : sc_module(name),
      flash_target("flash_target"),
      dma("dma"),
      cfg_(config),
      queue_policy_(make_die_queue_policy(config.scheduler, config.geometry)),
      arbitration_(make_bus_arbitration(config.arbitration)),
      array_(array),
      vcd_(vcd),
      posted_("posted"),
      bus_busy_ticks_(stats_of(*this, metrics).busy("busy_fraction")),
      bus_transfers_(stats_of(*this, metrics).counter("transfers")),
      first_die_(config.channel * config.geometry.dies_per_channel()) {
  flash_target.register_nb_transport_fw(this, &ChannelController::nb_transport_fw);
  stats_of(*this, metrics).report_as("channels", cfg_.channel);
  const std::string ch = this->name();
  if (vcd_) vcd_owner_ = vcd_->add(ch, "bus_owner", 8);
  dma_dummy_.resize(std::max(cfg_.geometry.page_bytes, cfg_.geometry.oob_bytes));
  SC_METHOD(step);
  sensitive << posted_.get_event() << bus_free_ << outgoing_done_;
  for (std::uint32_t d = 0; d < cfg_.geometry.dies_per_channel(); ++d) {
    auto die = std::make_unique<Die>();
    die->index = d;
    MetricSet& m = stats_of(*this, "die" + std::to_string(d), metrics);
    m.report_as("dies", d);
    die->busy_ticks = &m.busy("busy_fraction");
    die->reads = &m.counter("reads");
    die->programs = &m.counter("programs");
    die->erases = &m.counter("erases");
    die->multiplane = &m.counter("multiplane_operations");
    if (vcd_) {
      die->vcd_state = vcd_->add(ch + ".die" + std::to_string(d), "state", 3);
      die->vcd_queue = vcd_->add(ch + ".die" + std::to_string(d), "queue", 8);
    }
    sensitive << die->event;
    dies_.push_back(std::move(die));
  }
  dont_initialize();
}

tlm::tlm_sync_enum ChannelController::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                      sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) SC_REPORT_ERROR(name(), "flash protocol: only BEGIN_REQ goes forward");
  tlmx::FlashCommand* cmd = trans.get_extension<tlmx::FlashCommand>();
  if (!cmd) SC_REPORT_ERROR(name(), "flash command without FlashCommand extension");
  posted_.notify(trans, delay);
  return tlm::TLM_ACCEPTED;
}

void ChannelController::set_phase(Die& die, Phase p, sc_time now) {
  if (die.phase == Phase::Array) *die.busy_ticks += (now - die.busy_since).value();  // the die worked
  die.phase = p;
  if (p == Phase::Array) die.busy_since = now;
  if (!vcd_ || p == Phase::Array || p == Phase::DataOut) return;  // traced at the grant
  trace_state(die, p == Phase::Idle ? kIdle : p == Phase::DmaIn ? kDma : kWait, now);
}

std::uint32_t ChannelController::data_bytes(tlmx::FlashOpcode op) const {
  return op == tlmx::FlashOpcode::ReadOob ? cfg_.geometry.oob_bytes : cfg_.geometry.page_bytes;
}

void ChannelController::trace_state(Die& die, std::uint64_t code, sc_time at) {
  if (vcd_) vcd_->change_at(die.vcd_state, code, ticks(at));
}

bool ChannelController::anyone_waits_for_bus() const {
  for (const auto& d : dies_)
    if (d->phase == Phase::WantBusCmd || d->phase == Phase::WantBusOut) return true;
  return false;
}

void ChannelController::trace_queue(Die& die) {
  if (vcd_) vcd_->change(die.vcd_queue, std::min<std::size_t>(die.queue.size(), 255));
}

void ChannelController::step() {
  const sc_time now = sc_core::sc_time_stamp();
  while (tlm::tlm_generic_payload* trans = posted_.get_next_transaction()) {
    tlmx::FlashCommand* cmd = trans->get_extension<tlmx::FlashCommand>();
    const std::uint32_t die = cfg_.geometry.die_of_block(cfg_.geometry.block_of(cmd->ppn));
    if (cmd->ppn >= cfg_.geometry.total_pages() || cfg_.geometry.channel_of_die(die) != cfg_.channel)
      SC_REPORT_ERROR(name(), ("flash " + std::string(tlmx::to_string(cmd->opcode)) + " of page " +
                               std::to_string(cmd->ppn) + " sent to the wrong channel")
                                  .c_str());
    Die& d = *dies_[die - first_die_];
    d.queue.push_back(QueuedCommand{trans, cmd, now});
    trace_queue(d);
  }
  complete_outgoing(now);
  for (auto& d : dies_)
    if (d->phase != Phase::Idle && d->phase != Phase::WantBusCmd && d->phase != Phase::WantBusOut && d->until <= now)
      advance(*d, now);
  for (auto& d : dies_)
    if (d->phase == Phase::Idle && !d->queue.empty()) start(*d, now);
  arbitrate(now);
}

// Moves each page of the operation (one per plane) between its own data-buffer slot and the
// controller, all requested now; the system bus and the DRAM serialize them. Returns when the
// last one is done.
sc_time ChannelController::dma_transfer(Die& die, tlm::tlm_command command, sc_time start) {
  tlm::tlm_generic_payload& t = die.dma_trans;
  sc_time last = SC_ZERO_TIME;
  const std::uint32_t bytes = data_bytes(die.group[0].cmd->opcode);
  for (const Op& o : die.group) {
    tlmx::prepare_bus_access(t, command, cfg_.dram_base + o.cmd->buffer_addr, dma_dummy_.data(), bytes);
    sc_time delay = start;
    dma->b_transport(t, delay);
    if (t.is_response_error())
      SC_REPORT_ERROR(name(), ("DMA to data buffer failed: " + t.get_response_string()).c_str());
    last = std::max(last, delay);
  }
  return last;
}

bool ChannelController::pick_group(Die& die, sc_time now) {
  const std::size_t head = queue_policy_->next(die.queue);
  die.group.clear();
  die.group.push_back(die.queue[head]);
  die.queue.erase(die.queue.begin() + static_cast<std::ptrdiff_t>(head));
  const tlmx::FlashCommand* first = die.group[0].cmd;
  if (cfg_.nand.multiplane && first->opcode != tlmx::FlashOpcode::Erase && cfg_.geometry.planes_per_die > 1) {
    // Per other plane, the first queued command to that plane of the same kind and page offset,
    // passing only reads of that plane (reordering around a read is safe: the firmware never
    // has a page read while it is programmed or its block erased); a program or erase of that
    // plane that is not the partner keeps everything behind it in order (programs of a block
    // stay in page order).
    const FlashGeometry& g = cfg_.geometry;
    auto plane_of = [&g](Ppn p) { return g.plane_of_block(g.block_of(p)) % g.planes_per_die; };
    std::uint32_t done_mask = 1u << plane_of(first->ppn), done = 1;
    const std::uint32_t page0 = g.page_in_block(first->ppn);
    // Like a hardware scheduler, look only a bounded way into the queue for partners.
    constexpr std::size_t kLookahead = 32;
    for (std::size_t i = 0; i < die.queue.size() && i < kLookahead && done < g.planes_per_die;) {
      const tlmx::FlashCommand* c = die.queue[i].cmd;
      const std::uint32_t plane = plane_of(c->ppn);
      if (done_mask & (1u << plane)) {
        ++i;
        continue;
      }
      if (c->opcode == first->opcode && g.page_in_block(c->ppn) == page0) {
        die.group.push_back(die.queue[i]);
        die.queue.erase(die.queue.begin() + static_cast<std::ptrdiff_t>(i));
        done_mask |= 1u << plane;
        ++done;
        continue;
      }
      if (!tlmx::is_read(c->opcode)) {  // nothing of this plane may pass it
        done_mask |= 1u << plane;
        ++done;
      }
      ++i;
    }
    // A lone command waits a little for its partner (the firmware issues them microseconds apart).
    const sc_time deadline = die.group[0].arrived + cfg_.nand.multiplane_wait;
    if (die.group.size() == 1 && now < deadline) {
      die.queue.insert(die.queue.begin() + static_cast<std::ptrdiff_t>(head), die.group[0]);
      die.group.clear();
      die.event.notify(deadline - now);
      return false;
    }
    if (die.group.size() > 1) ++*die.multiplane;
  }
  trace_queue(die);
  return true;
}

void ChannelController::start(Die& die, sc_time now) {
  if (!pick_group(die, now)) return;  // waiting for a multi-plane partner
  if (die.group[0].cmd->opcode == tlmx::FlashOpcode::Program) {
    set_phase(die, Phase::DmaIn, now);
    sc_time d = dma_transfer(die, tlm::TLM_READ_COMMAND, SC_ZERO_TIME);
    die.until = now + d;
    die.event.notify(d);
  } else {
    set_phase(die, Phase::WantBusCmd, now);
    die.ready_since = now;
  }
}

void ChannelController::arbitrate(sc_time now) {
  if (now < bus_free_at_) {
    if (anyone_waits_for_bus()) bus_free_.notify(bus_free_at_ - now);
    return;
  }
  waiting_.clear();
  waiting_dies_.clear();
  for (auto& d : dies_) {
    if (d->phase != Phase::WantBusCmd && d->phase != Phase::WantBusOut) continue;
    BusRequest r;
    r.kind = d->phase == Phase::WantBusOut                              ? BusRequest::Kind::DataOut
             : d->group[0].cmd->opcode == tlmx::FlashOpcode::Program ? BusRequest::Kind::DataIn
                                                                      : BusRequest::Kind::Command;
    r.ready_since = d->ready_since.value();
    r.queued = static_cast<std::uint32_t>(d->queue.size());
    waiting_.push_back(r);
    waiting_dies_.push_back(d.get());
  }
  if (waiting_.empty()) return;
  Die& die = *waiting_dies_[arbitration_->choose(waiting_)];
  const std::uint64_t planes = die.group.size();
  const tlmx::FlashOpcode op = die.group[0].cmd->opcode;
  sc_time bus;
  if (die.phase == Phase::WantBusOut) {  // data out; the DMA to the data buffer follows
    bus = cfg_.bus.transfer(std::uint64_t(data_bytes(op)) * planes);
    *die.busy_ticks += bus.value();
    set_phase(die, Phase::DataOut, now);
    trace_state(die, kOut, now);
    die.until = now + bus;
    die.event.notify(bus);
  } else {  // command/address (+ data in), then the array time
    const std::uint32_t cycles = tlmx::is_read(op)                 ? cfg_.nand.read_cmd_cycles
                                 : op == tlmx::FlashOpcode::Program ? cfg_.nand.program_cmd_cycles
                                                                    : cfg_.nand.erase_cmd_cycles;
    bus = cfg_.nand.cmd_cycle * double(cycles * planes);
    if (op == tlmx::FlashOpcode::Program) bus += cfg_.bus.transfer(std::uint64_t(cfg_.geometry.page_bytes) * planes);
    sc_time array_time;
    for (const Op& o : die.group) {
      const std::uint32_t page = cfg_.geometry.page_in_block(o.cmd->ppn);
      const sc_time t = tlmx::is_read(op)                 ? cfg_.nand.read_time(page)
                        : op == tlmx::FlashOpcode::Program ? cfg_.nand.prog_time(page)
                                                           : cfg_.nand.t_erase;
      array_time = std::max(array_time, t);
    }
    set_phase(die, Phase::Array, now);
    trace_state(die, kCmd, now);
    trace_state(die, array_code(op), now + bus);
    die.until = now + bus + array_time;
    die.event.notify(bus + array_time);
  }
  bus_free_at_ = now + bus;
  bus_busy_ticks_ += bus.value();
  ++bus_transfers_;
  if (vcd_) {
    vcd_->change_at(vcd_owner_, die.index + 1, ticks(now));
    vcd_->change_at(vcd_owner_, 0, ticks(bus_free_at_));
  }
  if (anyone_waits_for_bus()) bus_free_.notify(bus);
}

void ChannelController::advance(Die& die, sc_time now) {
  const tlmx::FlashOpcode op = die.group[0].cmd->opcode;
  switch (die.phase) {
    case Phase::DmaIn:
      set_phase(die, Phase::WantBusCmd, now);
      die.ready_since = now;
      break;
    case Phase::Array:  // the array operation is done: apply it to the NAND contents
      for (const Op& o : die.group) {
        tlmx::FlashCommand* c = o.cmd;
        if (tlmx::is_read(op)) {
          PageContent pc = array_.read(c->ppn);
          c->lpn = pc.lpn;
          c->token = pc.token;
          ++*die.reads;
        } else if (op == tlmx::FlashOpcode::Program) {
          array_.program(c->ppn, c->lpn, c->token);
          ++*die.programs;
        } else {
          array_.erase(cfg_.geometry.block_of(c->ppn));
          ++*die.erases;
        }
      }
      if (tlmx::is_read(op)) {
        set_phase(die, Phase::WantBusOut, now);
        die.ready_since = now;
      } else {
        finish(die, now);
      }
      break;
    case Phase::DataOut: {  // the page register is empty: the die is free, the DMA runs on
      const sc_time done = dma_transfer(die, tlm::TLM_WRITE_COMMAND, SC_ZERO_TIME);
      Outgoing out{now + done, {}};
      if (!spare_groups_.empty()) {
        out.ops = std::move(spare_groups_.back());
        spare_groups_.pop_back();
      }
      out.ops.swap(die.group);
      outgoing_.push_back(std::move(out));
      outgoing_done_.notify(done);  // keeps the earliest pending time
      set_phase(die, Phase::Idle, now);
      break;
    }
    default: break;
  }
}

void ChannelController::respond(const std::vector<Op>& ops) {
  for (const Op& o : ops) {
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_time delay = SC_ZERO_TIME;
    o.trans->set_response_status(tlm::TLM_OK_RESPONSE);
    flash_target->nb_transport_bw(*o.trans, phase, delay);
  }
}

void ChannelController::finish(Die& die, sc_time now) {
  set_phase(die, Phase::Idle, now);
  respond(die.group);
  die.group.clear();
}

// Completes the reads whose DMA to DRAM is done, in the order their data left the dies, and
// wakes again for the earliest one still in flight.
void ChannelController::complete_outgoing(sc_time now) {
  if (outgoing_.empty()) return;
  sc_time next = sc_core::sc_max_time();
  for (std::size_t i = 0; i < outgoing_.size();) {
    if (outgoing_[i].done <= now) {
      respond(outgoing_[i].ops);
      outgoing_[i].ops.clear();
      spare_groups_.push_back(std::move(outgoing_[i].ops));
      outgoing_.erase(outgoing_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      next = std::min(next, outgoing_[i].done);
      ++i;
    }
  }
  if (!outgoing_.empty()) outgoing_done_.notify(next - now);
}

void ChannelController::end_of_simulation_stats(sc_time end) {
  for (auto& d : dies_)
    if (d->phase == Phase::Array) {
      *d->busy_ticks += (std::min(end, d->until) - d->busy_since).value();
      d->busy_since = end;
    }
}

}  // namespace ssd::hw
