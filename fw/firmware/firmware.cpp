#include "fw/firmware/firmware.h"

#include <algorithm>
#include <stdexcept>

#include "common/narrow_division.h"
#include "fw/ftl/registry.h"

namespace ssd::fw {

Firmware::Firmware(Hal& hal, FirmwareConfig config, MetricsRegistry& metrics)
    : hal_(hal),
      config_(std::move(config)),
      metrics_(metrics.set("firmware")),
      ops_(hal, config_.costs, metrics.set("firmware.ops"), config_.buffer_slots),
      buffer_free_(config_.buffer_slots),
      commands_(metrics_.counter("host_commands")),
      partial_pages_(metrics_.counter("partial_page_writes")),
      buffer_waits_(metrics_.counter("buffer_waits")),
      buffer_high_water_(metrics_.counter("buffer_pages_high_water")),
      host_pages_written_(metrics_.counter("host_pages_written")),
      flushes_(&metrics_.counter("host_flushes")),
      trims_(&metrics_.counter("host_trims")),
      trimmed_pages_(&metrics_.counter("host_trimmed_pages")),
      trim_buffer_drops_(&metrics_.counter("trim_buffer_drops")),
      fua_writes_(&metrics_.counter("host_fua_writes")) {
  const FtlInfo* info = find_ftl(config_.ftl);
  if (!info) throw FtlOptionError("unknown FTL '" + config_.ftl + "' (known: " + ftl_names() + ")");
  read_cost_overrides(config_.ftl_options, config_.costs);  // ops_ holds the costs by reference
  ops_.set_hold_copy_sources(config_.erase_after_copies);
  if (config_.word_line_safety && config_.word_line_pages > 1 && !config_.plp) {
    ops_.track_host_written_blocks();
    if (config_.erase_after_copies)
      ops_.watch_open_word_lines(config_.word_line_pages, [this](BlockId block) { close_word_line_of(block); });
  }
  FtlContext ctx{hal_, ops_, config_.costs, metrics.set("ftl"), config_.ftl_options, config_.word_line_pages};
  ftl_ = info->make(ctx);
  if (SegmentSpace* space = ftl_->segment_space()) space->set_wear_leveling(config_.wear_leveling, metrics.set("ftl"));
  const auto buffered = [this](Lpn lpn) { return wbuf_ && find_buffered(lpn) != WriteBuffer::kNoEntry; };
  if (config_.read_reclaim_reads > 0) {
    reclaim_ = std::make_unique<BlockMover>(ops_, *ftl_, hal_.geometry(), metrics.set("ftl"), "read_reclaim", buffered);
    ops_.watch_reads(config_.read_reclaim_reads, [this](BlockId block) { reclaim_->move(block); });
  }
  if (config_.bad_blocks) {
    SegmentSpace* space = ftl_->segment_space();
    if (!space) throw FtlOptionError("FTL '" + config_.ftl + "' keeps no block space that could retire bad blocks");
    space->set_read_only_margin(config_.read_only_margin);
    bad_blocks_ = std::make_unique<BadBlockHandler>(hal_, ops_, *ftl_, *space, metrics.set("ftl"), buffered);
    ops_.watch_failures([this](const OpScheduler::OpFailure& f) {
      if (power_lost_) return;  // the hold-up saves data; it repairs nothing
      if (checkpointer_ && checkpointer_->owns(hal_.geometry().block_of(f.ppn))) return;  // it retires its own
      bad_blocks_->on_failure(f);
    });
  }
  // The firmware's own blocks (map checkpoint slots, power-loss dump area), out of the FTL's space:
  // passing over the factory-bad blocks and each other's.
  std::vector<bool> taken(hal_.geometry().total_blocks(), false);
  for (BlockId b : hal_.factory_bad_blocks()) taken[b] = true;
  std::vector<BlockId> own;
  if (config_.checkpoint_interval_bytes > 0) {
    if (!ftl_->segment_space())
      throw FtlOptionError("FTL '" + config_.ftl + "' keeps no block space to hold map checkpoints back from");
    const std::uint64_t page = hal_.geometry().page_bytes;
    checkpointer_ = std::make_unique<MapCheckpointer>(ops_, metrics.set("ftl"), hal_.geometry(),
                                                      (config_.checkpoint_interval_bytes + page - 1) / page,
                                                      (ftl_->checkpoint_bytes() + page - 1) / page, taken);
    own = checkpointer_->blocks();
  }
  const WriteBufferConfig& wb = config_.write_buffer;
  if (wb.policy != WriteBufferPolicy::kOff) {
    const auto pages = static_cast<std::uint32_t>(wb.bytes / hal_.geometry().page_bytes);
    if (pages < config_.buffer_slots)
      throw std::invalid_argument("the write buffer holds " + std::to_string(pages) + " pages, fewer than a command may "
                                  "write (firmware.buffer_slots = " + std::to_string(config_.buffer_slots) +
                                  "): raise firmware.write_buffer_dram_share or lower firmware.buffer_slots");
    hal_.place_table("write_buffer", std::uint64_t(pages) * hal_.geometry().page_bytes, MemoryKind::Dram);
    const std::uint32_t block = ftl_->logical_block_pages();
    wbuf_ = std::make_unique<WriteBuffer>(pages, wb.policy, block ? block : hal_.geometry().pages_per_block);
    wbuf_entries_ = hal_.place_records("write_buffer.entries", std::uint64_t(pages) * WriteBuffer::kEntryBytes);
    wbuf_index_ = hal_.place_records("write_buffer.index", wbuf_->index().heads_bytes() + wbuf_->index().slots_bytes());
    high_water_pages_ = static_cast<std::uint32_t>(wb.high_water * pages);
    max_flushing_ = wb.flush_depth * hal_.geometry().total_planes();
    read_hits_ = &metrics_.counter("write_buffer_read_hits");
    absorbed_ = &metrics_.counter("write_buffer_absorbed_writes");
    evicted_ = &metrics_.counter("write_buffer_evictions");
    wbuf_waits_ = &metrics_.counter("write_buffer_waits");
    wbuf_high_water_ = &metrics_.counter("write_buffer_pages_high_water");
    flushing_high_water_ = &metrics_.counter("write_buffer_flushing_high_water");
    occupancy_gauge_ = &metrics_.gauge("write_buffer_pages_at_end");
    mean_occupancy_gauge_ = &metrics_.gauge("write_buffer_mean_pages");
    occupancy_trace_ = hal_.trace_state("write_buffer.pages", 32);
    dirty_trace_ = hal_.trace_state("write_buffer.dirty_pages", 32);
    if (config_.plp && config_.plp_destage == FirmwareConfig::PlpDestage::Dump) {
      SegmentSpace* space = ftl_->segment_space();
      if (!space) throw FtlOptionError("FTL '" + config_.ftl + "' keeps no block space to hold a power-loss dump area "
                                       "back from: use firmware.plp_destage = ftl");
      plp_dump_ = std::make_unique<PlpDumpArea>(hal_.geometry(), pages, &taken);
      own.insert(own.end(), plp_dump_->blocks().begin(), plp_dump_->blocks().end());
      metrics_.gauge("plp_dump_blocks") = double(plp_dump_->blocks().size());
    }
  }
  if (!own.empty()) ftl_->segment_space()->hold_back(own);
}

std::vector<std::pair<Lpn, Token>> Firmware::buffered_pages() const {
  std::vector<std::pair<Lpn, Token>> pages;
  if (!wbuf_) return pages;
  wbuf_->for_each_newest([&pages](Lpn lpn, const WriteBuffer::Entry& e) { pages.emplace_back(lpn, e.value()); });
  std::sort(pages.begin(), pages.end());
  return pages;
}

std::uint64_t Firmware::unsaved_buffered_pages() const {
  std::uint64_t unsaved = 0;
  if (wbuf_) wbuf_->index().for_each([&](Lpn, std::uint32_t e) { unsaved += dumped_.empty() || !dumped_[e]; });
  return unsaved;
}

std::string Firmware::unfinished_work() const {
  std::string out = ops_.describe_unfinished();
  const auto add = [&out](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
  if (!waiting_.empty()) add(std::to_string(waiting_.size()) + " command(s) waiting for data-buffer pages");
  if (!pending_flushes_.empty()) add(std::to_string(pending_flushes_.size()) + " flush(es) waiting for buffered pages");
  if (!wbuf_waiting_.empty()) add(std::to_string(wbuf_waiting_.size()) + " write(s) waiting for write-buffer entries");
  if (wbuf_ && wbuf_->flushing()) add(std::to_string(wbuf_->flushing()) + " evicted page(s) not released");
  if (reclaim_ && !reclaim_->idle()) add(reclaim_->describe());
  if (bad_blocks_ && !bad_blocks_->idle()) add(bad_blocks_->describe());
  if (bad_blocks_ && !out.empty() && bad_blocks_->read_only()) add(bad_blocks_->read_only_reason());
  return out;
}

std::uint32_t Firmware::take_scratch(std::uint32_t pages) {
  if (scratch_free_.empty()) {
    scratch_free_.push_back(static_cast<std::uint32_t>(scratch_.size()));
    scratch_.push_back(std::make_unique<std::vector<Token>>());
  }
  const std::uint32_t index = scratch_free_.back();
  scratch_free_.pop_back();
  scratch_[index]->assign(pages, kUnwrittenToken);
  return index;
}

void Firmware::on_power_loss() {
  power_lost_ = true;
  if (checkpointer_) checkpointer_->stop();
  if (!wbuf_) return;
  std::uint64_t buffered = 0;  // what the hold-up has to save: each buffered page's newest copy
  wbuf_->index().for_each([&buffered](Lpn, std::uint32_t) { ++buffered; });
  metrics_.gauge("plp_buffered_pages") = double(buffered);
  if (plp_dump_) {
    if (stops_work_at_power_loss()) ops_.hold_for_power_loss();
    OpScheduler::HoldUpWork dump(ops_);  // ahead of the FTL's work at the dies, and newest in recovery
    dump_for_power_loss();
    return;
  }
  max_flushing_ = 0;  // while the capacitors last, everything at once
  evict_all_for_power_loss();
}

void Firmware::dump_for_power_loss() {
  std::uint64_t* dumped = &metrics_.counter("plp_pages_dumped");  // programmed within the hold-up
  dumped_.assign(wbuf_->capacity(), 0);
  const auto dump = [&](std::uint32_t e) {
    const Ppn ppn = plp_dump_->next_page();
    if (ppn == kNoPpn) return;  // (the area holds the whole buffer)
    hal_.charge_cycles(config_.costs.buffer_evict, FirmwareWork::BufferEvict);
    touch_buffer_entry(e, Access::Read);
    const WriteBuffer::Entry& x = wbuf_->entry(e);
    OpRef program = ops_.program(ppn, x.lpn, x.token, x.merge ? &x.old : nullptr);
    ops_.depend(x.ready, program);
    ops_.on_complete(program, [this, dumped, e](const HalResult&) {
      ++*dumped;
      dumped_[e] = 1;
    });
    ops_.submit(program);
  };
  // A page whose data is not all in DRAM yet (its write not acknowledged) goes last: programs to
  // a block are issued in order, and its wait must hold no other page's.
  std::vector<std::uint32_t> later;
  wbuf_->index().for_each([&](Lpn, std::uint32_t e) {
    if (ops_.alive(wbuf_->entry(e).ready))
      later.push_back(e);
    else
      dump(e);
  });
  for (const std::uint32_t e : later) dump(e);
}

void Firmware::evict_all_for_power_loss() {
  std::uint64_t& saved = metrics_.counter("plp_pages_evicted");
  const std::uint64_t before = *evicted_;
  while (evict_next()) {
  }
  saved += *evicted_ - before;
}

void Firmware::on_host_command(const HostCommand& cmd) {
  if (power_lost_) return;  // the host is gone: nothing more is taken
  ++commands_;
  hal_.charge_cycles(config_.costs.host_command, FirmwareWork::HostCommand);
  if (cmd.op == HostOp::Flush) {
    handle_flush(cmd);
    return;
  }
  if (cmd.sectors == 0 || cmd.lba + cmd.sectors > capacity_sectors())
    throw std::invalid_argument("host command " + std::to_string(cmd.id) + " addresses sectors [" +
                                std::to_string(cmd.lba) + ", " + std::to_string(cmd.lba + cmd.sectors) +
                                ") outside the drive's " + std::to_string(capacity_sectors()) + " sectors");
  if ((cmd.is_write() || cmd.op == HostOp::Trim) && bad_blocks_ && bad_blocks_->read_only()) {  // its spares spent: reads only
    hal_.charge_cycles(config_.costs.host_complete, FirmwareWork::HostComplete);
    hal_.complete_host_command(cmd.id, cmd.trail, HostStatus::NamespaceWriteProtected);
    return;
  }
  if (cmd.op == HostOp::Trim) {
    handle_trim(cmd);
    return;
  }
  PageSpan span = page_span(cmd.lba, cmd.sectors, hal_.geometry().page_bytes);
  if (span.count > config_.buffer_slots)
    throw std::invalid_argument("host command " + std::to_string(cmd.id) + " moves " + std::to_string(span.count) +
                                " pages, more than the whole data buffer (firmware.buffer_slots = " +
                                std::to_string(config_.buffer_slots) + ")");
  if (!waiting_.empty() || span.count > buffer_free_) {
    ++buffer_waits_;
    waiting_.emplace_back(cmd, span);
    waiting_.back().first.trail.advance(Stage::Firmware, hal_.now_ticks());
    return;
  }
  admit(cmd, span);
}

void Firmware::admit(const HostCommand& cmd, PageSpan span) {
  OpScheduler::Attribution on_behalf(ops_, cmd.trail);
  buffer_free_ -= span.count;
  buffer_high_water_ = std::max<std::uint64_t>(buffer_high_water_, config_.buffer_slots - buffer_free_);
  *fua_writes_ += cmd.is_write() && cmd.fua;
  if (!cmd.is_write()) {
    handle_read(cmd, span);
  } else if (!buffering()) {
    handle_write(cmd, span);
  } else if (wbuf_waiting_.empty() && has_room(span)) {
    buffer_write(cmd, span);
  } else {  // waits for entries (holding its data-buffer pages), in arrival order
    ++*wbuf_waits_;
    wbuf_waiting_.emplace_back(cmd, span);
    wbuf_waiting_.back().first.trail.advance(Stage::Firmware, hal_.now_ticks());
    evict_as_needed();
  }
}

void Firmware::release(std::uint32_t pages) {
  buffer_free_ += pages;
  while (!waiting_.empty() && waiting_.front().second.count <= buffer_free_) {
    auto [cmd, span] = waiting_.front();
    waiting_.pop_front();
    cmd.trail.advance(Stage::BufferWait, hal_.now_ticks());
    admit(cmd, span);
  }
}

void Firmware::handle_write(const HostCommand& cmd, PageSpan span) {
  host_pages_written_ += span.count;
  const std::uint32_t page_sectors = hal_.geometry().page_bytes / kSectorBytes;
  const std::uint64_t end = cmd.lba + cmd.sectors;
  OpRef dma = ops_.host_dma(OpKind::HostDmaIn, cmd.id, cmd.sectors * kSectorBytes);
  OpRef done = ops_.join();
  const std::uint32_t id = cmd.id, pages = span.count, scratch = take_scratch(span.count);
  auto complete = [this, id](const HalResult&) {
    hal_.charge_cycles(config_.costs.host_complete, FirmwareWork::HostComplete);
    hal_.complete_host_command(id, ops_.attribution(), HostStatus::Success);
  };
  const HostRequestInfo request{cmd.issuer, cmd.sectors, span.first};
  std::vector<Token>& old = *scratch_[scratch];
  for (std::uint32_t i = 0; i < span.count; ++i) {
    hal_.charge_cycles(config_.costs.host_page, FirmwareWork::HostPage);
    const Lpn lpn = span.first + i;
    const std::uint64_t page_lba = std::uint64_t(lpn) * page_sectors;
    const bool partial = cmd.lba > page_lba || end < page_lba + page_sectors;
    OpRef ready = dma;
    if (partial) {  // read-modify-write: the program also waits for the old page
      ++partial_pages_;
      OpRef read_old = ftl_->read(PageRead{lpn, &old[i], request, true});
      if (read_old.valid()) {
        ready = ops_.join();
        ops_.depend(dma, ready);
        ops_.depend(read_old, ready);
        ops_.submit(ready);
      }
    }
    const WriteOutcome w = ftl_->write(PageWrite{lpn, cmd.write_tokens[i], partial ? &old[i] : nullptr, ready, request});
    if (checkpointer_) checkpointer_->on_pages_written(1);
    ops_.depend(w.on_flash, done);
  }
  // Without a write buffer a completed write is durable: once its word lines are closed.
  ops_.on_complete(done, [this, pages, scratch, complete](const HalResult& r) {
    when_word_lines_closed([complete, r] { complete(r); });
    scratch_free_.push_back(scratch);
    release(pages);
  });
  ops_.submit(dma);
  ops_.submit(done);
}

void Firmware::handle_read(const HostCommand& cmd, PageSpan span) {
  OpRef dma = ops_.host_dma(OpKind::HostDmaOut, cmd.id, cmd.sectors * kSectorBytes);
  const std::uint32_t id = cmd.id, pages = span.count;
  const Token* tokens = cmd.read_tokens;
  ops_.on_complete(dma, [this, id, pages, tokens](const HalResult&) {
    hal_.charge_cycles(config_.costs.host_complete, FirmwareWork::HostComplete);
    // A page the ECC could not correct (or a copy of one) fails the whole command.
    const bool lost = std::find(tokens, tokens + pages, kUncorrectableToken) != tokens + pages;
    hal_.complete_host_command(id, ops_.attribution(), lost ? HostStatus::UnrecoveredReadError : HostStatus::Success);
    release(pages);
  });
  const HostRequestInfo request{cmd.issuer, cmd.sectors, span.first};
  for (std::uint32_t i = 0; i < span.count; ++i) {
    hal_.charge_cycles(config_.costs.host_page, FirmwareWork::HostPage);
    const Lpn lpn = span.first + i;
    if (wbuf_) {  // the buffer's copy is the newest (also while bypassed, should it hold any)
      const std::uint32_t e = find_buffered(lpn);
      if (e != WriteBuffer::kNoEntry) {
        cmd.read_tokens[i] = wbuf_->entry(e).value();
        wbuf_->read(e);
        ++*read_hits_;
        continue;
      }
    }
    OpRef r = ftl_->read(PageRead{lpn, &cmd.read_tokens[i], request});
    ops_.depend(r, dma);
  }
  ops_.submit(dma);
}

void Firmware::handle_flush(const HostCommand& cmd) {
  ++*flushes_;
  // No volatile cache: without a write buffer every completed write is on the flash already;
  // with capacitors the buffer's pages reach the flash at a power loss (an NVMe drive with
  // power-loss protection reports no volatile write cache, and a flush costs nothing).
  if (!volatile_cache()) {
    hal_.charge_cycles(config_.costs.host_complete, FirmwareWork::HostComplete);
    hal_.complete_host_command(cmd.id, cmd.trail, HostStatus::Success);
    return;
  }
  pending_flushes_.push_back({wbuf_->close_epoch(), cmd.id, cmd.trail});
  dirty_scratch_.clear();
  wbuf_->dirty_in_order(dirty_scratch_);
  for (const std::uint32_t e : dirty_scratch_) flush_queue_.push_back({e, wbuf_->epoch_of(e)});
  complete_settled_flushes();
  if (!flush_queue_.empty()) evict_as_needed();
}

void Firmware::handle_trim(const HostCommand& cmd) {
  OpScheduler::Attribution on_behalf(ops_, cmd.trail);
  ++*trims_;
  OpRef range = ops_.host_dma(OpKind::HostDmaIn, cmd.id, kTrimRangeBytes);
  OpRef done = ops_.join();
  ops_.depend(range, done);
  const std::uint32_t id = cmd.id;
  ops_.on_complete(done, [this, id](const HalResult&) {
    hal_.charge_cycles(config_.costs.host_complete, FirmwareWork::HostComplete);
    hal_.complete_host_command(id, ops_.attribution(), HostStatus::Success);
  });
  const PageSpan whole = whole_page_span(cmd.lba, cmd.sectors, hal_.geometry().page_bytes);
  *trimmed_pages_ += whole.count;
  bool freed = false;
  for (std::uint32_t i = 0; i < whole.count; ++i) {
    hal_.charge_cycles(config_.costs.host_page, FirmwareWork::HostPage);
    const Lpn lpn = whole.first + i;
    if (wbuf_) {
      const std::uint32_t e = find_buffered(lpn);
      if (e != WriteBuffer::kNoEntry) {
        touch_entry(e, Access::Write);
        if (wbuf_->deallocate(e)) {
          ++*trim_buffer_drops_;
          freed = true;
        }
      }
    }
    ops_.depend(ftl_->trim(lpn), done);
  }
  if (freed) buffer_room_freed();
  ops_.submit(range);
  ops_.submit(done);
}

void Firmware::complete_settled_flushes() {
  while (!pending_flushes_.empty() && wbuf_->settled(pending_flushes_.front().epoch)) {
    PendingFlush f = pending_flushes_.front();
    pending_flushes_.pop_front();
    when_word_lines_closed([this, f]() mutable {
      f.trail.advance(Stage::FlushWait, hal_.now_ticks());
      hal_.charge_cycles(config_.costs.host_complete, FirmwareWork::HostComplete);
      hal_.complete_host_command(f.id, f.trail, HostStatus::Success);
    });
  }
}

void Firmware::when_word_lines_closed(std::function<void()> durable) {
  if (!closes_word_lines()) {
    durable();
    return;
  }
  // The host's data since the last durability point is in these blocks' open word lines (GC
  // copies wait in theirs on their own: OpScheduler::watch_open_word_lines).
  for (const BlockId block : ops_.take_host_written_blocks()) ftl_->close_word_lines(config_.word_line_pages, block);
  OpRef closed = ops_.programs_barrier();
  ops_.on_complete(closed, [durable = std::move(durable)](const HalResult&) { durable(); });
  ops_.submit(closed);
}

void Firmware::close_word_line_of(BlockId block) {
  // While preconditioning nothing needs closing; a block written no further (a grown bad block)
  // never closes its word line: its copies let their sources go.
  if (!closes_word_lines() || (ftl_->close_word_lines(config_.word_line_pages, block) == 0 && !ops_.word_line_closing(block)))
    ops_.release_word_line_holds(block);
}

// ---- the write buffer ---------------------------------------------------------------------------

bool Firmware::has_room(PageSpan span) const {
  // At most one entry per page: no lookups while that many are free (most program completions).
  const std::uint32_t free = wbuf_->free_entries();
  return free >= span.count || free >= entries_needed(span);
}

std::uint32_t Firmware::entries_needed(PageSpan span) const {
  std::uint32_t n = 0;
  for (std::uint32_t i = 0; i < span.count; ++i) {
    const std::uint32_t e = wbuf_->find(span.first + i);
    n += e == WriteBuffer::kNoEntry || wbuf_->entry(e).flushing;  // a dirty page is absorbed in place
  }
  return n;
}

void Firmware::buffer_write(const HostCommand& cmd, PageSpan span) {
  host_pages_written_ += span.count;
  const std::uint32_t page_sectors = hal_.geometry().page_bytes / kSectorBytes;
  const std::uint64_t end = cmd.lba + cmd.sectors;
  OpRef dma = ops_.host_dma(OpKind::HostDmaIn, cmd.id, cmd.sectors * kSectorBytes);
  OpRef acked = ops_.join();  // the data is in the buffer, merged where partial
  ops_.depend(dma, acked);
  const HostRequestInfo request{cmd.issuer, cmd.sectors, span.first};
  fua_entries_.clear();
  const bool fua = cmd.fua && volatile_cache();  // with capacitors a buffered write is durable already
  for (std::uint32_t i = 0; i < span.count; ++i) {
    hal_.charge_cycles(config_.costs.host_page, FirmwareWork::HostPage);
    const Lpn lpn = span.first + i;
    const std::uint64_t page_lba = std::uint64_t(lpn) * page_sectors;
    const bool partial = cmd.lba > page_lba || end < page_lba + page_sectors;
    const Token token = cmd.write_tokens[i];
    partial_pages_ += partial;
    hal_.charge_cycles(config_.costs.buffer_insert, FirmwareWork::BufferInsert);
    const std::uint32_t had = find_buffered(lpn);
    if (had != WriteBuffer::kNoEntry && !wbuf_->entry(had).flushing) {  // absorbed in place
      WriteBuffer::Entry& x = wbuf_->entry(had);
      x.token = partial ? merge_tokens(x.value(), token) : token;
      x.merge = false;
      x.ready = dma;
      x.request = request;
      wbuf_->written(had);
      ++*absorbed_;
      if (fua) fua_entries_.push_back(had);
      continue;
    }
    const std::uint32_t e = wbuf_->insert(lpn);
    if (fua) fua_entries_.push_back(e);
    touch_entry(e, Access::Write);
    WriteBuffer::Entry& x = wbuf_->entry(e);
    x.ready = dma;
    x.request = request;
    x.token = token;
    if (!partial) continue;
    if (had != WriteBuffer::kNoEntry) {  // the old data is still in the buffer, its program in flight
      x.token = merge_tokens(wbuf_->entry(had).value(), token);
      continue;
    }
    x.merge = true;  // read-modify-write: the old page from the flash
    OpRef read_old = ftl_->read(PageRead{lpn, &x.old, request, true});
    if (read_old.valid()) {
      OpRef ready = ops_.join();
      ops_.depend(dma, ready);
      ops_.depend(read_old, ready);
      ops_.submit(ready);
      x.ready = ready;
      ops_.depend(read_old, acked);
    }
  }
  // FUA: its own pages go to the FTL now, and it completes when they are programmed.
  for (const std::uint32_t e : fua_entries_) {
    wbuf_->take(e);
    program_entry(e, acked);
  }
  *evicted_ += fua_entries_.size();
  if (!fua_entries_.empty()) note_occupancy();
  const std::uint32_t id = cmd.id, pages = span.count;
  const bool durable = !fua_entries_.empty();  // a FUA write completes once its word lines are closed
  ops_.on_complete(acked, [this, id, pages, durable](const HalResult&) {
    const auto complete = [this, id] {
      hal_.charge_cycles(config_.costs.host_complete, FirmwareWork::HostComplete);
      hal_.complete_host_command(id, ops_.attribution(), HostStatus::Success);
    };
    if (durable)
      when_word_lines_closed(complete);
    else
      complete();
    release(pages);
  });
  ops_.submit(dma);
  ops_.submit(acked);
  note_occupancy();
  evict_as_needed();
}

bool Firmware::may_evict() const { return max_flushing_ == 0 || wbuf_->flushing() < max_flushing_; }

void Firmware::evict_as_needed() {
  // The pages a flush waits for first; an entry evicted meanwhile, or freed and reused, is skipped.
  bool flushed = false;
  while (!flush_queue_.empty() && may_evict()) {
    const FlushTarget t = flush_queue_.front();
    flush_queue_.pop_front();
    const WriteBuffer::Entry& x = wbuf_->entry(t.entry);
    if (x.lpn == kNoLpn || x.flushing || wbuf_->epoch_of(t.entry) != t.epoch) continue;
    wbuf_->take(t.entry);
    program_entry(t.entry);
    ++*evicted_;
    *flushing_high_water_ = std::max<std::uint64_t>(*flushing_high_water_, wbuf_->flushing());
    flushed = true;
  }
  if (flushed) note_occupancy();
  while (wbuf_->dirty() > high_water_pages_ && may_evict() && evict_next()) {
  }
  if (wbuf_waiting_.empty()) return;
  // A write needs at most one entry per page: with that many free or on their way, no eviction
  // (and no page-by-page count, which costs a lookup per page on every program completion).
  const PageSpan waiting = wbuf_waiting_.front().second;
  if (wbuf_->free_entries() + wbuf_->flushing() >= waiting.count) return;
  const std::uint32_t need = entries_needed(waiting);
  while (wbuf_->free_entries() + wbuf_->flushing() < need && may_evict() && evict_next()) {
  }
}

bool Firmware::evict_next() {
  victims_.clear();
  // At most what the flush limit leaves (block_lru hands a block over in chunks; 0: no limit).
  const std::uint32_t room = max_flushing_ == 0 ? 0 : max_flushing_ - std::min(max_flushing_, wbuf_->flushing());
  if (!wbuf_->evict(victims_, room)) return false;
  for (const std::uint32_t e : victims_) program_entry(e);
  *evicted_ += victims_.size();
  *flushing_high_water_ = std::max<std::uint64_t>(*flushing_high_water_, wbuf_->flushing());
  note_occupancy();
  return true;
}

void Firmware::program_entry(std::uint32_t e, OpRef also) {
  hal_.charge_cycles(config_.costs.buffer_evict, FirmwareWork::BufferEvict);
  touch_buffer_entry(e, Access::Write);  // marked flushing
  WriteBuffer::Entry& x = wbuf_->entry(e);
  const WriteOutcome w = ftl_->write(PageWrite{x.lpn, x.token, x.merge ? &x.old : nullptr, x.ready, x.request});
  if (checkpointer_) checkpointer_->on_pages_written(1);
  OpRef programmed = ops_.join();
  ops_.depend(w.on_flash, programmed);
  ops_.on_complete(programmed, [this, e](const HalResult&) { entry_released(e); });
  if (also.valid()) ops_.depend(programmed, also);
  ops_.submit(programmed);
}

void Firmware::entry_released(std::uint32_t e) {
  touch_entry(e, Access::Write);
  wbuf_->release(e);
  buffer_room_freed();
}

void Firmware::buffer_room_freed() {
  note_occupancy();
  complete_settled_flushes();
  if (power_lost_) {  // the host is gone: its waiting writes never get their data in
    if (!plp_dump_) evict_all_for_power_loss();  // a page rewritten while its old copy was programming
    return;
  }
  while (!wbuf_waiting_.empty()) {
    const PageSpan span = wbuf_waiting_.front().second;
    if (!has_room(span)) break;
    HostCommand cmd = wbuf_waiting_.front().first;
    wbuf_waiting_.pop_front();
    cmd.trail.advance(Stage::BufferWait, hal_.now_ticks());
    OpScheduler::Attribution on_behalf(ops_, cmd.trail);
    buffer_write(cmd, span);
  }
  evict_as_needed();
}

std::uint32_t Firmware::find_buffered(Lpn lpn) {
  const LpnIndex& index = wbuf_->index();
  hal_.touch_record(wbuf_index_, index.head_offset(lpn), 4, Access::Read);
  const std::uint32_t e = wbuf_->find(lpn);
  if (e != WriteBuffer::kNoEntry) {
    hal_.touch_record(wbuf_index_, index.slot_offset(e), LpnIndex::kSlotBytes, Access::Read);
    touch_buffer_entry(e, Access::Read);
  }
  return e;
}

// An entry entering or leaving the index: the entry, its index slot and its chain's head.
void Firmware::touch_entry(std::uint32_t e, Access access) {
  const LpnIndex& index = wbuf_->index();
  touch_buffer_entry(e, access);
  hal_.touch_record(wbuf_index_, index.slot_offset(e), LpnIndex::kSlotBytes, access);
  hal_.touch_record(wbuf_index_, index.head_offset(wbuf_->entry(e).lpn), 4, access);
}

void Firmware::touch_buffer_entry(std::uint32_t e, Access access) {
  hal_.touch_record(wbuf_entries_, std::uint64_t(e) * WriteBuffer::kEntryBytes, WriteBuffer::kEntryBytes, access);
}

void Firmware::note_occupancy() {
  const std::uint32_t used = wbuf_->capacity() - wbuf_->free_entries();
  const std::uint64_t now = hal_.now_ticks();
  occupancy_integral_ += *occupancy_gauge_ * as_double(now - std::min(now, occupancy_since_));
  occupancy_since_ = now;
  *occupancy_gauge_ = used;
  if (now > 0) *mean_occupancy_gauge_ = occupancy_integral_ / as_double(now);
  *wbuf_high_water_ = std::max<std::uint64_t>(*wbuf_high_water_, used);
  hal_.note_state(occupancy_trace_, used);
  hal_.note_state(dirty_trace_, wbuf_->dirty());
}

}  // namespace ssd::fw
