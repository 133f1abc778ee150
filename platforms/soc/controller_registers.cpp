#include "platforms/soc/controller_registers.h"

#include <stdexcept>

#include "common/host_addressing.h"
#include "fw/hal/firmware_work.h"
#include "fw/hal/op_descriptor.h"

#include "platforms/soc/cosim_hal.h"

namespace ssd::platform {

using sc_core::sc_time;

namespace {

std::string hex(std::uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%x", v);
  return text;
}

// Register callbacks run inside the ISS: nothing may throw through it, so a model error halts
// the core with its message (the run then stops with it).
template <typename F>
auto guarded(hw::IssCore& core, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const sc_core::sc_unwind_exception&) {
    throw;  // the kernel ending the thread: not the firmware's failure
  } catch (const std::exception& e) {
    core.fail(e.what());
    return decltype(f())();
  }
}

// Registers are 32-bit words, accessed whole.
std::uint32_t word_register(std::uint32_t offset, unsigned bytes) {
  if (bytes != 4 || offset % 4 != 0)
    throw std::runtime_error("the firmware accessed register " + hex(offset) + " with " + std::to_string(bytes) +
                             " bytes (registers are aligned 32-bit words)");
  return offset;
}

}  // namespace

ControllerRegisters::ControllerRegisters(sc_core::sc_module_name name, const hw::IssConfig& config,
                                         MetricsRegistry& metrics)
    : sc_module(name),
      core_(std::make_unique<hw::IssCore>("core0", config)),
      busy_(&hw::stats_of(*this, "core0", metrics).busy("utilization")),
      compute_(hw::stats_of(*this, "core0", metrics).duration("compute")),
      memory_wait_(hw::stats_of(*this, "core0", metrics).duration("memory_wait")),
      idle_(hw::stats_of(*this, "core0", metrics).duration("idle")),
      cycles_(hw::stats_of(*this, "core0", metrics).counter("cycles")),
      bus_accesses_(hw::stats_of(*this, "core0", metrics).counter("table_accesses")),
      events_taken_(hw::stats_of(*this, "core0", metrics).counter("jobs")),
      all_cycles_(hw::stats_of(*this, metrics).counter("cycles")),
      all_accesses_(hw::stats_of(*this, metrics).counter("table_accesses")),
      all_access_ticks_(hw::stats_of(*this, metrics).duration("table_access")) {
  hw::stats_of(*this, metrics).report_as("cores");
  hw::stats_of(*this, "core0", metrics).report_as("per_core", 0);
  core_->map_registers({"registers", mmio::kRegistersBase, mmio::kRegistersBytes,
                        [this](std::uint32_t offset, unsigned bytes) {
                          return guarded(*core_, [&] { return read_register(word_register(offset, bytes)); });
                        },
                        [this](std::uint32_t offset, unsigned bytes, std::uint32_t value) {
                          guarded(*core_, [&] { write_register(word_register(offset, bytes), value); });
                        }});
  core_->map_registers({"host tokens", mmio::kTokenWindowBase, mmio::kTokenWindowBytes,
                        [this](std::uint32_t offset, unsigned bytes) {
                          return guarded(*core_, [&] { return read_token(offset, bytes); });
                        },
                        [this](std::uint32_t offset, unsigned bytes, std::uint32_t value) {
                          guarded(*core_, [&] { write_token(offset, bytes, value); });
                        }});
  // The heap: from the SRAM window's start on into the DRAM window (common/controller_mmio.h).
  heap_start_ = heap_end_ = mmio::kBusWindowsSplit;
  for (const hw::IssBusWindow& w : config.bus_windows) {
    if (w.core_base < mmio::kBusWindowsSplit) heap_start_ = std::min(heap_start_, w.core_base);
    else heap_end_ = std::max(heap_end_, w.core_base + w.size);
  }
}

void ControllerRegisters::trace_to(tlmx::VcdTracer* vcd) {
  if (!vcd) return;
  const int function = vcd->add(name(), "core0_function", 16), instructions = vcd->add(name(), "core0_instructions", 32);
  core_->set_sampler([vcd, function, instructions](sc_time at, std::uint32_t f, std::uint64_t n) {
    vcd->change_at(function, f, at.value());
    vcd->change_at(instructions, n, at.value());
  });
}

const FirmwareBoot& ControllerRegisters::boot(const std::string& image, const std::string& boot_text, CoSimHal& hal) {
  hal_ = &hal;
  page_bytes_ = hal.geometry().page_bytes;
  boot_text_ = boot_text;
  core_->load_elf(image);
  booting_ = true;
  core_->boot("ssd_boot_done");
  booting_ = false;
  return boot_;
}

