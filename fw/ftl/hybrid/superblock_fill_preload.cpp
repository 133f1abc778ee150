// SuperblockFtl::preload_sequential_fill: the drive as a host writing every logical page once,
// one page at a time in logical order, leaves it under SUPERBLOCK, laid out directly.
//
// Each superblock's pages go to its hot block in order; it takes its N blocks from the pool
// (SegmentSpace::take, in superblock order) as each fills, and never needs GC or the update
// space, since its N blocks hold exactly its pages. Its last block stays its (full) hot block.
#include <stdexcept>
#include <string>

#include "fw/ftl/hybrid/superblock.h"

namespace ssd::fw {

bool SuperblockFtl::preload_sequential_fill(const std::function<Token(Lpn)>& token_of) {
  if (space_.free_segments() != space_.segments())
    throw std::logic_error("sequential-fill preload needs a fresh drive (" +
                           std::to_string(space_.segments() - space_.free_segments()) + " blocks are in use)");
  const std::uint32_t seg_pages = space_.segment_pages();
  for (std::uint32_t sb = 0; sb < superblocks_.size(); ++sb) {
    Superblock& s = superblocks_[sb];
    for (std::uint32_t k = 0; k < params_.superblock_blocks; ++k) {
      if (space_.free_segments() <= params_.free_blocks) return false;  // cannot happen: parse keeps a pool
      const std::uint32_t block = space_.take(0);
      const Lpn first = static_cast<Lpn>(std::uint64_t(sb) * superblock_pages_ + std::uint64_t(k) * seg_pages);
      s.blocks.push_back(block);
      s.hot = block;
      write_pointer_[block] = seg_pages;
      space_.preload_in_order(block, first, seg_pages, token_of);
      for (std::uint32_t off = 0; off < seg_pages; ++off) map_[first + off] = space_.first_spn(block) + off;
    }
  }
  now_ += params_.logical_pages;
  counts_.host_pages_written += params_.logical_pages;
  counts_.flash_pages_programmed += params_.logical_pages;
  return true;
}

}  // namespace ssd::fw
