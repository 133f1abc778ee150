// SUPERBLOCK (Kang et al., EMSOFT'06, as the LAST paper's section 2.3 describes it): N adjacent
// logical blocks form a superblock whose pages are mapped page by page onto the superblock's own
// physical blocks, plus up to extra_blocks more taken from a shared pool; GC stays inside a
// superblock. Section 2.3 gives only that outline; what we assumed:
// - Each superblock writes host pages into its hot block and GC survivors into its cold block,
//   so data that survives a GC is kept apart from data being rewritten (the hot/cold separation
//   "into different blocks within a superblock").
// - The update space is the same as the other hybrids' log (log_share, 3% of the blocks): the
//   blocks all superblocks hold beyond their N together never exceed it (GC survivors may go one
//   over while their victim waits for its erase); the rest of the pool is free space, as the
//   other hybrids' free pool is. When nothing anywhere can be reclaimed because the update space
//   is held by open blocks' unused pages, a block is overdrawn from the pool instead
//   (update_space_overdraws counts them).
// - A superblock that needs a block takes one from the pool while it holds fewer than N +
//   extra_blocks (and the update space has room, once it holds N); otherwise (or when the pool is down to its reserve) it reclaims its own block
//   with the fewest valid pages (any but its open cold block, so a half-written hot block's
//   unused pages can be won back too): survivors are copied into its cold block, the block is
//   erased. When the pool runs dry for a superblock that may not reclaim anything, the
//   superblock holding the most blocks beyond N gives one back the same way.
// - Accounting in the papers' terms: reclaiming a block with no valid page is a switch merge
//   (one erase); with valid pages, a partial merge (copies + one erase). Page mapping inside
//   the superblock means no full merge ever happens.
// - The page map lives in one firmware table (4 bytes per logical page); the paper keeps it in
//   spare areas with a cache, which changes timing but not what is copied or erased.
#pragma once

#include <vector>

#include "fw/ftl/common/deferred_writes.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/ftl/common/ftl_counters.h"
#include "fw/ftl/ftl.h"

namespace ssd::fw {

struct SuperblockParams {
  std::uint32_t segment_planes = 1;
  std::uint32_t superblock_blocks = 4;  // N
  std::uint32_t extra_blocks = 2;       // per superblock, from the pool
  std::uint32_t free_blocks = 2;        // pool reserve only GC may use
  std::uint32_t update_blocks = 1;      // blocks all superblocks together may hold beyond their N
  std::uint32_t blocks = 0, superblocks = 0;
  Lpn logical_pages = 0;
  static SuperblockParams parse(FtlOptions& options, const FlashGeometry& geometry);
};

class SuperblockFtl : public Ftl {
 public:
  explicit SuperblockFtl(FtlContext& ctx);

  Lpn logical_pages() const override { return params_.logical_pages; }
  OpRef read(const PageRead& page) override;
  WriteOutcome write(const PageWrite& page) override;
  Ppn locate(Lpn lpn) const override;
  bool holds_valid_page(Ppn ppn) const override { return space_.is_valid(space_.to_spn(ppn)); }
  // See superblock_fill_preload.cpp.
  bool preload_sequential_fill(const std::function<Token(Lpn)>& token_of) override;

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  struct Superblock {
    std::vector<std::uint32_t> blocks;  // every block it holds, open ones included
    std::uint32_t hot = kNone, cold = kNone;
    bool gc_running = false;
  };
  std::uint32_t superblock_of(Lpn lpn) const { return lpn / superblock_pages_; }
  OpRef try_place(const PageWrite& page);       // invalid: wait for GC
  // kNoSpn when a block is needed and none may be taken; overdraw: beyond the update space.
  Spn take_page(std::uint32_t sb, bool cold, bool overdraw = false);
  bool may_take_block(std::uint32_t sb, bool cold, bool overdraw) const;
  void remap(Lpn lpn, Spn spn);
  void start_gc(std::uint32_t sb);
  void relocate(std::uint32_t sb, Spn old, const HalResult& page);
  void finish_gc(std::uint32_t sb, std::uint32_t victim);
  void retry_deferred();

  FtlContext ctx_;
  FtlCounters counts_;
  SuperblockParams params_;
  SegmentSpace space_;
  std::uint32_t superblock_pages_;
  std::vector<Superblock> superblocks_;
  std::vector<std::uint32_t> write_pointer_;  // per block
  std::vector<Spn> map_;                      // lpn -> spn
  TableRegion map_table_;
  std::uint32_t gc_in_flight_ = 0;
  std::uint32_t borrowed_ = 0;  // blocks held beyond N, summed over the superblocks
  DeferredWrites deferred_;
  std::uint64_t now_ = 0;
  std::uint64_t &gc_runs_, &gc_copies_, &switch_merges_, &partial_merges_, &full_merges_, &pool_reclaims_,
      &overdraws_;
};

}  // namespace ssd::fw