void ControllerRegisters::post(Job job, hw::JobHint) {
  events_.push_back(std::move(job));
  if (waiting_) posted_.notify(sc_core::SC_ZERO_TIME);
}

void ControllerRegisters::charge_cycles(std::uint64_t) {
  throw std::logic_error("the ISS core's firmware charges no cycles: its instructions are its cost");
}
void ControllerRegisters::access(std::uint64_t, std::uint32_t, bool) {
  throw std::logic_error("the ISS core's firmware annotates no table accesses: its loads and stores are them");
}

std::uint32_t ControllerRegisters::next_event() {
  if (booting_) throw std::runtime_error("the firmware waited for work before reporting boot (register kBooted)");
  if (job_log_) log_job();
  if (events_.empty()) {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    busy_->add(busy_since_, now);
    waiting_ = true;
    while (events_.empty()) sc_core::wait(posted_);
    waiting_ = false;
    busy_since_ = sc_core::sc_time_stamp().value();
  }
  Job job = std::move(events_.front());
  events_.pop_front();
  delivered_ = mmio::EventKind::None;
  job();  // fills the mailbox (on_host_command, on_hal_complete)
  ++events_taken_;
  running_ = delivered_;
  return static_cast<std::uint32_t>(delivered_);
}

void ControllerRegisters::log_jobs(const std::string& path) {
  job_log_ = std::make_unique<std::ofstream>(path);
  if (!*job_log_) throw std::runtime_error(path + ": cannot write the firmware job log");
  *job_log_ << "event,cycles,unmarked_cycles";
  for (std::size_t k = 0; k < fw::kFirmwareWorkKinds; ++k)
    for (const char* column : {"units", "cycles", "touches_sram", "touches_dram", "touch_bytes_sram", "touch_bytes_dram"})
      *job_log_ << ',' << column << '_' << fw::work_name(static_cast<fw::FirmwareWork>(k));
  *job_log_ << '\n';
  segments_.assign(fw::kFirmwareWorkKinds, Segment{});
}

ControllerRegisters::Snapshot ControllerRegisters::snapshot() {
  const hw::IssCore::Counts& c = core_->counts();
  Snapshot s;
  s.cycles = c.issue_cycles + c.bus_stall.to_seconds() * core_->config().clock_mhz * 1e6;
  if (work_counters_) s.counters = fetch<mmio::WorkCounters>(work_counters_);
  return s;
}

// The segment since the last mark goes to the kind that mark named (before the job's first mark:
// to unmarked_, which the job's first kind takes at its end).
void ControllerRegisters::attribute(const Snapshot& now) {
  Segment& to = segment_kind_ < 0 ? unmarked_ : segments_[std::size_t(segment_kind_)];
  to.cycles += now.cycles - segment_start_.cycles;
  for (std::size_t m = 0; m < 2; ++m) {
    to.touches[m] += now.counters.touches[m] - segment_start_.counters.touches[m];
    to.touch_bytes[m] += now.counters.touch_bytes[m] - segment_start_.counters.touch_bytes[m];
  }
  segment_start_ = now;
}

void ControllerRegisters::mark_work(std::uint32_t kind) {
  if (!job_log_) return;
  if (kind >= fw::kFirmwareWorkKinds) throw std::runtime_error("the firmware marked work of kind " + std::to_string(kind));
  attribute(snapshot());
  if (first_kind_ < 0) first_kind_ = int(kind);
  segment_kind_ = int(kind);
}

// One line for the job that just ended (the image is back at the event register): its cycles,
// and per kind of work the units the annotated model would charge, the cycles the segments after
// that kind's marks took (the cycles before the job's first mark, the event's dispatch, go to
// the job's first kind), and the table accesses made in them. The first boundary (boot's end)
// only sets the baseline.
void ControllerRegisters::log_job() {
  const Snapshot now = snapshot();
  if (running_ != mmio::EventKind::None) {
    attribute(now);
    double unmarked = 0;
    if (first_kind_ >= 0) {
      Segment& first = segments_[std::size_t(first_kind_)];
      first.cycles += unmarked_.cycles;
      for (std::size_t m = 0; m < 2; ++m) first.touches[m] += unmarked_.touches[m], first.touch_bytes[m] += unmarked_.touch_bytes[m];
    } else {
      unmarked = unmarked_.cycles;
    }
    std::ofstream& out = *job_log_;
    out << (running_ == mmio::EventKind::HostCommand ? "host_command" : "op_done") << ','
        << now.cycles - job_start_.cycles << ',' << unmarked;
    for (std::size_t k = 0; k < mmio::kWorkKinds; ++k) {
      const Segment& g = segments_[k];
      out << ',' << now.counters.units[k] - job_start_.counters.units[k] << ',' << g.cycles << ',' << g.touches[0]
          << ',' << g.touches[1] << ',' << g.touch_bytes[0] << ',' << g.touch_bytes[1];
    }
    out << '\n';
  }
  job_start_ = segment_start_ = now;
  segment_kind_ = first_kind_ = -1;
  unmarked_ = Segment{};
  std::fill(segments_.begin(), segments_.end(), Segment{});
  running_ = mmio::EventKind::None;
}

