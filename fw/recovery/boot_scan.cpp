#include "fw/recovery/boot_scan.h"

#include <algorithm>
#include <utility>

namespace ssd::fw {

BootScan::BootScan(Hal& hal, OpScheduler& ops, const FirmwareCosts& costs, OobRecovery& recovery,
                   bool scan_whole_blocks)
    : hal_(hal),
      ops_(ops),
      costs_(costs),
      recovery_(recovery),
      whole_blocks_(scan_whole_blocks),
      geo_(hal.geometry()),
      bad_(geo_.total_blocks(), false) {
  for (BlockId b : hal.factory_bad_blocks()) bad_[b] = true;
}

void BootScan::start(std::function<void()> done) {
  done_ = std::move(done);
  start_ = hal_.now_ticks();
  planes_.resize(geo_.total_planes());
  busy_ = static_cast<std::uint32_t>(planes_.size());
  for (std::uint32_t k = 0; k < planes_.size(); ++k) planes_[k].plane = geo_.channel_first_plane(k);
  for (PlaneScan& p : planes_) next(p);
}

void BootScan::next(PlaneScan& p) {
  while (p.block < geo_.blocks_per_plane && bad_[geo_.block_at(p.plane, p.block)]) ++p.block;
  if (p.block == geo_.blocks_per_plane) {
    p.done = true;
    finish_one();
    return;
  }
  if (p.page == 0) ++counts_.blocks_scanned;
  const Ppn ppn = geo_.first_page(geo_.block_at(p.plane, p.block)) + p.page;
  OpRef read = ops_.read_oob(ppn);
  ops_.on_complete(read, [this, &p, ppn](const HalResult& r) { read_done(p, ppn, r); });
  ops_.submit(read);
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
