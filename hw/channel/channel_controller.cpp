#include "hw/channel/channel_controller.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "tlm/bus_access.h"
#include "tlm/time_base.h"

namespace ssd::hw {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {
// VCD codes of a die's state; kDieStateNames (flash_die.h) names them in the waveform view.
enum StateCode : std::uint64_t {
  kIdle = 0,
  kDma = 1,
  kCmd = 2,
  kRead = 3,
  kProg = 4,
  kErase = 5,
  kOut = 6,
  kWait = 7,
  kStaged = 8,
  kWaitCache = 9,
  kSuspending = 10,  // only with the cache commands or suspend (4-bit signals)
  kRetry = 11,
  kSoftSense = 12  // only with reliability.errors (4-bit signals)
};
static_assert(std::size(kDieStateNames) == kSoftSense + 1, "a name for every die state code");
std::uint64_t array_code(const tlmx::FlashCommand& c) {
  if (!tlmx::is_read(c.opcode)) return c.opcode == tlmx::FlashOpcode::Program ? kProg : kErase;
  return c.soft ? kSoftSense : c.retry_step ? kRetry : kRead;
}
sc_time us(double v) { return sc_time(v, sc_core::SC_US); }
std::uint64_t ticks(sc_time t) { return t.value(); }  // kernel ticks, the VCD's unit
}  // namespace

ChannelController::ChannelController(sc_core::sc_module_name name, const ChannelControllerConfig& config,
                                     NandArray& array, MetricsRegistry& metrics, tlmx::VcdTracer* vcd)
    : sc_module(name),
      flash_target("flash_target"),
      dma("dma"),
      cfg_(config),
      queue_policy_(make_die_queue_policy(config.scheduler, config.geometry, config.bus.gc_max_wait)),
      arbitration_(make_bus_arbitration(config.arbitration)),
      array_(array),
      vcd_(vcd),
      posted_("posted"),
      retried_("retried"),
      bus_busy_(stats_of(*this, metrics).busy("busy_fraction")),
      bus_transfers_(stats_of(*this, metrics).counter("transfers")),
      first_die_(config.channel * config.geometry.dies_per_channel()),
      read_energy_(stats_of(*this, metrics).energy("nand_read")),
      program_energy_(stats_of(*this, metrics).energy("nand_program")),
      erase_energy_(stats_of(*this, metrics).energy("nand_erase")) {
  flash_target.register_nb_transport_fw(this, &ChannelController::nb_transport_fw);
  stats_of(*this, metrics).report_as("channels", cfg_.channel);
  const std::string ch = this->name();
  if (vcd_) vcd_owner_ = vcd_->add(ch, "bus_owner", 8);
  dma_dummy_.resize(std::max(cfg_.geometry.page_bytes, cfg_.geometry.oob_bytes));
  SC_METHOD(step);
  sensitive << posted_.get_event() << retried_.get_event() << bus_free_ << outgoing_done_;
  const NandTiming& n = cfg_.nand;
  const bool cache = n.cache_read || n.cache_program, suspend = n.program_suspend || n.erase_suspend;
  const ReliabilityConfig& rel = cfg_.reliability;
  if (rel.errors) {
    errors_ = std::make_unique<ReadErrorModel>(rel, cfg_.geometry.page_bytes, cfg_.channel);
    t_decode_ = us(rel.ecc.t_decode_us), t_soft_decode_ = us(rel.ecc.t_soft_decode_us);
    t_retry_setup_ = us(rel.ecc.t_retry_setup_us), t_soft_sense_ = us(rel.ecc.t_soft_sense_us);
    stats_ = &stats_of(*this, metrics);
    retry_steps_ = &stats_->histogram("retry_steps");
  }
  for (std::uint32_t d = 0; d < cfg_.geometry.dies_per_channel(); ++d) {
    auto die = std::make_unique<Die>();
    die->index = d;
    MetricSet& m = stats_of(*this, "die" + std::to_string(d), metrics);
    m.report_as("dies", d);
    die->busy = BusyUnion(&m.busy("busy_fraction"));
    die->reads = &m.counter("reads");
    die->programs = &m.counter("programs");
    die->erases = &m.counter("erases");
    die->multiplane = &m.counter("multiplane_operations");
    if (cache) die->cache_ops = &m.counter("cache_operations");
    if (suspend) die->suspends = &m.counter("suspensions");
    if (errors_) {
      die->read_retries = &m.counter("read_retries");
      die->soft_decodes = &m.counter("soft_decodes");
      die->uncorrectable = &m.counter("uncorrectable_reads");
    }
    if (vcd_) {
      const std::string scope = ch + ".die" + std::to_string(d);
      die->vcd_state = vcd_->add(scope, "state", cache || suspend || errors_ ? 4 : 3);
      die->vcd_origin = vcd_->add(scope, "origin", 2);  // whose work the array runs (tlmx::CommandOrigin)
      die->vcd_queue = vcd_->add(scope, "queue", 32);
      if (cache) die->vcd_cache = vcd_->add(scope, "cache_state", 4);
    }
    sensitive << die->event << die->partner_due;
    dies_.push_back(std::move(die));
  }
  dont_initialize();
}

namespace {
// What a controller told of a power failure no longer takes (ChannelController::power_fail).
bool dropped_at_power_fail(const tlmx::FlashCommand& c) {
  return (c.opcode == tlmx::FlashOpcode::Program || c.opcode == tlmx::FlashOpcode::Erase) && !c.hold_up;
}
}  // namespace

tlm::tlm_sync_enum ChannelController::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                      sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) SC_REPORT_ERROR(name(), "flash protocol: only BEGIN_REQ goes forward");
  tlmx::FlashCommand* cmd = trans.get_extension<tlmx::FlashCommand>();
  if (!cmd) SC_REPORT_ERROR(name(), "flash command without FlashCommand extension");
  posted_.notify(trans, delay);
  return tlm::TLM_ACCEPTED;
}