void ControllerRegisters::on_host_command(const fw::HostCommand& cmd) {
  if (cmd.id >= mmio::kTokenWindowBytes / (mmio::kTokensPerCommand * sizeof(Token)))
    throw std::runtime_error("host command id " + std::to_string(cmd.id) + " is beyond the token window");
  const PageSpan span = cmd.sectors == 0 ? PageSpan{} : page_span(cmd.lba, cmd.sectors, page_bytes_);  // a flush: none
  if (span.count > mmio::kTokensPerCommand)
    throw std::runtime_error("host command " + std::to_string(cmd.id) + " moves " + std::to_string(span.count) +
                             " pages, more than the token window's " + std::to_string(mmio::kTokensPerCommand));
  if (commands_.size() <= cmd.id) commands_.resize(cmd.id + 1);
  commands_[cmd.id] = {cmd.is_write() ? const_cast<Token*>(cmd.write_tokens) : cmd.read_tokens, span.count, cmd.trail};
  job_trail_ = cmd.trail;
  const mmio::HostCommandEvent e{cmd.id, static_cast<std::uint16_t>(cmd.op), cmd.fua, cmd.lba, cmd.sectors, cmd.issuer};
  core_->write_memory(mailbox_ + offsetof(mmio::EventMailbox, command), &e, sizeof e);
  delivered_ = mmio::EventKind::HostCommand;
}

void ControllerRegisters::on_hal_complete(std::uint32_t tag, const fw::HalResult& result) {
  job_trail_ = result.trail;
  const mmio::OpDoneEvent e{tag, result.lpn, result.token, result.failed ? 1u : 0u, result.version};
  core_->write_memory(mailbox_ + offsetof(mmio::EventMailbox, done), &e, sizeof e);
  delivered_ = mmio::EventKind::OpDone;
}

std::uint32_t ControllerRegisters::read_register(std::uint32_t offset) {
  core_->synchronize();
  switch (offset) {
    case mmio::kIdentity: return mmio::kIdentityValue;
    case mmio::kEvent: return next_event();
    case mmio::kTimeLow: {
      const std::uint64_t now = sc_core::sc_time_stamp().value() + core_->local_time().value();
      time_high_ = static_cast<std::uint32_t>(now >> 32);
      return static_cast<std::uint32_t>(now);
    }
    case mmio::kTimeHigh: return time_high_;
    case mmio::kBootBytes: return static_cast<std::uint32_t>(boot_text_.size());
    case mmio::kHeapStart: return heap_start_;
    case mmio::kHeapEnd: return heap_end_;
    case mmio::kBadBlockCount:
      factory_bad_ = hal_->factory_bad_blocks();
      return static_cast<std::uint32_t>(factory_bad_.size());
    case mmio::kBadBlockAt: return bad_block_index_ < factory_bad_.size() ? factory_bad_[bad_block_index_] : 0xffffffffu;
    default:
      throw std::runtime_error("the firmware read register " + hex(offset) + ", which does not exist (at pc " +
                               hex(core_->pc()) + ")");
  }
}

