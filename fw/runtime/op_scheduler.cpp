#include "fw/runtime/op_scheduler.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/narrow_division.h"
#include "common/tokens.h"

namespace ssd::fw {

namespace {
// What issuing and completing an operation of `kind` cost, and the kinds of work they are
// (firmware_cycles splits programs and host DMAs from the flash reads and erases).
struct OpCharges {
  std::uint32_t FirmwareCosts::*issue_cycles;
  FirmwareWork issue;
  std::uint32_t FirmwareCosts::*complete_cycles;
  FirmwareWork complete;
};
OpCharges charges_of(OpKind kind) {
  switch (kind) {
    case OpKind::Program:
      return {&FirmwareCosts::op_issue_program, FirmwareWork::OpIssueProgram, &FirmwareCosts::op_complete_program,
              FirmwareWork::OpCompleteProgram};
    case OpKind::HostDmaIn:
      return {&FirmwareCosts::op_issue_dma_in, FirmwareWork::OpIssueDmaIn, &FirmwareCosts::op_complete_dma_in,
              FirmwareWork::OpCompleteDmaIn};
    case OpKind::HostDmaOut:
      return {&FirmwareCosts::op_issue_dma_out, FirmwareWork::OpIssueDmaOut, &FirmwareCosts::op_complete_dma_out,
              FirmwareWork::OpCompleteDmaOut};
    default:
      return {&FirmwareCosts::op_issue, FirmwareWork::OpIssue, &FirmwareCosts::op_complete, FirmwareWork::OpComplete};
  }
}

std::string where(const FlashGeometry& g, Ppn ppn) {
  PhysAddr a = g.decompose(ppn);
  return "ch" + std::to_string(a.channel) + "/way" + std::to_string(a.way) + "/die" + std::to_string(a.die) + "/plane" +
         std::to_string(a.plane) + "/block" + std::to_string(a.block) + "/page" + std::to_string(a.page);
}
}  // namespace

OpScheduler::OpScheduler(Hal& hal, const FirmwareCosts& costs, MetricSet& metrics, std::uint32_t buffer_slots)
    : hal_(hal),
      costs_(costs),
      metrics_(metrics),
      geo_(hal.geometry()),
      blocks_(geo_.total_blocks()),
      buffer_slots_(buffer_slots) {
  if (buffer_slots == 0) throw std::invalid_argument("the data buffer needs at least one page slot");
  hal_.set_listener(this);
  data_buffer_ = hal_.place_table("data_buffer", std::uint64_t(buffer_slots) * geo_.page_bytes, MemoryKind::Dram);
  static const char* names[7] = {"reads_issued",        "programs_issued", "erases_issued",   "host_dma_in_issued",
                                 "host_dma_out_issued", "joins",           "oob_reads_issued"};
  for (int i = 0; i < 7; ++i) issued_[i] = &metrics.counter(names[i]);
  ops_.reserve(1024);
  place_op_records();
}

void OpScheduler::place_op_records() {
  op_records_ = hal_.place_records("op_records", std::uint64_t(ops_.capacity()) * kOpRecordBytes);
}

void OpScheduler::touch_op(std::uint32_t index, Access access) {
  hal_.touch_record(op_records_, std::uint64_t(index) * kOpRecordBytes, kOpRecordBytes, access);
}

OpRef OpScheduler::allocate(OpKind kind) {
  std::uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    index = static_cast<std::uint32_t>(ops_.size());
    const std::size_t capacity = ops_.capacity();
    ops_.emplace_back();
    versions_.emplace_back();
    hold_up_.emplace_back();
    if (ops_.capacity() != capacity) place_op_records();  // the array moved, as it does in the image's heap
  }
  versions_[index] = 0;
  if (hold_up_base_) hold_up_[index] = hold_up_scope_;
  touch_op(index, Access::Write);
  Op& op = ops_[index];
  op.state = State::Building;
  op.kind = kind;
  op.wait_chain = false;
  op.held = false;
  op.background = background_;
  op.origin = origin_;
  op.epoch_slot = 0;
  op.ppn = kNoPpn;
  op.lpn = kNoLpn;
  op.token = 0;
  op.bytes = op.host_cmd = op.partner_wait_ns = 0;
  op.slc = false;
  op.pending = 1;  // the builder's hold, released by submit()
  op.merge_with = nullptr;
  op.copy_from = nullptr;
  op.sink = nullptr;
  op.chain_next = op.block_next = OpRef{};
  op.successors.clear();
  op.callback = nullptr;
  ++live_;
  return OpRef{index, op.gen};
}

