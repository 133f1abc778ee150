// PageMappingFtl::preload_sequential_fill: the drive as a host writing every logical page once,
// one page at a time in logical order, leaves it, laid out directly instead of written.
//
// Such a host never has more than one program in flight, so adaptive allocation never pairs a
// die's planes: it deals consecutive pages to dies in channel-first order, each die's planes in
// turn, which is channel_first's order; plane_first gives a die planes_per_die consecutive
// pages. Either way logical page k goes to the (k mod planes)-th plane of a fixed order, as its
// (k / planes)-th page. No page is overwritten, so GC never starts (every closed block is all
// valid) and nothing else happens: each plane's frontier opens its blocks as its allocations
// would have (SegmentSpace::advance_frontier), whole blocks are preloaded at once with the
// sequence numbers programming in logical order gives them, and the allocation cursors end where
// the writes would have left them.
#include <vector>

#include "fw/ftl/page_mapping/page_mapping_ftl.h"

namespace ssd::fw {

bool PageMappingFtl::preload_sequential_fill(const std::function<Token(Lpn)>& token_of) {
  const FlashGeometry& g = blocks_.geometry();
  const std::uint32_t planes = g.total_planes(), per_die = g.planes_per_die, dies = g.total_dies();
  blocks_.require_fresh("sequential-fill preload");
  const bool plane_first = params_.allocation == PageMappingParams::Allocation::PlaneFirst;
  std::vector<std::uint32_t> order(planes);
  for (std::uint32_t i = 0; i < planes; ++i)
    order[i] = plane_first ? blocks_.stripe_plane((i / per_die) % dies) + i % per_die : blocks_.stripe_plane(i);
  // A plane the host would skip for want of room (past its GC reserve) breaks the order: replay.
  const std::uint64_t most_pages = (std::uint64_t(logical_pages_) + planes - 1) / planes;
  if ((most_pages + g.pages_per_block - 1) / g.pages_per_block > blocks_.fewest_usable_in_group() - params_.gc_reserve_blocks)
    return false;

  // Plane order[r] takes logical pages r, r + planes, ...: the j-th of them, at k = j * planes +
  // r, was the array's (k + 1)-th program. Flash and valid pages block by block; the L2P table
  // afterwards in logical order (one pass through memory instead of a stride per plane).
  const std::uint32_t ppb = g.pages_per_block;
  std::vector<Hal::PreloadedPage> pages(ppb);
  std::vector<std::vector<Ppn>> block_starts(planes);  // per rank: the first page of each block
  for (std::uint32_t r = 0; r < planes && r < logical_pages_; ++r) {
    const std::uint32_t plane = order[r];
    const std::uint64_t count = (std::uint64_t(logical_pages_) - r + planes - 1) / planes;
    std::uint64_t j = 0;
    for (const SegmentSpace::PageRun& run : blocks_.advance_frontier(blocks_.plane_frontier(plane, kHostStream), count, 0)) {
      const Ppn first = blocks_.to_ppn(run.first);  // a run is one block's pages from its first
      for (std::uint32_t i = 0; i < run.count; ++i) {
        const Lpn lpn = static_cast<Lpn>((j + i) * planes + r);
        pages[i] = Hal::PreloadedPage{lpn, token_of(lpn)};
      }
      ctx_.hal.preload_block(g.block_of(first), run.count, pages.data(), j * planes + r + 1);
      blocks_.mark_valid_run(run);
      block_starts[r].push_back(first);
      j += run.count;
    }
    if (plane_first) host_pages_[plane] = count;
  }
  for (std::uint64_t j = 0, lpn = 0; lpn < logical_pages_; ++j) {  // lpn = j * planes + r, no division
    const std::uint64_t block = j / ppb;
    const auto page = static_cast<Ppn>(j % ppb);
    for (std::uint32_t r = 0; r < planes && lpn < logical_pages_; ++r, ++lpn) l2p_[lpn] = block_starts[r][block] + page;
  }
  stripe_cursor_ = die_cursor_ = logical_pages_;
  if (plane_first) {
    die_cursor_ = logical_pages_ / per_die;
    die_round_ = logical_pages_ % per_die;
  }
  counts_.count_fill(logical_pages_);
  return true;
}

}  // namespace ssd::fw
