#include "fw/runtime/firmware.h"

#include <stdexcept>

#include "fw/ftl/registry.h"

namespace ssd::fw {

Firmware::Firmware(Hal& hal, FirmwareConfig config, MetricsRegistry& metrics)
    : hal_(hal),
      config_(std::move(config)),
      metrics_(metrics.set("firmware")),
      ops_(hal, config_.costs, metrics.set("firmware.ops"), config_.buffer_slots),
      commands_(metrics_.counter("host_commands")),
      partial_pages_(metrics_.counter("partial_page_writes")) {
  const FtlInfo* info = find_ftl(config_.ftl);
  if (!info) throw FtlOptionError("unknown FTL '" + config_.ftl + "' (known: " + ftl_names() + ")");
  FtlContext ctx{hal_, ops_, config_.costs, metrics.set("ftl"), config_.ftl_options};
  ftl_ = info->make(ctx);
}

std::vector<Token>& Firmware::scratch(std::uint32_t id, std::uint32_t pages) {
  if (id >= scratch_.size()) scratch_.resize(id + 1);
  scratch_[id].assign(pages, kUnwrittenToken);
  return scratch_[id];
}

void Firmware::on_host_command(const HostCommand& cmd) {
  ++commands_;
  hal_.charge_cycles(config_.costs.host_command);
  if (cmd.sectors == 0 || cmd.lba + cmd.sectors > capacity_sectors())
    throw std::invalid_argument("host command " + std::to_string(cmd.id) + " addresses sectors [" +
                                std::to_string(cmd.lba) + ", " + std::to_string(cmd.lba + cmd.sectors) +
                                ") outside the drive's " + std::to_string(capacity_sectors()) + " sectors");
  PageSpan span = page_span(cmd.lba, cmd.sectors, hal_.geometry().page_bytes);
  if (cmd.write)
    handle_write(cmd, span);
  else
    handle_read(cmd, span);
}

void Firmware::handle_write(const HostCommand& cmd, PageSpan span) {
  const std::uint32_t page_sectors = hal_.geometry().page_bytes / kSectorBytes;
  const std::uint64_t end = cmd.lba + cmd.sectors;
  OpRef dma = ops_.host_dma(OpKind::HostDmaIn, cmd.id, cmd.sectors * kSectorBytes);
  OpRef done = ops_.join();
  const std::uint32_t id = cmd.id;
  ops_.on_complete(done, [this, id](const HalResult&) {
    hal_.charge_cycles(config_.costs.host_complete);
    hal_.complete_host_command(id);
  });
  std::vector<Token>& old = scratch(cmd.id, span.count);
  const HostRequestInfo request{cmd.issuer, cmd.sectors};
  for (std::uint32_t i = 0; i < span.count; ++i) {
    hal_.charge_cycles(config_.costs.host_page);
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
    OpRef program = ftl_->write(PageWrite{lpn, cmd.write_tokens[i], partial ? &old[i] : nullptr, ready, request});
    ops_.depend(program, done);
  }
  ops_.submit(dma);
  ops_.submit(done);
}

void Firmware::handle_read(const HostCommand& cmd, PageSpan span) {
  OpRef dma = ops_.host_dma(OpKind::HostDmaOut, cmd.id, cmd.sectors * kSectorBytes);
  const std::uint32_t id = cmd.id;
  ops_.on_complete(dma, [this, id](const HalResult&) {
    hal_.charge_cycles(config_.costs.host_complete);
    hal_.complete_host_command(id);
  });
  const HostRequestInfo request{cmd.issuer, cmd.sectors};
  for (std::uint32_t i = 0; i < span.count; ++i) {
    hal_.charge_cycles(config_.costs.host_page);
    OpRef r = ftl_->read(PageRead{span.first + i, &cmd.read_tokens[i], request});
    ops_.depend(r, dma);
  }
  ops_.submit(dma);
}

}  // namespace ssd::fw