void ChannelController::set_phase(Die& die, Track& t, Phase p, sc_time now) {
  t.phase = p;
  if (!vcd_) return;
  switch (p) {  // bus and array phases are traced at the grant
    case Phase::Idle:
      trace_state(die, t, kIdle, now);
      break;
    case Phase::DmaIn:
      trace_state(die, t, kDma, now);
      break;
    case Phase::WantBusCmd:
    case Phase::WantBusOut:
      trace_state(die, t, kWait, now);
      break;
    case Phase::Staged:
      trace_state(die, t, kStaged, now);
      break;
    case Phase::WaitCache:
      trace_state(die, t, kWaitCache, now);
      break;
    case Phase::Suspending:
      trace_state(die, t, kSuspending, now);
      break;
    default:
      break;
  }
}

std::uint32_t ChannelController::data_bytes(tlmx::FlashOpcode op) const {
  return op == tlmx::FlashOpcode::ReadOob ? cfg_.geometry.oob_bytes : cfg_.geometry.page_bytes;
}

void ChannelController::trace_state(Die& die, const Track& t, std::uint64_t code, sc_time at) {
  if (!vcd_) return;
  const bool array = &t == &die.array;
  vcd_->change_at(array ? die.vcd_state : die.vcd_cache, code, ticks(at));
  // The array track's command tells host, GC and mapping work apart (0 while idle).
  if (array)
    vcd_->change_at(die.vcd_origin, code == kIdle || t.group.empty() ? 0 : std::uint64_t(t.origin()), ticks(at));
}

bool ChannelController::anyone_waits_for_bus() const {
  for (const auto& d : dies_)
    if (d->array.wants_bus() || d->cache.wants_bus()) return true;
  return false;
}

