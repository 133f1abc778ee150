// Firmware::mount: the firmware that takes over after a power cut and its boot.
//
// Order: the bad-block table and erase counts first (they decide which blocks the FTL has), the
// sequence numbers after the flash's highest. A power-loss dump's pages (the newest copies of
// what the write buffer held, fw/firmware/plp_dump.h) are read back into the buffer as dirty
// pages, as the DRAM held them before the cut, and the dump's blocks are erased once read, ready
// for the next power loss. Then the FTL's own mount. The mount is over once the FTL has issued
// all its mount's work (a hybrid's merges run one after another) and every read, program and
// erase of it is done.
#include <memory>
#include <stdexcept>

#include "fw/firmware/firmware.h"
#include "fw/recovery/mount_image.h"

namespace ssd::fw {

void Firmware::mount(const MountImage& image, std::function<void(const MountCounts&)> done) {
  adopt_aged_drive(image.erase_count, image.bad_blocks);
  ops_.number_versions_after(image.map.highest_version());
  auto counts = std::make_shared<MountCounts>();
  OpRef over = ops_.join();
  if (plp_dump_ && wbuf_) {
    OpRef restored = ops_.join();
    const FlashGeometry& g = hal_.geometry();
    for (Lpn lpn = 0; lpn < ftl_->logical_pages(); ++lpn) {
      const Ppn ppn = image.map.ppn_of(lpn);
      if (ppn == kNoPpn || !plp_dump_->contains(g.block_of(ppn))) continue;
      const std::uint32_t e = wbuf_->insert(lpn);
      touch_entry(e, Access::Write);
      WriteBuffer::Entry& x = wbuf_->entry(e);
      x.request = HostRequestInfo{0, 0, lpn};
      x.ready = ops_.read(ppn, &x.token);
      ops_.depend(x.ready, restored);
      ops_.submit(x.ready);
      ++counts->dump_pages_restored;
    }
    ops_.submit(restored);
    for (const BlockId b : plp_dump_->blocks())
      if (image.written[b]) {
        OpRef erase = ops_.erase(b);
        ops_.depend(restored, erase);
        ops_.depend(erase, over);
        ops_.submit(erase);
        ++counts->dump_blocks_erased;
      }
    ops_.depend(restored, over);
  }
  ops_.on_complete(over, [counts, done = std::move(done)](const HalResult&) { done(*counts); });
  // Once the FTL's mount has issued all it will: over when its programs (and the above) are done.
  const std::string refused = ftl_->mount(image, [this, over] {
    OpRef programs = ops_.programs_barrier();
    ops_.depend(programs, over);
    ops_.submit(programs);
    ops_.submit(over);
  });
  if (!refused.empty()) throw std::logic_error("FTL '" + config_.ftl + "' cannot mount the drive: " + refused);
}

std::vector<BlockId> Firmware::grown_bad_blocks() const {
  std::vector<BlockId> bad;
  const SegmentSpace* space = ftl_->segment_space();
  if (!space) return bad;
  std::vector<bool> skip(hal_.geometry().total_blocks(), false);
  for (const BlockId b : hal_.factory_bad_blocks()) skip[b] = true;
  for (const BlockId b : checkpoint_blocks()) skip[b] = true;
  if (plp_dump_)
    for (const BlockId b : plp_dump_->blocks()) skip[b] = true;
  for (BlockId b = 0; b < skip.size(); ++b)
    if (!skip[b] && space->is_bad(b)) bad.push_back(b);
  return bad;
}

}  // namespace ssd::fw
