#include "fw/firmware/firmware.h"

#include <algorithm>
#include <stdexcept>

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
      buffer_high_water_(metrics_.counter("buffer_pages_high_water")) {
  const FtlInfo* info = find_ftl(config_.ftl);
  if (!info) throw FtlOptionError("unknown FTL '" + config_.ftl + "' (known: " + ftl_names() + ")");
  FtlContext ctx{hal_, ops_, config_.costs, metrics.set("ftl"), config_.ftl_options};
  ftl_ = info->make(ctx);
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

void Firmware::on_host_command(const HostCommand& cmd) {
  ++commands_;
  hal_.charge_cycles(config_.costs.host_command, FirmwareWork::HostCommand);
  if (cmd.sectors == 0 || cmd.lba + cmd.sectors > capacity_sectors())
    throw std::invalid_argument("host command " + std::to_string(cmd.id) + " addresses sectors [" +
                                std::to_string(cmd.lba) + ", " + std::to_string(cmd.lba + cmd.sectors) +
                                ") outside the drive's " + std::to_string(capacity_sectors()) + " sectors");
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
  if (cmd.write)
    handle_write(cmd, span);
  else
    handle_read(cmd, span);
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
  const std::uint32_t page_sectors = hal_.geometry().page_bytes / kSectorBytes;
  const std::uint64_t end = cmd.lba + cmd.sectors;
  OpRef dma = ops_.host_dma(OpKind::HostDmaIn, cmd.id, cmd.sectors * kSectorBytes);
  OpRef done = ops_.join();
  const std::uint32_t id = cmd.id, pages = span.count, scratch = take_scratch(span.count);
  auto complete = [this, id](const HalResult&) {
    hal_.charge_cycles(config_.costs.host_complete, FirmwareWork::HostComplete);
    hal_.complete_host_command(id, ops_.attribution());
  };
  const HostRequestInfo request{cmd.issuer, cmd.sectors, span.first};
  std::vector<Token>& old = *scratch_[scratch];
  bool all_placed = true;
  for (std::uint32_t i = 0; i < span.count; ++i) {
    hal_.charge_cycles(config_.costs.host_page, FirmwareWork::HostPage);
    const Lpn lpn = span.first + i;
    const std::uint64_t page_lba = std::uint64_t(lpn) * page_sectors;
    const bool partial = cmd.lba > page_lba || end < page_lba + page_sectors;
    OpRef ready = dma;
    if (partial) {  // read-modify-write: the program also waits for the old page
      ++partial_pages_;
      OpRef read_old = ftl_->read(PageRead{lpn, &old[i], request});
      if (read_old.valid()) {
        ready = ops_.join();
        ops_.depend(dma, ready);
        ops_.depend(read_old, ready);
        ops_.submit(ready);
      }
    }
    const WriteOutcome w = ftl_->write(PageWrite{lpn, cmd.write_tokens[i], partial ? &old[i] : nullptr, ready, request});
    ops_.depend(w.on_flash, done);
    all_placed = all_placed && w.placed;
  }
  // With the write cache a write is acknowledged from the buffer, but only if every page is
  // already mapped: a deferred page would leave later reads (and read-modify-writes) of it
  // seeing the old data, so such a write is acknowledged once on flash, like write-through.
  if (config_.write_cache && all_placed) {  // the pages stay taken until programmed
    ops_.on_complete(dma, complete);
    ops_.on_complete(done, [this, pages, scratch](const HalResult&) {
      scratch_free_.push_back(scratch);
      release(pages);
    });
  } else {
    ops_.on_complete(done, [this, pages, scratch, complete](const HalResult& r) {
      complete(r);
      scratch_free_.push_back(scratch);
      release(pages);
    });
  }
  ops_.submit(dma);
  ops_.submit(done);
}

void Firmware::handle_read(const HostCommand& cmd, PageSpan span) {
  OpRef dma = ops_.host_dma(OpKind::HostDmaOut, cmd.id, cmd.sectors * kSectorBytes);
  const std::uint32_t id = cmd.id, pages = span.count;
  ops_.on_complete(dma, [this, id, pages](const HalResult&) {
    hal_.charge_cycles(config_.costs.host_complete, FirmwareWork::HostComplete);
    hal_.complete_host_command(id, ops_.attribution());
    release(pages);
  });
  const HostRequestInfo request{cmd.issuer, cmd.sectors, span.first};
  for (std::uint32_t i = 0; i < span.count; ++i) {
    hal_.charge_cycles(config_.costs.host_page, FirmwareWork::HostPage);
    OpRef r = ftl_->read(PageRead{span.first + i, &cmd.read_tokens[i], request});
    ops_.depend(r, dma);
  }
  ops_.submit(dma);
}

}  // namespace ssd::fw