OpRef OpScheduler::read(Ppn ppn, Token* sink) {
  OpRef r = allocate(OpKind::Read);
  ops_[r.index].ppn = ppn;
  ops_[r.index].sink = sink;
  return r;
}

OpRef OpScheduler::read_oob(Ppn ppn) {
  OpRef r = allocate(OpKind::ReadOob);
  ops_[r.index].ppn = ppn;
  return r;
}

OpRef OpScheduler::program(Ppn ppn, Lpn lpn, Token token, const Token* merge_with) {
  OpRef r = allocate(OpKind::Program);
  Op& op = ops_[r.index];
  op.ppn = ppn;
  op.lpn = lpn;
  op.token = token;
  op.merge_with = merge_with;
  return r;
}

OpRef OpScheduler::program_copy(Ppn ppn, Lpn lpn, const Token* source) {
  OpRef r = program(ppn, lpn, 0);
  ops_[r.index].copy_from = source;
  return r;
}

void OpScheduler::expect_partner(OpRef program, std::uint32_t ns) {
  if (!alive(program) || ops_[program.index].kind != OpKind::Program)
    throw std::logic_error("expect_partner() on an operation that is not a live program");
  ops_[program.index].partner_wait_ns = ns;
}

void OpScheduler::program_in_slc_mode(OpRef program) {
  if (!alive(program) || ops_[program.index].kind != OpKind::Program)
    throw std::logic_error("program_in_slc_mode() on an operation that is not a live program");
  ops_[program.index].slc = true;
}

OpRef OpScheduler::timer(std::uint32_t ns) {
  if (!timers_) timers_ = &metrics_.counter("timers_issued");
  OpRef r = allocate(OpKind::Timer);
  ops_[r.index].bytes = ns;
  return r;
}

OpRef OpScheduler::erase(BlockId block) {
  OpRef r = allocate(OpKind::Erase);
  ops_[r.index].ppn = geo_.first_page(block);
  return r;
}

OpRef OpScheduler::host_dma(OpKind direction, std::uint32_t host_cmd, std::uint32_t bytes) {
  OpRef r = allocate(direction);
  ops_[r.index].host_cmd = host_cmd;
  ops_[r.index].bytes = bytes;
  return r;
}

OpRef OpScheduler::join() { return allocate(OpKind::Join); }

void OpScheduler::on_complete(OpRef op, OpCallback callback) {
  if (!alive(op)) throw std::logic_error("on_complete() on a finished operation");
  ops_[op.index].callback = std::move(callback);
}

void OpScheduler::depend(OpRef before, OpRef after) {
  if (!alive(after) || ops_[after.index].state != State::Building)
    throw std::logic_error("depend(): the dependent operation must still be under construction");
  if (!alive(before)) return;  // already finished
  ops_[before.index].successors.push_back(after.index);
  ++ops_[after.index].pending;
}

