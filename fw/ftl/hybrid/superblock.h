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
//   is held by open blocks' unused pages, the write goes to its superblock's other open block if
//   that has room (open_block_fallbacks), else a block is overdrawn from the pool
//   (update_space_overdraws counts them).
// - A reclaim must gain: its victim needs more invalid pages than the padding its survivors' last
//   word line may need (word-line safety with erase_after_copies), else copying it gains nothing
//   and the same blocks are copied forever.
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
//
// SubGroup (Park, Park, Weems, Kim: sub-grouped superblock management, IEICE Electronics Express
// 6(6), 2009) on the same machinery: superblocks whose blocks stripe over modules for
// interleaving, with hot and cold data kept in two sub-groups of each superblock's blocks "so
// that superblock merging gets more efficient" (its abstract; the full text was not available,
// and the MNK paper says only that it separates a hot and a cold group, statically placed).
// What we assumed, each an option:
// - Hot: a host write of a logical page written before within the last hot_window_pages host
//   page writes to its superblock (a recency test; default one block's pages). Hot writes go to
//   the hot sub-group's open block, every other host write (first writes, rarely rewritten
//   pages) to the cold sub-group's, where GC survivors go too. SUPERBLOCK sends every host write
//   to its hot block, so its hot blocks mix first writes of cold data with hot rewrites; the
//   sub-groups leave hot blocks nearly all invalid when GC picks them.
// - Placement: the hot sub-group's blocks come from the first hot_module_groups module groups,
//   the cold one's from the others (best effort: any group when those have none free), the
//   static placement the MNK paper blames for SubGroup's uneven wear (Fig. 8). 0: anywhere.
// - The last-write stamps are a firmware table (4 bytes per logical page, compared modulo 2^32).
//
// GC runs per superblock, so superblocks reclaim concurrently. ftl.merges (hybrid_params.h)
// says what a host write waits for: serial, the oldest waiting write (every write queues behind
// one superblock's GC, as the papers' simulators did; the default on one die); concurrent, only
// an earlier waiting write of its own superblock.
#pragma once

#include <vector>

#include "fw/ftl/common/deferred_writes.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/ftl/common/ftl_counters.h"
#include "fw/ftl/ftl.h"

namespace ssd::fw {

enum class SuperblockVariant : std::uint8_t { kSuperblock, kSubGroup };

struct SuperblockParams {
  std::uint32_t segment_planes = 1;
  bool concurrent_merges = true;       // ftl.merges (hybrid_params.h): writes wait only for their superblock's GC
  bool hot_cold_host_writes = false;   // SubGroup: host writes split into hot and cold sub-groups
  std::uint32_t hot_window_pages = 0;  // SubGroup: a rewrite within this many writes to its superblock is hot
  std::uint32_t hot_module_groups = 0; // SubGroup: module groups of the hot sub-group (0: no placement)
  std::uint32_t superblock_blocks = 4;  // N
  std::uint32_t extra_blocks = 2;       // per superblock, from the pool
  std::uint32_t free_blocks = 2;        // pool reserve only GC may use
  std::uint32_t update_blocks = 1;      // blocks all superblocks together may hold beyond their N
  std::uint32_t blocks = 0, superblocks = 0;
  Lpn logical_pages = 0;
  static SuperblockParams parse(SuperblockVariant variant, FtlOptions& options, const FlashGeometry& geometry);
};

class SuperblockFtl : public Ftl {
 public:
  explicit SuperblockFtl(FtlContext& ctx, SuperblockVariant variant = SuperblockVariant::kSuperblock);

  Lpn logical_pages() const override { return params_.logical_pages; }
  OpRef read(const PageRead& page) override;
  WriteOutcome write(const PageWrite& page) override;
  OpRef trim(Lpn lpn) override;
  SegmentSpace* segment_space() override { return &space_; }
  std::uint32_t close_word_lines(std::uint32_t word_line_pages, BlockId only) override;
  Ppn locate(Lpn lpn) const override;
  bool holds_valid_page(Ppn ppn) const override { return space_.holds_valid(ppn); }
  // Each superblock's block list (a 4-byte block for each of its N + extra blocks) and its page map
  // (where in those blocks each logical page is: 2 bytes a logical page).
  std::uint64_t checkpoint_bytes() const override {
    return std::uint64_t(params_.superblocks) * (params_.superblock_blocks + params_.extra_blocks) * 4 +
           std::uint64_t(params_.logical_pages) * 2;
  }
  // See superblock_fill_preload.cpp.
  bool preload_sequential_fill(const std::function<Token(Lpn)>& token_of) override;
  // See superblock_mount.cpp.
  std::string mount(const MountImage& image, std::function<void()> settled) override;

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  struct Superblock {
    std::vector<std::uint32_t> blocks;  // every block it holds, open ones included
    std::uint32_t hot = kNone, cold = kNone;
    bool gc_running = false;
  };
  std::uint32_t superblock_of(Lpn lpn) const { return lpn / superblock_pages_; }
  OpRef try_place(const PageWrite& page);       // invalid: wait for GC
  // A page of the superblock's hot or cold open block; kNoSpn when a block is needed and none
  // may be taken. for_gc: a GC survivor (may use the reserve); overdraw: beyond the update space.
  Spn take_page(std::uint32_t sb, bool cold, bool for_gc, bool overdraw = false);
  bool has_room(std::uint32_t block) const;  // an open block with pages left
  Spn next_page(std::uint32_t block);         // its next page
  // A page of the superblock's other open block (hot for a cold write, cold for a hot one), when
  // it has room; kNoSpn otherwise.
  Spn take_other_open_page(std::uint32_t sb, bool cold);
  std::runtime_error out_of_space(Lpn lpn) const;
  bool may_take_block(std::uint32_t sb, bool for_gc, bool overdraw) const;
  std::uint32_t take_block(bool cold);
  bool hot_write(std::uint32_t sb, Lpn lpn) const;  // SubGroup's classification
  void record_host_write(std::uint32_t sb, Lpn lpn, bool hot);
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
  std::vector<std::uint32_t> last_write_;     // SubGroup: per lpn, its superblock's write count at its last write
  std::vector<std::uint32_t> sb_writes_;      // SubGroup: per superblock, host page writes
  TableRegion stamp_table_;
  std::uint32_t next_hot_group_ = 0, next_cold_group_ = 0;
  std::vector<double*> module_erases_;  // SubGroup with placement: per module group, blocks erased
  std::uint32_t gc_in_flight_ = 0;
  std::uint32_t borrowed_ = 0;  // blocks held beyond N, summed over the superblocks
  DeferredWrites deferred_;
  std::uint64_t now_ = 0;
  std::uint64_t &gc_runs_, &gc_copies_, &switch_merges_, &partial_merges_, &full_merges_, &pool_reclaims_,
      &overdraws_, &open_block_fallbacks_, &hot_writes_, &cold_writes_, &placement_fallbacks_;
};

}  // namespace ssd::fw