void ChannelController::trace_queue(Die& die) {
  if (vcd_) vcd_->change(die.vcd_queue, die.queue.size());
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
    cmd->retry_step = 0;  // (the initiator may reuse an extension a retried read had)
    cmd->soft = false;
    cmd->failed = false;
    cmd->trail.advance(Stage::Firmware, now.value());  // posted with the issuing job's local time
    if (power_failing_ && dropped_at_power_fail(*cmd)) {
      ++dropped_;
      continue;
    }
    if (cmd->hold_up)  // the power-loss dump: ahead of everything not yet started, in its own order
      d.queue.insert(
          std::find_if(d.queue.begin(), d.queue.end(), [](const QueuedCommand& q) { return !q.cmd->hold_up; }),
          QueuedCommand{trans, cmd, now});
    else
      d.queue.push_back(QueuedCommand{trans, cmd, now});
    trace_queue(d);
  }
  // Reads back from the ECC engine go first, after any retries already waiting.
  while (tlm::tlm_generic_payload* trans = retried_.get_next_transaction()) {
    tlmx::FlashCommand* cmd = trans->get_extension<tlmx::FlashCommand>();
    Die& d = *dies_[cfg_.geometry.die_of_block(cfg_.geometry.block_of(cmd->ppn)) - first_die_];
    const auto behind = std::find_if(d.queue.begin(), d.queue.end(),
                                     [](const QueuedCommand& q) { return !q.cmd->retry_step && !q.cmd->soft; });
    d.queue.insert(behind, QueuedCommand{trans, cmd, now});
    trace_queue(d);
  }
  complete_outgoing(now);
  for (auto& d : dies_) {
    d->two_tracks = d->cache.phase != Phase::Idle;
    if (d->cache.timed() && d->cache.until <= now) advance(*d, d->cache, now);
    if (d->array.timed() && d->array.until <= now) advance(*d, d->array, now);
  }
  for (auto& d : dies_) {
    schedule(*d, now);
    // The die's one event keeps only its earliest notification: while its cache track works,
    // re-arm both tracks' ends (an earlier notification replaced a later one).
    if (!d->two_tracks && d->cache.phase == Phase::Idle) continue;
    for (const Track* t : {&d->array, &d->cache})
      if (t->timed() && t->until > now) d->event.notify(t->until - now);
  }
  arbitrate(now);
}

// What the die does next once its tracks have advanced: suspend for a read, resume, or start a
// command on the track that is free for it.
void ChannelController::schedule(Die& die, sc_time now) {
  Track &a = die.array, &c = die.cache;
  if (a.phase != Phase::Idle) {
    if (a.phase == Phase::Array && try_suspend(die, now)) return;
    if (cfg_.nand.cache_program && c.phase == Phase::Idle && a.phase == Phase::Array &&
        a.opcode() == tlmx::FlashOpcode::Program && !die.queue.empty())
      start(die, c, Pick::NextIfProgram, now);
    return;
  }
  if (!die.suspended.empty()) {
    const bool more = die.reads_passed < cfg_.nand.suspend_max_reads && c.phase == Phase::Idle;
    if (!more || !start(die, a, Pick::OldestFreeRead, now)) resume(die, now);
    return;
  }
  if (die.queue.empty()) return;
  if (c.phase == Phase::Idle)
    start(die, a, Pick::Any, now);
  else if (c.phase == Phase::WantBusOut || c.phase == Phase::DataOut)
    start(die, a, Pick::NextIfRead, now);
  // (a cache program on its way in: the array waits for it)
}

// Moves each page of the operation (one per plane) between its own data-buffer slot and the
// controller, all requested now; the system bus and the DRAM serialize them. Returns how long
// until the last one is done.
sc_time ChannelController::dma_transfer(Die& die, const std::vector<Op>& group, tlm::tlm_command command,
                                        sc_time start) {
  tlm::tlm_generic_payload& t = die.dma_trans;
  sc_time last = SC_ZERO_TIME;
  const std::uint32_t bytes = data_bytes(group[0].cmd->opcode);
  for (const Op& o : group) {
    tlmx::prepare_bus_access(t, command, cfg_.dram_base + o.cmd->buffer_addr, dma_dummy_.data(), bytes);
    sc_time delay = start;
    dma->b_transport(t, delay);
    if (t.is_response_error())
      SC_REPORT_ERROR(name(), ("DMA to data buffer failed: " + t.get_response_string()).c_str());
    last = std::max(last, delay);
  }
  return last;
}