void OpScheduler::submit(OpRef ref) {
  if (!alive(ref) || ops_[ref.index].state != State::Building)
    throw std::logic_error("submit() of an operation that is not under construction");
  apply_hazards(ref.index);
  Op& op = ops_[ref.index];
  const bool copy = copy_source_.active && op.kind == OpKind::Program && op.lpn == copy_source_.lpn &&
                    op.token == copy_source_.token && !op.copy_from && !op.merge_with;
  if (copy && hold_copy_sources_) {
    ++blocks_[copy_source_.block].inflight[copy_source_.slot];
    holding_[ref.index].emplace_back(copy_source_.block, copy_source_.slot);
  }
  // The OOB's version: a copy keeps its source's (a program_copy's comes with its source read);
  // a page with no data (kUnwrittenToken: a merge's padding) has none; anything else is new.
  if (op.kind == OpKind::Program && !op.copy_from)
    versions_[ref.index] = copy                          ? copy_source_.version
                           : op.token == kUnwrittenToken ? 0
                           : hold_up_work(ref.index)     ? hold_up_base_ + hold_up_next_++
                                                         : new_version();
  op.state = State::Waiting;
  if (op.kind == OpKind::Program && !op.background) {
    ++host_programs_;
    if (!host_written_mark_.empty() && !host_written_mark_[geo_.block_of(op.ppn)]) {
      host_written_mark_[geo_.block_of(op.ppn)] = true;
      host_written_.push_back(geo_.block_of(op.ppn));
    }
  }
  // Work of no request (boot, preconditioning) starts its own trail, which no request reads.
  const std::uint64_t now = hal_.now_ticks();
  op.trail = context_.owner ? context_ : LatencyTrail::begin(0, now);
  op.trail.advance(Stage::Firmware, now);
  if (--op.pending == 0) make_ready(ref.index);
  drain();
}

void OpScheduler::apply_hazards(std::uint32_t index) {
  Op& op = ops_[index];
  OpRef self{index, op.gen};
  switch (op.kind) {
    case OpKind::Read:
    case OpKind::ReadOob: {
      BlockHazard& b = blocks_[geo_.block_of(op.ppn)];
      op.epoch_slot = b.epoch & 1;
      const OpRef pending_program = program_in_flight(op.ppn);
      if (pending_program.valid()) {
        Op& prog = ops_[pending_program.index];
        op.epoch_slot = prog.epoch_slot;  // a page programmed after a pending erase: next epoch
        prog.successors.push_back(index);
        ++op.pending;
      }
      if (b.erase_issued && op.epoch_slot == (b.epoch & 1))
        throw std::logic_error("firmware read of " + where(geo_, op.ppn) + " while its block is being erased");
      ++b.inflight[op.epoch_slot];
      break;
    }
    case OpKind::Program: {
      BlockHazard& b = blocks_[geo_.block_of(op.ppn)];
      op.epoch_slot = b.epoch & 1;
      if (alive(b.erase)) {
        depend(b.erase, self);
        op.epoch_slot ^= 1;
      }
      ++b.inflight[op.epoch_slot];
      if (alive(b.last_program)) {
        ops_[b.last_program.index].chain_next = self;
        op.wait_chain = true;
      }
      b.last_program = self;
      if (alive(b.newest_program))
        ops_[b.newest_program.index].block_next = self;
      else
        b.oldest_program = self;
      b.newest_program = self;
      break;
    }
    case OpKind::Erase: {
      BlockHazard& b = blocks_[geo_.block_of(op.ppn)];
      if (alive(b.erase)) throw std::logic_error("second erase of " + where(geo_, op.ppn) + " while one is pending");
      b.erase = self;
      b.erase_parked = b.erase_issued = false;
      break;
    }
    default:
      break;
  }
}

