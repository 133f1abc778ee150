#include "fw/recovery/boot_scan.h"

#include <algorithm>
#include <utility>

namespace ssd::fw {

BootScan::BootScan(Hal& hal, OpScheduler& ops, const FirmwareCosts& costs, OobRecovery& recovery,
                   bool scan_whole_blocks, const BootCheckpoints& checkpoints)
    : hal_(hal),
      ops_(ops),
      costs_(costs),
      recovery_(recovery),
      whole_blocks_(scan_whole_blocks),
      geo_(hal.geometry()),
      skip_(geo_.total_blocks(), false),
      written_(geo_.total_blocks(), false),
      medium_(checkpoints.medium) {
  for (BlockId b : hal.factory_bad_blocks()) skip_[b] = true;
  for (BlockId b : checkpoints.slot_blocks) skip_[b] = true;
}

void BootScan::start(std::function<void()> done) {
  done_ = std::move(done);
  start_ = hal_.now_ticks();
  if (medium_) candidates_ = medium_->candidates();
  if (candidates_.empty())
    scan_planes();
  else
    read_checkpoint(0);
}

void BootScan::read_checkpoint(std::size_t candidate) {
  const auto& [id, pages] = candidates_[candidate];
  checkpoint_pending_ = static_cast<std::uint32_t>(pages.size());
  checkpoint_whole_ = true;
  for (const Ppn ppn : pages) {
    OpRef read = ops_.read(ppn);
    ops_.on_complete(read, [this, candidate, id = id](const HalResult& r) {
      ++counts_.pages_read;
      ++counts_.checkpoint_pages_read;
      checkpoint_whole_ &= r.lpn == kCheckpointLpn && r.token == Token(id);
      if (--checkpoint_pending_ > 0) return;
      if (checkpoint_whole_) {
        counts_.checkpoint_used = id;
      } else {
        ++counts_.checkpoints_rejected;
        if (candidate + 1 < candidates_.size()) return read_checkpoint(candidate + 1);
      }
      counts_.checkpoint_ticks = hal_.now_ticks() - start_;
      scan_planes();
    });
    ops_.submit(read);
  }
}

void BootScan::scan_planes() {
  planes_.resize(geo_.total_planes());
  busy_ = static_cast<std::uint32_t>(planes_.size());
  for (std::uint32_t k = 0; k < planes_.size(); ++k) planes_[k].plane = geo_.channel_first_plane(k);
  for (PlaneScan& p : planes_) next(p);
}

void BootScan::next(PlaneScan& p) {
  while (p.block < geo_.blocks_per_plane && skip_[geo_.block_at(p.plane, p.block)]) ++p.block;
  if (p.block == geo_.blocks_per_plane) {
    p.done = true;
    finish_one();
    return;
  }
  const BlockId block = geo_.block_at(p.plane, p.block);
  if (p.page == 0) ++counts_.blocks_scanned;
  const Ppn ppn = geo_.first_page(block) + p.page;
  OpRef read = ops_.read_oob(ppn);
  if (p.page == 0 && counts_.checkpoint_used && medium_->saved(counts_.checkpoint_used, block))
    ops_.on_complete(read, [this, &p, ppn](const HalResult& r) { saved_block_read(p, ppn, r); });
  else
    ops_.on_complete(read, [this, &p, ppn](const HalResult& r) { read_done(p, ppn, r); });
  ops_.submit(read);
}

void BootScan::saved_block_read(PlaneScan& p, Ppn ppn, const HalResult& r) {
  const BlockId block = geo_.block_of(ppn);
  // Erased since (a GC's), or its erase cut short (nothing reads): scanned as any block.
  if (medium_->erased_since(counts_.checkpoint_used, block) || r.lpn == kUnreadableLpn || r.lpn == kNoLpn)
    return read_done(p, ppn, r);
  ++counts_.pages_read;
  ++counts_.blocks_from_checkpoint;
  medium_->for_each_saved_page(counts_.checkpoint_used, block,
                               [this](Ppn page, Lpn lpn, Token token, std::uint32_t version) {
                                 ++counts_.pages_from_checkpoint;
                                 recovery_.visit(page, lpn, token, version);
                               });
  p.programmed = p.readable = true;
  end_block(p);
}

void BootScan::read_done(PlaneScan& p, Ppn ppn, const HalResult& r) {
  ++counts_.pages_read;
  const bool erased = r.lpn == kNoLpn;
  if (!erased) {
    hal_.charge_cycles(costs_.map_update, FirmwareWork::MapUpdate);
    recovery_.visit(ppn, r.lpn, r.token, r.version);
    p.programmed = true;
    p.readable |= r.lpn != kUnreadableLpn;
  }
  ++p.page;
  if ((erased && !whole_blocks_) || p.page == geo_.pages_per_block)
    end_block(p);
  else
    next(p);
}

void BootScan::end_block(PlaneScan& p) {
  if (p.programmed && p.readable) written_[geo_.block_at(p.plane, p.block)] = true;
  if (!p.programmed) {
    ++counts_.blocks_erased;
  } else if (!p.readable) {  // nothing to keep, and nothing may be programmed before an erase
    ++counts_.blocks_erased_again;
    ++busy_;
    OpRef erase = ops_.erase(geo_.block_at(p.plane, p.block));
    ops_.on_complete(erase, [this](const HalResult&) { finish_one(); });
    ops_.submit(erase);
  }
  ++p.block;
  p.page = 0;
  p.programmed = p.readable = false;
  next(p);
}

void BootScan::finish_one() {
  const std::uint64_t now = hal_.now_ticks();
  if (!scanned_ && std::all_of(planes_.begin(), planes_.end(), [](const PlaneScan& s) { return s.done; })) {
    scanned_ = true;
    counts_.scan_ticks = now - start_;
  }
  if (--busy_ > 0) return;
  counts_.total_ticks = now - start_;
  if (done_) done_();
}

}  // namespace ssd::fw
