#include "fw/recovery/map_checkpointer.h"

#include <algorithm>

namespace ssd::fw {

namespace {
const char* const kTooLarge =
    "the map checkpoint's two slots do not fit: set firmware.checkpoint_interval_mib to 0 "
    "(no checkpoints) or use a larger drive";
}  // namespace

MapCheckpointer::MapCheckpointer(OpScheduler& ops, MetricSet& ftl_metrics, const FlashGeometry& geometry,
                                 std::uint64_t interval_pages, std::uint64_t checkpoint_pages, std::vector<bool>& taken)
    : ops_(ops),
      geometry_(geometry),
      interval_(interval_pages),
      pages_(checkpoint_pages),
      // Each slot on as many planes as its pages fill, the second on the planes after the first's.
      slots_{ReservedArea(geometry, checkpoint_pages, &taken, kTooLarge, ReservedArea::Spread::AsNeeded, 0),
             ReservedArea(geometry, checkpoint_pages, &taken, kTooLarge, ReservedArea::Spread::AsNeeded,
                          static_cast<std::uint32_t>((checkpoint_pages + geometry.pages_per_block - 1) /
                                                     geometry.pages_per_block))},
      written_(ftl_metrics.counter("checkpoints_written")),
      pages_programmed_(ftl_metrics.counter("checkpoint_pages_programmed")),
      erases_(ftl_metrics.counter("checkpoint_erases")),
      abandoned_(ftl_metrics.counter("checkpoints_abandoned")),
      flash_programs_(ftl_metrics.counter("flash_pages_programmed")),
      flash_erases_(ftl_metrics.counter("erases")) {}

std::vector<BlockId> MapCheckpointer::blocks() const {
  std::vector<BlockId> all = slots_[0].blocks();
  all.insert(all.end(), slots_[1].blocks().begin(), slots_[1].blocks().end());
  return all;
}

void MapCheckpointer::set_medium(CheckpointMedium* medium) {
  medium_ = medium;
  if (!medium_) return;
  for (const auto& [id, pages] : medium_->candidates()) {
    next_id_ = std::max(next_id_, id + 1);
    std::vector<BlockId>& programmed = programmed_[id % 2];
    for (const Ppn ppn : pages)
      if (std::find(programmed.begin(), programmed.end(), geometry_.block_of(ppn)) == programmed.end())
        programmed.push_back(geometry_.block_of(ppn));
  }
}

void MapCheckpointer::on_pages_written(std::uint64_t pages) {
  since_ += pages;
  if (since_ >= interval_ && !writing_ && !stopped_ && medium_) start();
}

bool MapCheckpointer::checkpoint_now() {
  if (writing_ || stopped_ || !medium_) return false;
  start();
  return !stopped_;  // started (its operations may have completed already on an untimed HAL)
}

void MapCheckpointer::start() {
  // The firmware's own work, in the background (no host command waits for it), marked as mapping.
  OpScheduler::Background background(ops_);
  OpScheduler::Purpose mapping(ops_, OpOrigin::Mapping);
  OpScheduler::Attribution nobody(ops_, LatencyTrail{});
  since_ = 0;
  const std::uint32_t id = next_id_++;
  const unsigned s = id % 2;
  if (slots_[s].capacity_pages() < pages_) {
    ++abandoned_;
    stopped_ = true;
    return;
  }
  writing_ = true;
  slots_[s].restart();
  if (programmed_[s].empty()) {
    program(id);
    return;
  }
  // Erase what the slot's last checkpoint programmed, then program: a block whose erase fails is
  // retired, not programmed.
  std::vector<BlockId> blocks;
  blocks.swap(programmed_[s]);
  for (BlockId b : blocks) {
    ++pending_;
    ++erases_;
    ++flash_erases_;
    OpRef erase = ops_.erase(b);
    ops_.on_complete(erase, [this, id, b](const HalResult& r) {
      if (r.failed) slots_[id % 2].retire(b);
      if (--pending_ == 0) program(id);
    });
    ops_.submit(erase);
  }
}

void MapCheckpointer::program(std::uint32_t id) {
  OpScheduler::Background background(ops_);
  OpScheduler::Purpose mapping(ops_, OpOrigin::Mapping);
  ReservedArea& slot = slots_[id % 2];
  if (slot.capacity_pages() < pages_) {  // a failed erase retired one block too many
    ++abandoned_;
    writing_ = false;
    stopped_ = true;
    return;
  }
  std::vector<Ppn> pages(pages_);
  for (Ppn& ppn : pages) {
    ppn = slot.next_page();
    const BlockId b = geometry_.block_of(ppn);
    if (std::find(programmed_[id % 2].begin(), programmed_[id % 2].end(), b) == programmed_[id % 2].end())
      programmed_[id % 2].push_back(b);
  }
  medium_->record(id, pages);
  pending_ = static_cast<std::uint32_t>(pages.size());
  for (const Ppn ppn : pages) {
    ++pages_programmed_;
    ++flash_programs_;
    OpRef program = ops_.program(ppn, kCheckpointLpn, Token(id));
    ops_.on_complete(program, [this, &slot, ppn](const HalResult& r) {
      if (r.failed) slot.retire(geometry_.block_of(ppn));  // (its page still reads)
      if (--pending_ > 0) return;
      ++written_;
      writing_ = false;
    });
    ops_.submit(program);
  }
}

}  // namespace ssd::fw