void OpScheduler::make_ready(std::uint32_t index) {
  Op& op = ops_[index];
  op.trail.advance(op.held ? Stage::DependencyWait : Stage::Firmware, hal_.now_ticks());
  op.held = true;
  if (op.wait_chain) return;  // released when the previous program of the block is issued
  if (power_lost_ && (op.kind == OpKind::Program || op.kind == OpKind::Erase) && !hold_up_work(index)) {
    ++*parked_;  // never issued: see hold_for_power_loss
    return;
  }
  if (op.kind == OpKind::Erase) {
    BlockHazard& b = blocks_[geo_.block_of(op.ppn)];
    if (b.inflight[b.epoch & 1] > 0) {
      b.erase_parked = true;
      if (!word_line_held_.empty()) want_word_lines_closed(geo_.block_of(op.ppn));
      return;
    }
    b.erase_issued = true;
  }
  op.held = false;
  ready_.push_back(index);
}

std::uint64_t OpScheduler::buffer_address() {
  const std::uint64_t address = data_buffer_.base + std::uint64_t(buffer_slot_) * geo_.page_bytes;
  if (++buffer_slot_ == buffer_slots_) buffer_slot_ = 0;
  return address;
}

void OpScheduler::issue(std::uint32_t index) {
  touch_op(index, Access::Write);
  Op& op = ops_[index];
  op.state = State::Issued;
  ++*(op.kind == OpKind::Timer ? timers_ : issued_[static_cast<int>(op.kind)]);
  if (op.kind == OpKind::Join) {
    complete(index, HalResult{});
    return;
  }
  if (op.kind == OpKind::Program) {
    if (op.merge_with) op.token = merge_tokens(*op.merge_with, op.token);
    if (op.copy_from) op.token = *op.copy_from;
    BlockHazard& b = blocks_[geo_.block_of(op.ppn)];
    if (b.last_program.index == index && b.last_program.gen == op.gen) b.last_program = OpRef{};
    if (alive(op.chain_next)) {
      Op& next = ops_[op.chain_next.index];
      next.wait_chain = false;
      if (next.state == State::Waiting && next.pending == 0) make_ready(op.chain_next.index);
    }
  }
  const OpCharges issue = charges_of(op.kind);
  hal_.charge_cycles(costs_.*issue.issue_cycles, issue.issue);
  op.trail.advance(Stage::Firmware, hal_.now_ticks());
  HalOp h;
  h.tag = index;
  h.kind = op.kind;
  h.ppn = op.ppn;
  h.lpn = op.lpn;
  h.token = op.token;
  h.version = versions_[index];
  h.bytes = op.kind == OpKind::HostDmaIn || op.kind == OpKind::HostDmaOut ? op.bytes : geo_.page_bytes;
  h.host_cmd = op.host_cmd;
  h.partner_wait_ns = op.partner_wait_ns;
  h.slc = op.slc;
  h.wait_ns = op.kind == OpKind::Timer ? op.bytes : 0;
  h.background = op.background;
  h.origin = op.origin;
  h.hold_up = hold_up_work(index);
  h.buffer_addr = buffer_address();
  h.trail = op.trail;
  hal_.issue(h);
  // Last: the watcher may build operations (ops_ may grow; `op` is not used after this).
  if (read_threshold_ && is_flash_read(h.kind)) {
    const BlockId block = geo_.block_of(h.ppn);
    if (++blocks_[block].reads == read_threshold_) read_threshold_reached_(block);
  }
}

void OpScheduler::on_hal_complete(std::uint32_t tag, const HalResult& result) {
  if (tag >= ops_.size() || ops_[tag].state != State::Issued)
    throw std::logic_error("HAL completed an operation that is not in flight (tag " + std::to_string(tag) + ")");
  const OpKind kind = ops_[tag].kind;
  const OpCharges done = charges_of(kind);
  hal_.charge_cycles(costs_.*done.complete_cycles, done.complete);
  if (kind == OpKind::Program && !ops_[tag].background) --host_programs_;
  complete(tag, result);
  // Copies left in open word lines: the firmware closes them (it may submit programs).
  while (!open_word_lines_.empty()) {
    const BlockId block = open_word_lines_.back();
    open_word_lines_.pop_back();
    if (!word_line_closing(block)) word_line_open_(block);
  }
  drain();
}