void ControllerRegisters::write_register(std::uint32_t offset, std::uint32_t value) {
  if (offset == mmio::kWorkMark) {  // bookkeeping of the calibration only: no need to meet SystemC time
    mark_work(value);
    return;
  }
  core_->synchronize();
  switch (offset) {
    case mmio::kMailbox: mailbox_ = value; return;
    case mmio::kBadBlockIndex: bad_block_index_ = value; return;
    case mmio::kWorkCounters: work_counters_ = value; return;
    case mmio::kSubmitOp: {
      const auto d = fetch<mmio::OpDescriptor>(value);
      if (!fw::is_hardware_operation(d))
        throw std::runtime_error("the firmware submitted an operation of kind " + std::to_string(d.kind) + ", origin " +
                                 std::to_string(d.origin) + ", which the hardware does not run");
      fw::HalOp op = fw::from_descriptor(d);
      const bool host_dma = op.kind == fw::OpKind::HostDmaIn || op.kind == fw::OpKind::HostDmaOut;
      op.trail = trail_for(host_dma ? op.host_cmd : kNoCommand);
      hal_->issue(op);
      return;
    }
    case mmio::kCompleteHost: {
      const auto c = fetch<mmio::HostCompletion>(value);
      hal_->complete_host_command(c.id, trail_for(c.id), static_cast<HostStatus>(c.status));
      return;
    }
    case mmio::kBootFetch: core_->write_memory(value, boot_text_.data(), std::uint32_t(boot_text_.size())); return;
    case mmio::kPlaceTable: place_table(value); return;
    case mmio::kBooted: booted(value); return;
    case mmio::kFatal: core_->fail(core_->read_string(value)); return;
    case mmio::kNoteGc: hal_->note_gc(value); return;
    case mmio::kTraceState: {
      auto t = fetch<mmio::StateTrace>(value);
      t.handle = hal_->trace_state(core_->read_string(t.name), t.width);
      core_->write_memory(value, &t, sizeof t);
      return;
    }
    case mmio::kNoteState: {
      const auto n = fetch<mmio::StateNote>(value);
      hal_->note_state(n.handle, n.value);
      return;
    }
    case mmio::kDebugOut: {
      if (!export_to_) throw std::runtime_error("the firmware wrote a metric record outside an export");
      const auto r = fetch<mmio::MetricRecord>(value);
      MetricSet& set = export_to_->set(core_->read_string(r.set));
      const std::string name = core_->read_string(r.name);
      if (r.kind == mmio::MetricKind::Counter) set.counter(name) = r.counter;
      else set.gauge(name) = r.gauge;
      return;
    }
    case mmio::kDebugReadPage: {
      if (!page_reader_) throw std::runtime_error("the firmware read a flash page through the debug port outside a check");
      auto page = fetch<mmio::PageRecord>(value);
      const fw::HalResult r = (*page_reader_)(page.ppn);
      page.lpn = r.lpn;
      page.token = r.token;
      core_->write_memory(value, &page, sizeof page);
      return;
    }
    default:
      throw std::runtime_error("the firmware wrote register " + hex(offset) + ", which does not exist (at pc " +
                               hex(core_->pc()) + ")");
  }
}

LatencyTrail ControllerRegisters::trail_for(std::uint32_t host_cmd) {
  const std::uint64_t now = sc_core::sc_time_stamp().value() + core_->local_time().value();
  const bool of_a_command = host_cmd < commands_.size();
  LatencyTrail t = job_trail_;
  if (of_a_command && commands_[host_cmd].trail.owner != job_trail_.owner) {
    t = commands_[host_cmd].trail;
    t.advance(Stage::DependencyWait, now);
  }
  t.advance(Stage::Firmware, now);
  if (of_a_command) commands_[host_cmd].trail = t;
  return t;
}

void ControllerRegisters::place_table(std::uint32_t address) {
  auto p = fetch<mmio::TablePlacement>(address);
  if (p.preferred > static_cast<std::uint32_t>(fw::MemoryKind::Dram))
    throw std::runtime_error("the firmware asked for table memory of kind " + std::to_string(p.preferred));
  try {
    const fw::TableRegion r = hal_->place_table(core_->read_string(p.name), p.bytes, static_cast<fw::MemoryKind>(p.preferred));
    p.memory = static_cast<std::uint32_t>(r.memory);
    p.base = r.base;
    p.ok = 1;
  } catch (const std::runtime_error& e) {  // fw::ResourceError: the image throws it on
    std::string why = e.what();
    why.resize(std::min<std::size_t>(why.size(), mmio::kErrorBytes - 1));
    core_->write_memory(p.error, why.c_str(), std::uint32_t(why.size() + 1));
    p.ok = 0;
  }
  core_->write_memory(address, &p, sizeof p);
}

void ControllerRegisters::booted(std::uint32_t address) {
  const auto r = fetch<mmio::BootReport>(address);
  boot_.logical_pages = r.logical_pages;
  boot_.logical_block_pages = r.logical_block_pages;
  auto lines = [](const std::string& text) {
    std::vector<std::string> out;
    std::size_t from = 0;
    for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
      out.push_back(text.substr(from, nl - from));
    return out;
  };
  for (const std::string& line : lines(core_->read_string(r.effective_options, 1 << 20))) {
    const std::size_t eq = line.find('=');
    boot_.effective_parameters[line.substr(0, eq)] = eq == std::string::npos ? "" : line.substr(eq + 1);
  }
  boot_.warnings = lines(core_->read_string(r.warnings, 1 << 20));
}

