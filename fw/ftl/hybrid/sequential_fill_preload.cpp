// HybridFtl::preload_sequential_fill: the drive as a host writing every logical page once, one
// page at a time in logical order, leaves it under a log-block scheme, laid out directly.
//
// Every page of such a fill goes in place: a logical block's first page takes a free block as
// its data block (SegmentSpace::take, round-robin over plane groups, in logical block order)
// and its other pages follow at the write pointer. No log block is opened and nothing is merged,
// so the layout is the same for every scheme built on HybridFtl; a scheme that learns from the
// host's requests (ADAPT's request history, WAFTL's write counts) says what the fill taught it
// in on_sequential_fill.
#include <algorithm>

#include "fw/ftl/hybrid/hybrid_ftl.h"

namespace ssd::fw {

bool HybridFtl::preload_sequential_fill(const std::function<Token(Lpn)>& token_of) {
  space_.require_fresh("sequential-fill preload");  // so no log block is open either
  const std::uint32_t seg_pages = space_.segment_pages();
  const std::uint32_t blocks = (params_.logical_pages + seg_pages - 1) / seg_pages;
  // Before logical block i takes its data block, S - i blocks are free; each must find more
  // than the reserve, as try_place requires for an in-place first page (i = blocks - 1 last).
  if (std::uint64_t(blocks) + params_.free_blocks > space_.usable_segments()) return false;

  for (std::uint32_t lbn = 0; lbn < blocks; ++lbn) {
    const Lpn first = static_cast<Lpn>(std::uint64_t(lbn) * seg_pages);
    const std::uint32_t count = std::min<std::uint32_t>(seg_pages, params_.logical_pages - first);
    const std::uint32_t data = space_.take(kData);
    data_block_[lbn] = data;
    write_pointer_[data] = count;
    space_.preload_in_order(data, first, count, token_of);
  }
  now_ += params_.logical_pages;
  counts_.count_fill(params_.logical_pages);
  in_place_writes_ += params_.logical_pages;
  on_sequential_fill();
  return true;
}

}  // namespace ssd::fw