void OpScheduler::complete(std::uint32_t index, const HalResult& result) {
  touch_op(index, Access::Write);
  const std::uint64_t now = hal_.now_ticks();
  LatencyTrail trail = ops_[index].kind == OpKind::Join ? ops_[index].trail : result.trail;
  trail.advance(Stage::Firmware, now);
  {
    Op& op = ops_[index];
    if (op.kind == OpKind::Erase) {  // the block is usable again before anyone hears of it
      BlockHazard& b = blocks_[geo_.block_of(op.ppn)];
      b.erase = OpRef{};
      b.erase_issued = b.erase_parked = false;
      b.reads = 0;
      ++b.epoch;  // programs submitted while it was pending are the current epoch now
    }
    if (op.kind == OpKind::Read && op.sink) *op.sink = result.token;
    if (result.failed && op_failed_) {
      const OpFailure failure{op.kind, op.ppn, op.lpn, op.token};
      Attribution on_behalf(*this, trail);
      op_failed_(failure);  // may create and submit operations
    }
  }
  {
    Op& op = ops_[index];
    if (op.callback) {
      OpCallback cb = std::move(op.callback);
      op.callback = nullptr;
      Attribution on_behalf(*this, trail);
      if (op.kind == OpKind::Read) {  // a program of what it read, submitted by the callback, is a copy
        const CopySource outer = copy_source_;
        copy_source_ = {geo_.block_of(op.ppn), op.epoch_slot, result.lpn, result.token, result.version, true};
        cb(result);  // may create and submit operations (ops_ may grow: re-fetch below)
        copy_source_ = outer;
      } else {
        cb(result);
      }
    }
  }
  Op& done_op = ops_[index];
  if (done_op.kind == OpKind::Read && done_op.sink)
    for (const std::uint32_t s : done_op.successors) pass_version(done_op.sink, s, result.version);
  if (hold_copy_sources_) {  // (see the hazard rules) the copies of what a read read hold its block
    if (done_op.kind == OpKind::Read)
      for (const std::uint32_t s : done_op.successors) hold_source(index, s);
    if (done_op.kind == OpKind::Program)
      if (const auto held = holding_.find(index); held != holding_.end()) {
        auto sources = std::move(held->second);
        holding_.erase(held);
        if (word_line_pages_ > 1 && !result.failed)
          hold_until_word_line_closes(geo_.block_of(done_op.ppn), geo_.page_in_block(done_op.ppn), std::move(sources),
                                      now);
        else
          for (const auto& [source, slot] : sources) release_block(source, slot, now);
      }
  }
  if (!word_line_holds_.empty() && (done_op.kind == OpKind::Program || done_op.kind == OpKind::Erase)) {
    // A program closes the word lines up to its page; an erase or a failed program ends the
    // block's (its copies are gone or moved again).
    const bool ends = done_op.kind == OpKind::Erase || result.failed;
    release_closed_word_lines(geo_.block_of(done_op.ppn), ends ? geo_.pages_per_block : geo_.page_in_block(done_op.ppn),
                              now);
  }
  if (is_flash_read(done_op.kind) || done_op.kind == OpKind::Program) {
    BlockHazard& b = blocks_[geo_.block_of(done_op.ppn)];
    if (done_op.kind == OpKind::Program) {
      // A die executes its queue in order, so a block's programs complete in page order.
      if (b.oldest_program.index != index || b.oldest_program.gen != done_op.gen)
        throw std::logic_error("program of " + where(geo_, done_op.ppn) +
                               " completed before an older program of its block");
      b.oldest_program = alive(done_op.block_next) ? done_op.block_next : OpRef{};
      if (!b.oldest_program.valid()) b.newest_program = OpRef{};
    }
    release_block(geo_.block_of(done_op.ppn), done_op.epoch_slot, now);
  }
  // A successor of the same request continues this trail; one of another request (or of no
  // request) waited for this work.
  for (std::uint32_t s : done_op.successors) {
    touch_op(s, Access::Write);
    Op& succ = ops_[s];
    if (succ.state == State::Waiting) {
      if (trail.owner != 0 && succ.trail.owner == trail.owner)
        succ.trail = trail;
      else
        succ.trail.advance(Stage::DependencyWait, now);
    }
    if (--succ.pending == 0 && succ.state == State::Waiting) make_ready(s);
  }
  done_op.successors.clear();
  done_op.state = State::Free;
  ++done_op.gen;
  --live_;
  free_.push_back(index);
}