Token* ControllerRegisters::token_slot(std::uint32_t offset) {
  const std::uint32_t id = offset / (mmio::kTokensPerCommand * sizeof(Token)),
                      page = offset / sizeof(Token) % mmio::kTokensPerCommand;
  if (id >= commands_.size() || !commands_[id].tokens || page >= commands_[id].pages)
    throw std::runtime_error("the firmware touched host data token " + std::to_string(page) + " of command " +
                             std::to_string(id) + ", which it does not have");
  return commands_[id].tokens + page;
}

// A token is a 32-bit word; the firmware may move it in smaller pieces (a byte copy).
std::uint32_t ControllerRegisters::read_token(std::uint32_t offset, unsigned bytes) {
  const unsigned shift = 8 * (offset % 4);
  if (bytes > 4 || offset % 4 + bytes > 4) throw std::runtime_error("the firmware read across host data tokens");
  const std::uint64_t mask = (std::uint64_t(1) << (8 * bytes)) - 1;
  return static_cast<std::uint32_t>((*token_slot(offset & ~3u) >> shift) & mask);
}

void ControllerRegisters::write_token(std::uint32_t offset, unsigned bytes, std::uint32_t value) {
  const unsigned shift = 8 * (offset % 4);
  if (bytes > 4 || offset % 4 + bytes > 4) throw std::runtime_error("the firmware wrote across host data tokens");
  const std::uint64_t mask = ((std::uint64_t(1) << (8 * bytes)) - 1) << shift;
  Token& t = *token_slot(offset & ~3u);
  t = static_cast<Token>((t & ~mask) | ((std::uint64_t(value) << shift) & mask));
}

void ControllerRegisters::locate(Lpn first, std::uint32_t count, Ppn* out) {
  core_->read_memory(core_->call("ssd_debug_locate", {first, count}), out, count * std::uint32_t(sizeof(Ppn)));
}

void ControllerRegisters::valid_pages(Ppn first, std::uint32_t count, std::uint8_t* out) {
  core_->read_memory(core_->call("ssd_debug_valid_pages", {first, count}), out, count);
}

std::vector<std::pair<Lpn, Token>> ControllerRegisters::buffered_pages() {
  const std::uint32_t at = core_->call("ssd_debug_buffered_pages", {});
  std::uint32_t count = 0;
  core_->read_memory(at, &count, 4);
  std::vector<std::uint32_t> words(2 * std::size_t(count));
  if (count) core_->read_memory(at + 4, words.data(), std::uint32_t(words.size() * 4));
  std::vector<std::pair<Lpn, Token>> out(count);
  for (std::uint32_t i = 0; i < count; ++i) out[i] = {words[2 * i], words[2 * i + 1]};
  return out;
}

std::string ControllerRegisters::check_metadata(const fw::Ftl::PageReader& read_page) {
  page_reader_ = &read_page;
  const std::uint32_t at = core_->call("ssd_debug_check_metadata", {});
  page_reader_ = nullptr;
  return core_->read_string(at, 1 << 16);
}

std::string ControllerRegisters::unfinished_work() {
  return core_->read_string(core_->call("ssd_debug_unfinished_work", {}), 1 << 16);
}

void ControllerRegisters::export_metrics(MetricsRegistry& metrics) {
  export_to_ = &metrics;
  core_->call("ssd_debug_export_metrics", {});
  export_to_ = nullptr;
}

void ControllerRegisters::finalize(sc_time end) {
  if (job_log_ && running_ != mmio::EventKind::None) log_job();  // the job still running at the end
  if (!waiting_) busy_->add(busy_since_, std::max<std::uint64_t>(end.value(), busy_since_));
  const hw::IssCore::Counts& c = core_->counts();
  const std::uint64_t busy = busy_->ticks();
  memory_wait_ = c.bus_stall.value();
  compute_ = busy > memory_wait_ ? busy - memory_wait_ : 0;
  idle_ = end.value() > busy ? end.value() - busy : 0;
  // As the annotated core publishes them: its cycles (issue and stall), and as its "table
  // accesses" every bus transaction the image's loads, stores and line fills made.
  cycles_ = all_cycles_ =
      static_cast<std::uint64_t>(c.issue_cycles + c.bus_stall.to_seconds() * core_->config().clock_mhz * 1e6 + 0.5);
  bus_accesses_ = all_accesses_ = c.bus_accesses;
  all_access_ticks_ = c.bus_stall.value();
}

}  // namespace ssd::platform