bool ChannelController::pick_group(Die& die, Track& t, Pick pick, sc_time now) {
  if (die.queue.empty()) return false;
  std::size_t head;
  if (pick == Pick::OldestFreeRead) {
    head = first_free_read(die.queue, cfg_.geometry);
    if (head == die.queue.size()) return false;
  } else {
    head = queue_policy_->next(die.queue, now);
    const tlmx::FlashOpcode op = die.queue[head].cmd->opcode;
    if ((pick == Pick::NextIfRead && !tlmx::is_read(op)) ||
        (pick == Pick::NextIfProgram && op != tlmx::FlashOpcode::Program))
      return false;
  }
  t.group.clear();
  t.group.push_back(die.queue[head]);
  die.queue.erase(die.queue.begin() + static_cast<std::ptrdiff_t>(head));
  const tlmx::FlashCommand* first = t.group[0].cmd;
  const bool retried = first->retry_step || first->soft;  // a retry reads its one page alone
  if (cfg_.nand.multiplane && first->opcode != tlmx::FlashOpcode::Erase && cfg_.geometry.planes_per_die > 1 &&
      !retried) {
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
      if (c->opcode == first->opcode && g.page_in_block(c->ppn) == page0 && !c->retry_step && !c->soft &&
          in_slc_mode(*c) == in_slc_mode(*first)) {  // a multi-plane operation runs in one mode
        t.group.push_back(die.queue[i]);
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
    // A lone program waits a little for its partner (the firmware issues a die's plane pair
    // microseconds apart), as long as the platform or the firmware's hint says; a read never
    // waits: its latency is what the host sees, and a partner read rarely comes.
    const sc_time deadline = t.group[0].arrived + std::max(cfg_.nand.multiplane_wait, first->partner_wait);
    if (t.group.size() == 1 && now < deadline && first->opcode == tlmx::FlashOpcode::Program) {
      die.queue.insert(die.queue.begin() + static_cast<std::ptrdiff_t>(head), t.group[0]);
      t.group.clear();
      die.partner_due.notify(deadline - now);
      return false;
    }
    if (t.group.size() > 1) ++*die.multiplane;
  }
  trace_queue(die);
  return true;
}

bool ChannelController::start(Die& die, Track& t, Pick pick, sc_time now) {
  if (!pick_group(die, t, pick, now)) return false;  // nothing it may start, or waiting for a partner
  mark(t.group, Stage::DieQueue, now);
  if (pick == Pick::OldestFreeRead) ++die.reads_passed;
  if (&t == &die.cache) ++*die.cache_ops;
  if (t.opcode() == tlmx::FlashOpcode::Program) {
    set_phase(die, t, Phase::DmaIn, now);
    const sc_time d = dma_transfer(die, t.group, tlm::TLM_READ_COMMAND);
    t.until = now + d;
    die.event.notify(d);
  } else {
    set_phase(die, t, Phase::WantBusCmd, now);
    t.ready_since = now;
  }
  return true;
}

// A read is waiting for a die in tPROG/tBERS (or in the bus phase before it): suspend the
// operation once its array time has begun, if the options allow it and it has longer to go than
// suspending takes.
bool ChannelController::try_suspend(Die& die, sc_time now) {
  const NandTiming& n = cfg_.nand;
  Track& a = die.array;
  const tlmx::FlashOpcode op = a.opcode();
  const bool allowed =
      op == tlmx::FlashOpcode::Program ? n.program_suspend : op == tlmx::FlashOpcode::Erase && n.erase_suspend;
  const sc_time from = std::max(now, die.array_start);
  if (!allowed || die.reads_passed >= n.suspend_max_reads || die.cache.phase != Phase::Idle ||
      a.until - from <= n.t_suspend || first_free_read(die.queue, cfg_.geometry) == die.queue.size())
    return false;
  charge_array(a, die.array_start, from + n.t_suspend);  // what it did, and the suspend
  die.busy.cut(from);
  die.suspended.swap(a.group);
  die.suspended_left = a.until - from;
  ++*die.suspends;
  set_phase(die, a, Phase::Suspending, from);
  a.until = from + n.t_suspend;
  die.busy.add(from, a.until);
  die.event.cancel();  // the array's end moved
  die.event.notify(a.until - now);
  return true;
}

void ChannelController::resume(Die& die, sc_time now) {
  Track& a = die.array;
  a.group.swap(die.suspended);
  die.suspended.clear();
  begin_array(die, now, die.suspended_left + cfg_.nand.t_resume);
}

// The array starts (or resumes) its work at `from` for `duration`, without a bus phase.
void ChannelController::begin_array(Die& die, sc_time from, sc_time duration) {
  Track& a = die.array;
  set_phase(die, a, Phase::Array, from);
  trace_state(die, a, array_code(*a.group[0].cmd), from);
  die.array_start = from;
  a.until = from + duration;
  die.busy.add(from, a.until);
  die.event.notify(duration);  // `from` is now
}

void ChannelController::charge_array(const Track& t, sc_time from, sc_time to) {
  if (to <= from) return;
  const PowerConfig& p = cfg_.power;
  const tlmx::FlashOpcode op = t.opcode();
  const bool read = tlmx::is_read(op), program = op == tlmx::FlashOpcode::Program;
  const double milliamps = read ? p.nand_icc_read_ma : program ? p.nand_icc_program_ma : p.nand_icc_erase_ma;
  const double planes = 1 + double(t.group.size() - 1) * p.nand_multiplane_share;
  const double picojoules = p.nand_vcc_v * milliamps * planes * (to - from).to_seconds() * 1e9;  // mW x s = 1e9 pJ
  (read ? read_energy_ : program ? program_energy_ : erase_energy_).add(from.value(), to.value(), picojoules);
}

sc_time ChannelController::array_time(const Track& t) const {
  const tlmx::FlashOpcode op = t.opcode();
  sc_time longest;
  const NandTiming& n = cfg_.nand;
  for (const Op& o : t.group) {
    const std::uint32_t page = cfg_.geometry.page_in_block(o.cmd->ppn);
    if (in_slc_mode(*o.cmd))
      longest = std::max(longest, tlmx::is_read(op)                  ? n.slc_t_read
                                  : op == tlmx::FlashOpcode::Program ? n.slc_t_prog
                                                                     : n.slc_t_erase);
    else
      longest = std::max(longest, tlmx::is_read(op)                  ? n.read_time(page)
                                  : op == tlmx::FlashOpcode::Program ? n.prog_time(page)
                                                                     : n.t_erase);
  }
  const tlmx::FlashCommand& c = *t.group[0].cmd;  // a retry is alone in its group
  if (c.retry_step || c.soft) longest += t_retry_setup_;
  if (c.soft) longest += t_soft_sense_ * double(cfg_.reliability.ecc.soft_levels);
  return longest;
}

void ChannelController::arbitrate(sc_time now) {
  if (now < bus_free_at_) {
    if (anyone_waits_for_bus()) bus_free_.notify(bus_free_at_ - now);
    return;
  }
  waiting_.clear();
  waiting_tracks_.clear();
  for (auto& d : dies_)
    for (Track* t : {&d->array, &d->cache}) {
      if (!t->wants_bus()) continue;
      BusRequest r;
      r.kind = t->phase == Phase::WantBusOut               ? BusRequest::Kind::DataOut
               : t->opcode() == tlmx::FlashOpcode::Program ? BusRequest::Kind::DataIn
                                                           : BusRequest::Kind::Command;
      r.ready_since = t->ready_since.value();
      r.queued = static_cast<std::uint32_t>(d->queue.size());
      waiting_.push_back(r);
      waiting_tracks_.emplace_back(d.get(), t);
    }
  if (waiting_.empty()) return;
  const auto [die, track] = waiting_tracks_[arbitration_->choose(waiting_)];
  grant(*die, *track, now);
}

// The bus serves the track: a data out, a cache program's data in, or command/address cycles
// (+ data in) followed by the array time.
void ChannelController::grant(Die& die, Track& t, sc_time now) {
  const std::uint64_t planes = t.group.size();
  const tlmx::FlashOpcode op = t.opcode();
  mark(t.group, Stage::ChannelWait, now);
  sc_time bus;
  if (t.phase == Phase::WantBusOut) {  // data out; the DMA to the data buffer follows
    bus = cfg_.bus.transfer(std::uint64_t(out_bytes(t)) * planes);
    mark(t.group, Stage::ChannelTransfer, now + bus);
    set_phase(die, t, Phase::DataOut, now);
    trace_state(die, t, kOut, now);
    t.until = now + bus;
    die.busy.add(now, t.until);
    die.event.notify(bus);
  } else {  // command/address (+ data in), then, on the array track, the array time
    const tlmx::FlashCommand& first = *t.group[0].cmd;
    const std::uint32_t cycles = (tlmx::is_read(op)                  ? cfg_.nand.read_cmd_cycles
                                  : op == tlmx::FlashOpcode::Program ? cfg_.nand.program_cmd_cycles
                                                                     : cfg_.nand.erase_cmd_cycles) +
                                 (first.retry_step || first.soft ? cfg_.reliability.ecc.retry_cmd_cycles : 0);
    bus = cfg_.nand.cmd_cycle * double(cycles * planes);
    if (op == tlmx::FlashOpcode::Program) bus += cfg_.bus.transfer(std::uint64_t(cfg_.geometry.page_bytes) * planes);
    mark(t.group, Stage::ChannelTransfer, now + bus);
    trace_state(die, t, kCmd, now);
    if (&t == &die.cache) {  // a cache program's data goes to the cache register
      set_phase(die, t, Phase::Loading, now);
      t.until = now + bus;
      die.busy.add(now, t.until);
      die.event.notify(bus);
    } else {
      const sc_time array = array_time(t);
      set_phase(die, t, Phase::Array, now);
      trace_state(die, t, array_code(first), now + bus);
      die.array_start = now + bus;
      t.until = now + bus + array;
      die.busy.add(now, t.until);
      die.event.notify(bus + array);
      schedule(die, now);  // a cache program may load now, a waiting read suspend the operation
    }
  }
  bus_free_at_ = now + bus;
  bus_busy_.add(now.value(), bus_free_at_.value());
  ++bus_transfers_;
  if (vcd_) {
    vcd_->change_at(vcd_owner_, die.index + 1, ticks(now));
    vcd_->change_at(vcd_owner_, 0, ticks(bus_free_at_));
  }
  if (anyone_waits_for_bus()) bus_free_.notify(bus);
}

void ChannelController::advance(Die& die, Track& t, sc_time now) {
  switch (t.phase) {
    case Phase::DmaIn:
      mark(t.group, Stage::DramBus, now);
      set_phase(die, t, Phase::WantBusCmd, now);
      t.ready_since = now;
      break;
    case Phase::Array:
      end_array(die, now);
      break;
    case Phase::DataOut:
      send_out(die, t, now);
      break;
    case Phase::Loading:  // a cache program's data is in: it programs when the array is free
      set_phase(die, t, Phase::Staged, now);
      if (die.array.phase == Phase::Idle) {
        die.array.group.swap(t.group);
        set_phase(die, t, Phase::Idle, now);
        begin_array(die, now, array_time(die.array));
      }
      break;
    case Phase::Suspending:
      set_phase(die, t, Phase::Idle, now);
      break;  // reads may go now
    default:
      break;
  }
}

void ChannelController::power_cut(sc_time now, CutDamage& damage) {
  const auto bits = static_cast<std::uint32_t>(cfg_.nand.t_prog.size());
  const auto cut = [&](const std::vector<Op>& group) {
    for (const Op& o : group) {
      if (o.cmd->opcode == tlmx::FlashOpcode::Program)
        array_.interrupt_program(o.cmd->ppn, bits, damage, o.cmd->slc);
      else if (o.cmd->opcode == tlmx::FlashOpcode::Erase)
        array_.interrupt_erase(cfg_.geometry.block_of(o.cmd->ppn), damage);
    }
  };
  for (const auto& d : dies_) {
    const Track& a = d->array;
    if (a.phase == Phase::Array) charge_array(a, d->array_start, now);  // the array worked until the power went
    if ((a.phase == Phase::Array || a.phase == Phase::Suspending) && now >= d->array_start &&
        !tlmx::is_read(a.opcode()))
      cut(a.group);
    cut(d->suspended);
  }
}

void ChannelController::power_fail() {
  power_failing_ = true;
  for (auto& d : dies_) {
    const std::size_t before = d->queue.size();
    d->queue.erase(std::remove_if(d->queue.begin(), d->queue.end(),
                                  [](const QueuedCommand& q) { return dropped_at_power_fail(*q.cmd); }),
                   d->queue.end());
    dropped_ += before - d->queue.size();
    trace_queue(*d);
  }
}

void ChannelController::power_off(sc_time now) {
  power_failing_ = false;
  for (auto& d : dies_) {
    d->queue.clear();
    d->array = Track{};
    d->cache = Track{};
    d->suspended.clear();
    d->suspended_left = d->array_start = SC_ZERO_TIME;
    d->reads_passed = 0;
    d->two_tracks = false;
    d->busy.power_off(now);
    d->event.cancel();
    d->partner_due.cancel();
    if (vcd_) {
      trace_state(*d, d->array, kIdle, now);
      trace_queue(*d);
    }
  }
  outgoing_.clear();
  posted_.cancel_all();
  retried_.cancel_all();
  outgoing_done_.cancel();
  bus_free_.cancel();
  bus_free_at_ = now;
}

// The array time is over: apply the operation to the NAND contents, then hand a read's data to
// the bus (through the cache register with cache read) or complete the program/erase.
void ChannelController::end_array(Die& die, sc_time now) {
  Track &a = die.array, &c = die.cache;
  const tlmx::FlashOpcode op = a.opcode();
  mark(a.group, Stage::Array, now);
  charge_array(a, die.array_start, now);
  for (const Op& o : a.group) {
    tlmx::FlashCommand* cmd = o.cmd;
    if (tlmx::is_read(op)) {
      PageContent pc = array_.read(cmd->ppn);
      cmd->lpn = pc.lpn;
      cmd->token = pc.token;
      cmd->version = array_.version(cmd->ppn);
      ++*die.reads;
      if (errors_)  // every sensing disturbs the block's other pages
        for (std::uint32_t i = cmd->soft ? cfg_.reliability.ecc.soft_levels + 1 : 1; i > 0; --i)
          array_.count_read(cfg_.geometry.block_of(cmd->ppn));
    } else if (op == tlmx::FlashOpcode::Program) {
      cmd->failed = !array_.program(cmd->ppn, cmd->lpn, cmd->token, now.value(), cmd->slc);
      array_.record_version(cmd->ppn, cmd->version);
      ++*die.programs;
    } else {
      cmd->failed = !array_.erase(cfg_.geometry.block_of(cmd->ppn));
      ++*die.erases;
    }
  }
  if (tlmx::is_read(op)) {
    if (!cfg_.nand.cache_read) {
      set_phase(die, a, Phase::WantBusOut, now);
      a.ready_since = now;
    } else if (c.phase == Phase::Idle) {  // to the cache register: the array is free
      c.group.swap(a.group);
      ++*die.cache_ops;
      set_phase(die, c, Phase::WantBusOut, now);
      c.ready_since = now;
      set_phase(die, a, Phase::Idle, now);
    } else {
      set_phase(die, a, Phase::WaitCache, now);
    }
    return;
  }
  die.reads_passed = 0;
  set_phase(die, a, Phase::Idle, now);
  respond(a.group);
  a.group.clear();
  if (c.phase == Phase::Staged) {  // the cached program starts at once
    a.group.swap(c.group);
    mark(a.group, Stage::DieQueue, now);  // its data waited in the cache register for the array
    set_phase(die, c, Phase::Idle, now);
    begin_array(die, now, array_time(a));
  }
}

// A read's data is out of its register: the die can go on, the DMA to DRAM runs on.
void ChannelController::send_out(Die& die, Track& t, sc_time now) {
  const sc_time decoded = decode(die, t.group, now);
  if (!t.group.empty()) {  // (empty: every page goes back to the die)
    const sc_time done = dma_transfer(die, t.group, tlm::TLM_WRITE_COMMAND, decoded);
    Outgoing out{now + done, {}};
    if (!spare_groups_.empty()) {
      out.ops = std::move(spare_groups_.back());
      spare_groups_.pop_back();
    }
    out.ops.swap(t.group);
    outgoing_.push_back(std::move(out));
    outgoing_done_.notify(done);  // keeps the earliest pending time
  }
  set_phase(die, t, Phase::Idle, now);
  if (&t == &die.cache && die.array.phase == Phase::WaitCache) {  // the next read moves up
    t.group.swap(die.array.group);
    ++*die.cache_ops;
    set_phase(die, t, Phase::WantBusOut, now);
    t.ready_since = now;
    set_phase(die, die.array, Phase::Idle, now);
  }
}

// The ECC engine decodes the pages just out of the die (reliability.errors; OOB-only reads and a
// drive without errors decode at once). A page that decodes, or that never will, stays in the
// group to be moved to DRAM once decoded (returned: how long from now); one that fails goes back
// to the die for its next retry step or its soft sensing when the decode is over.
sc_time ChannelController::decode(Die& die, std::vector<Op>& group, sc_time now) {
  if (!errors_ || group[0].cmd->opcode != tlmx::FlashOpcode::Read) return SC_ZERO_TIME;
  const sc_time latency = group[0].cmd->soft ? t_soft_decode_ : t_decode_;  // a retry is alone in its group
  mark(group, Stage::EccDecode, now + latency);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (decodes(die, *group[i].cmd))
      group[kept++] = group[i];
    else
      retried_.notify(*group[i].trans, latency);  // to the die's queue front (step())
  }
  group.resize(kept);
  return latency;
}

