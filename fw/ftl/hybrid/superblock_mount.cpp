// SuperblockFtl::mount (SUPERBLOCK, SubGroup) after a power cut. A block only ever holds pages of
// one superblock (host writes and GC stay inside it), so the flash tells each block's owner by its
// valid pages: the page map is the boot's rebuilt one, each written block with a valid page goes
// back to the superblock of those pages (its blocks beyond N counted as borrowed, as before the
// cut), and written blocks with none are erased and returned to the pool (no superblock would
// reclaim them). Every superblock opens new hot and cold blocks; those written before the cut take
// no more pages (as page mapping's). SubGroup's write stamps were in SRAM: every page's next write
// counts as a first one (cold) until it is rewritten.
#include <memory>
#include <string>
#include <vector>

#include "fw/ftl/common/page_ops.h"
#include "fw/ftl/common/segment_mount.h"
#include "fw/ftl/hybrid/superblock.h"

namespace ssd::fw {

std::string SuperblockFtl::mount(const MountImage& image, std::function<void()> settled) {
  adopt_written_segments(space_, image, [](std::uint32_t) { return std::uint8_t{0}; });
  std::vector<std::uint32_t> owner(space_.segments(), kNone);
  for (Lpn lpn = 0; lpn < params_.logical_pages; ++lpn) {
    const Ppn ppn = image.map.ppn_of(lpn);
    if (ppn == kNoPpn || !in_used_segment(space_, ppn)) continue;  // none, or a power-loss dump's (the firmware's)
    const Spn spn = space_.to_spn(ppn);
    const std::uint32_t block = space_.segment_of(spn);
    if (owner[block] != kNone && owner[block] != superblock_of(lpn))
      return "block " + std::to_string(block) + " holds pages of superblocks " + std::to_string(owner[block]) +
             " and " + std::to_string(superblock_of(lpn));
    owner[block] = superblock_of(lpn);
    map_[lpn] = spn;
    space_.mount_valid(spn);
  }
  space_.charge_rebuilt_valid_pages();
  auto erasing = std::make_shared<std::uint32_t>(1);  // (one for the loop below)
  auto erased = [this, erasing, settled](std::uint32_t block) {
    if (block != kNone) {
      write_pointer_[block] = 0;
      space_.finish_reclaim(block);
    }
    if (--*erasing == 0) settled();
  };
  for (std::uint32_t block = 0; block < space_.segments(); ++block) {
    if (space_.state(block) != SegmentState::Closed) continue;
    write_pointer_[block] = space_.segment_pages();
    if (owner[block] != kNone) {
      Superblock& s = superblocks_[owner[block]];
      s.blocks.push_back(block);
      if (s.blocks.size() > params_.superblock_blocks) ++borrowed_;
      continue;
    }
    OpScheduler::Purpose gc_work(ctx_.ops, OpOrigin::Gc);
    ++*erasing;
    space_.begin_reclaim(block);
    counts_.erases += erase_segment(ctx_.ops, space_, block, [erased, block](const HalResult&) { erased(block); });
  }
  erased(kNone);
  return "";
}

}  // namespace ssd::fw
