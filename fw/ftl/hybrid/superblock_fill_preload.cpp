// SuperblockFtl::preload_sequential_fill: the drive as a host writing every logical page once,
// one page at a time in logical order, leaves it under SUPERBLOCK, laid out directly.
//
// Each superblock's pages go to its hot block in order; it takes its N blocks from the pool
// (SegmentSpace::take, in superblock order) as each fills, and never needs GC or the update
// space, since its N blocks hold exactly its pages. Its last block stays its (full) hot block.
// SubGroup: every fill write is a first write, so cold: the pages go to the cold sub-group's
// blocks (from its module groups), and each page's last-write stamp is its place in the order.

#include "fw/ftl/hybrid/superblock.h"

namespace ssd::fw {

bool SuperblockFtl::preload_sequential_fill(const std::function<Token(Lpn)>& token_of) {
  space_.require_fresh("sequential-fill preload");
  // Every block taken must leave more than the reserve free, as may_take_block requires (decided
  // before anything is laid out; parse keeps a pool, so this does not happen).
  const std::uint64_t taken = std::uint64_t(superblocks_.size()) * params_.superblock_blocks;
  if (taken + params_.free_blocks > space_.usable_segments()) return false;
  const std::uint32_t seg_pages = space_.segment_pages();
  for (std::uint32_t sb = 0; sb < superblocks_.size(); ++sb) {
    Superblock& s = superblocks_[sb];
    const bool cold = params_.hot_cold_host_writes;
    for (std::uint32_t k = 0; k < params_.superblock_blocks; ++k) {
      const std::uint32_t block = take_block(cold);
      const Lpn first = static_cast<Lpn>(std::uint64_t(sb) * superblock_pages_ + std::uint64_t(k) * seg_pages);
      s.blocks.push_back(block);
      (cold ? s.cold : s.hot) = block;
      write_pointer_[block] = seg_pages;
      space_.preload_in_order(block, first, seg_pages, token_of);
      for (std::uint32_t off = 0; off < seg_pages; ++off) {
        map_[first + off] = space_.first_spn(block) + off;
        if (cold) last_write_[first + off] = ++sb_writes_[sb];
      }
    }
    if (cold) cold_writes_ += superblock_pages_;
  }
  now_ += params_.logical_pages;
  counts_.count_fill(params_.logical_pages);
  return true;
}

}  // namespace ssd::fw