void OpScheduler::release_block(BlockId block, std::uint8_t slot, std::uint64_t now) {
  BlockHazard& b = blocks_[block];
  --b.inflight[slot];
  if (!word_line_held_.empty() && b.inflight[slot] > 0) want_word_lines_closed(block);
  if (b.inflight[slot] == 0 && slot == (b.epoch & 1) && b.erase_parked) {
    b.erase_parked = false;
    b.erase_issued = true;
    Op& erase = ops_[b.erase.index];
    erase.trail.advance(Stage::DependencyWait, now);
    erase.held = false;
    ready_.push_back(b.erase.index);
  }
}

void OpScheduler::hold_until_word_line_closes(BlockId block, std::uint32_t page,
                                              std::vector<std::pair<BlockId, std::uint8_t>> sources,
                                              std::uint64_t now) {
  const std::uint32_t last = page - page % word_line_pages_ + word_line_pages_ - 1;
  if (page == last) {  // its own program closed the word line
    for (const auto& [source, slot] : sources) release_block(source, slot, now);
    return;
  }
  std::vector<WordLineHold>& holds = word_line_holds_[block];
  for (const auto& [source, slot] : sources) {
    holds.push_back({last, source, slot});
    ++word_line_held_[std::uint64_t(source) * 2 + slot];
  }
  for (const auto& [source, slot] : sources) want_word_lines_closed(source);
}

void OpScheduler::want_word_lines_closed(BlockId source) {
  const BlockHazard& b = blocks_[source];
  const std::uint8_t slot = b.epoch & 1;
  const auto held = word_line_held_.find(std::uint64_t(source) * 2 + slot);
  if (!b.erase_parked || held == word_line_held_.end() || b.inflight[slot] != held->second) return;
  for (const auto& [block, holds] : word_line_holds_)
    for (const WordLineHold& h : holds)
      if (h.source == source && h.slot == slot) {
        open_word_lines_.push_back(block);
        break;
      }
}

void OpScheduler::release_closed_word_lines(BlockId block, std::uint32_t page, std::uint64_t now) {
  const auto it = word_line_holds_.find(block);
  if (it == word_line_holds_.end()) return;
  std::vector<WordLineHold>& holds = it->second;
  std::vector<WordLineHold> closed;
  holds.erase(std::remove_if(holds.begin(), holds.end(),
                             [&](const WordLineHold& h) {
                               if (h.last_page > page) return false;
                               closed.push_back(h);
                               return true;
                             }),
              holds.end());
  if (holds.empty()) word_line_holds_.erase(it);
  for (const WordLineHold& h : closed) {
    const auto held = word_line_held_.find(std::uint64_t(h.source) * 2 + h.slot);
    if (--held->second == 0) word_line_held_.erase(held);
    release_block(h.source, h.slot, now);
  }
}

bool OpScheduler::word_line_closing(BlockId block) const {
  const auto it = word_line_holds_.find(block);
  if (it == word_line_holds_.end()) return true;
  std::uint32_t needed = 0;
  for (const WordLineHold& h : it->second) needed = std::max(needed, h.last_page);
  const BlockHazard& b = blocks_[block];
  return alive(b.newest_program) && geo_.page_in_block(ops_[b.newest_program.index].ppn) >= needed;
}