// One decode attempt of a page read; false: the page is to be read again (the command now
// says how). A page past its last attempt decodes as uncorrectable.
bool ChannelController::decodes(Die& die, tlmx::FlashCommand& cmd) {
  const FlashGeometry& g = cfg_.geometry;
  const EccConfig& ecc = cfg_.reliability.ecc;
  const BlockId block = g.block_of(cmd.ppn);
  const std::uint64_t now = sc_core::sc_time_stamp().value(), at = array_.programmed_at(block);
  const double days = at == NandArray::kBeforeRun ? array_.data_age_days() + tlmx::ticks_to_seconds(now) / 86400.0
                                                  : tlmx::ticks_to_seconds(now - at) / 86400.0;
  // An SLC-mode page has one read level, the part's lower page's (page type 0).
  const PageCondition page{array_.wear(block), days, double(array_.reads_since_erase(block)),
                           array_.is_slc(block) ? 0 : g.page_in_block(cmd.ppn)};
  const double rber = errors_->rber(page, cmd.retry_step);  // the soft decode: at the last step's
  if (!cmd.retry_step && !cmd.soft) {
    rber_sum_ += rber;
    rber_max_ = std::max(rber_max_, rber);
  }
  if (errors_->decodes(rber, cmd.soft)) {
    retry_steps_->record(cmd.soft ? ecc.retry_steps + 1 : cmd.retry_step);
    return true;
  }
  if (cmd.retry_step < ecc.retry_steps && !cmd.soft) {
    ++cmd.retry_step;
    ++*die.read_retries;
    return false;
  }
  if (!cmd.soft && ecc.soft_levels > 0) {
    cmd.soft = true;
    ++*die.soft_decodes;
    return false;
  }
  retry_steps_->record(cmd.soft ? ecc.retry_steps + 1 : cmd.retry_step);
  ++*die.uncorrectable;
  cmd.token = kUncorrectableToken;
  return true;
}

std::uint32_t ChannelController::out_bytes(const Track& t) const {
  const tlmx::FlashCommand& c = *t.group[0].cmd;
  return data_bytes(c.opcode) * (c.soft ? cfg_.reliability.ecc.soft_levels + 1 : 1);
}

void ChannelController::respond(const std::vector<Op>& ops) {
  for (const Op& o : ops) {
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_time delay = SC_ZERO_TIME;
    o.trans->set_response_status(tlm::TLM_OK_RESPONSE);
    flash_target->nb_transport_bw(*o.trans, phase, delay);
  }
}

// Completes the reads whose DMA to DRAM is done, in the order their data left the dies, and
// wakes again for the earliest one still in flight.
void ChannelController::complete_outgoing(sc_time now) {
  if (outgoing_.empty()) return;
  sc_time next = sc_core::sc_max_time();
  for (std::size_t i = 0; i < outgoing_.size();) {
    if (outgoing_[i].done <= now) {
      for (const Op& o : outgoing_[i].ops) o.cmd->trail.advance(Stage::DramBus, now.value());  // (retried or not)
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

std::string ChannelController::describe_unfinished() const {
  const FlashGeometry& g = cfg_.geometry;
  std::string out;
  for (const auto& d : dies_) {
    if (d->queue.empty() && d->array.phase == Phase::Idle && d->cache.phase == Phase::Idle && d->suspended.empty())
      continue;
    out += std::string(out.empty() ? "" : "; ") + "ch" + std::to_string(cfg_.channel) + " die" +
           std::to_string(d->index) + ": array " + to_string(d->array.phase) + ", cache " + to_string(d->cache.phase) +
           ", " + std::to_string(d->suspended.size()) + " suspended, queue";
    for (const QueuedCommand& q : d->queue)
      out += std::string(" ") + tlmx::to_string(q.cmd->opcode) + "@plane" +
             std::to_string(g.plane_of_block(g.block_of(q.cmd->ppn)) % g.planes_per_die) + "/page" +
             std::to_string(g.page_in_block(q.cmd->ppn));
    if (d->queue.empty()) out += " empty";
  }
  return out;
}

void ChannelController::end_of_simulation_stats(sc_time end) {
  for (auto& d : dies_) d->busy.cut(end);
  if (errors_) {  // the RBER of the pages' first reads
    MetricSet& m = *stats_;
    const std::uint64_t first_reads = retry_steps_->count();
    m.gauge("rber_mean") = first_reads ? rber_sum_ / double(first_reads) : 0.0;
    m.gauge("rber_max") = rber_max_;
  }
}

}  // namespace ssd::hw