void OpScheduler::release_word_line_holds(BlockId block) {
  release_closed_word_lines(block, geo_.pages_per_block, hal_.now_ticks());
}

std::vector<BlockId> OpScheduler::take_host_written_blocks() {
  std::vector<BlockId> blocks;
  blocks.swap(host_written_);
  for (const BlockId b : blocks) host_written_mark_[b] = false;
  return blocks;
}

OpRef OpScheduler::programs_barrier() {
  OpRef all = join();
  for (std::uint32_t i = 0; i < ops_.size(); ++i) {
    const Op& op = ops_[i];
    if (op.kind == OpKind::Program && (op.state == State::Waiting || op.state == State::Issued))
      depend(OpRef{i, op.gen}, all);
  }
  return all;
}

void OpScheduler::pass_version(const Token* sink, std::uint32_t s, std::uint32_t version) {
  Op& succ = ops_[s];
  if (succ.kind == OpKind::Join)
    for (const std::uint32_t next : succ.successors) pass_version(sink, next, version);
  else if (succ.kind == OpKind::Program && succ.copy_from == sink)
    versions_[s] = version;
}

std::uint32_t OpScheduler::new_version() {
  if (next_version_ == ~std::uint32_t(0))
    throw std::logic_error("the OOB's 32-bit sequence numbers are exhausted (4,294,967,294 programs)");
  if (hold_up_base_ && next_version_ + 1 >= hold_up_base_)
    throw std::logic_error("the power-loss hold-up numbered more programs than its dump's versions leave room for");
  return ++next_version_;
}

void OpScheduler::hold_source(std::uint32_t read, std::uint32_t s) {
  Op& succ = ops_[s];
  if (succ.kind == OpKind::Join) {  // the data goes on through it (a read-modify-write's ready)
    for (const std::uint32_t next : succ.successors) hold_source(read, next);
    return;
  }
  if (succ.kind != OpKind::Program || (!succ.copy_from && !succ.merge_with)) return;
  const Op& r = ops_[read];
  const BlockId block = geo_.block_of(r.ppn);
  ++blocks_[block].inflight[r.epoch_slot];
  holding_[s].emplace_back(block, r.epoch_slot);
}

// The newest in-flight program of `ppn`, if any: a walk of its block's in-flight programs
// (few). There can be two when the page is programmed again after a pending erase.
OpRef OpScheduler::program_in_flight(Ppn ppn) const {
  const BlockHazard& b = blocks_[geo_.block_of(ppn)];
  OpRef found;
  for (OpRef r = b.oldest_program; r.valid() && alive(r); r = ops_[r.index].block_next)
    if (ops_[r.index].ppn == ppn) found = r;
  return found;
}

std::string OpScheduler::describe_unfinished(std::size_t most) const {
  if (live_ == 0) return "";
  static const char* states[] = {"free", "building", "waiting", "issued"};
  std::string out = std::to_string(live_) + " operation(s) unfinished";
  std::size_t shown = 0;
  for (std::uint32_t i = 0; i < ops_.size() && shown < most; ++i) {
    const Op& op = ops_[i];
    if (op.state == State::Free) continue;
    out += std::string(shown++ ? "; " : ": ") + to_string(op.kind) + " " + states[static_cast<int>(op.state)];
    if (op.ppn != kNoPpn) out += " at " + where(geo_, op.ppn);
    if (op.pending) out += ", waiting for " + std::to_string(op.pending) + " predecessor(s)";
    if (op.wait_chain) out += ", behind an earlier program of its block";
    if (op.held) out += ", held by its block's order";
  }
  return out;
}

void OpScheduler::drain() {
  if (draining_) return;
  draining_ = true;
  // First ready, first issued; completions of joins append to ready_ while we walk it.
  for (std::size_t i = 0; i < ready_.size(); ++i) issue(ready_[i]);
  ready_.clear();
  draining_ = false;
}

}  // namespace ssd::fw
