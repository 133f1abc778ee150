// MNK (Shim, Park, Park: a configurable hybrid FTL for multi-channel SSDs), section III, on the
// hybrid log-block infrastructure.
//
// - M: modules (planes) a logical block stripes over = ftl.segment_planes; a block here is M
//   physical blocks on M modules, pages interleaved channel-first, so a group's writes run on M
//   channels at once. The module groups are the block space's plane groups (all planes / M).
// - N: logical blocks per logical group; K: most log blocks a group may hold, counted in physical
//   blocks as the paper does (K / M striped log blocks).
// - Inside a group, page-level mapping over its log blocks: a page of a request of more than
//   sequential_threshold_pages pages goes to its logical block's sequential log block (written in
//   order from offset 0, so it leaves by a switch or partial merge; SequentialLog); every other
//   page to the group's current random log block.
// - Garbage collection: when the group needs a log block and holds K / M, it is reclaimed itself;
//   when free blocks fall below gc_free_blocks, or the log space (ftl.log_share) is used up, the
//   least recently used logical group holding log blocks (an LRU list of groups) is. Reclaiming a group merges each of its log blocks in turn (switch,
//   partial, or a full merge of each logical block with pages there; the group's other log
//   blocks then hold nothing valid).
// - Recycling (III-B): a reclaimed log block with nothing valid left whose written share is below
//   recycle_threshold is kept, not erased, and reused as a random log block (never sequential:
//   it could not be switched). 0 disables, 1 recycles any block with unwritten pages.
// - Load balancing (III-C): a sequential log block comes from the module group with the fewest
//   free blocks, a random one from the module group with the fewest erases, ties by the least
//   recent use of that ordering; allocations update the orderings they use, reclaims both
//   (module_allocation=balanced; round_robin and static, as MCSplit, for ablations).
// Choices the paper leaves open: which group the K-cap reclaims (the writing group itself: only
// that frees room for it), merge destinations (any module group, round-robin), the sequential
// test (LAST's request-size rule, 2 pages).
#pragma once

#include <list>
#include <unordered_map>
#include <vector>

#include "fw/ftl/hybrid/hybrid_ftl.h"
#include "fw/ftl/hybrid/sequential_log.h"

namespace ssd::fw {

// The schemes on this machinery: MNK, and MCSplit, one of the two multi-channel baselines its
// paper compares with, as its sections I, III-B and IV describe it (the only description
// available); the other, SubGroup, is a superblock scheme (fw/ftl/hybrid/superblock.h):
// - MCSplit (Kim, Jung, Song, IWSSPS'08): logical blocks striped over M modules (default 1, as BAST:
//   see fw/ftl/hybrid/README.md), each with an
//   exclusive log block of its own (BAST-like: N = 1, K = M, in arrival order), no recycling,
//   static module allocation (a logical block's log block comes from module group lbn mod groups).
// Static allocation is best effort: merge destinations (data blocks) are taken round-robin, so a
// module group may have no free block left; its log block then comes from any module group
// (static_allocation_fallbacks).
enum class MnkVariant : std::uint8_t { kMnk, kMcSplit };
enum class ModuleAllocation : std::uint8_t { kBalanced, kRoundRobin, kStatic };

struct MnkParams {
  HybridParams base;  // base.segment_planes is M
  std::uint32_t n = 32, k = 64;  // defaults: N = 32, K = 8 x M (the paper's (8, 32, 64))
  double recycle_threshold = 0.1;
  std::uint32_t sequential_threshold_pages = 2;
  std::uint32_t gc_free_blocks = 4;
  ModuleAllocation allocation = ModuleAllocation::kBalanced;
  std::uint32_t stripes_per_group() const { return k / base.segment_planes; }
  static MnkParams parse(MnkVariant variant, FtlOptions& options, const FlashGeometry& geometry);
};

class MnkFtl : public HybridFtl {
 public:
  MnkFtl(FtlContext& ctx, MnkVariant variant)
      : MnkFtl(ctx, MnkParams::parse(variant, ctx.options, ctx.hal.geometry())) {}
  MnkFtl(FtlContext& ctx, const MnkParams& params);

 protected:
  LogTarget log_target(const PageWrite& page) override;
  void on_log_block_gone(std::uint32_t block) override;
  void before_merge(std::uint32_t victim) override;
  bool recycles(std::uint32_t block) override;
  void on_copy(Spn to) override { ++*module_copies_[plane_group_of(block_of(to))]; }

 private:
  enum Role : std::uint8_t { kNoRole, kRandom, kSequential, kRecycled };
  struct Group {
    std::vector<std::uint32_t> logs;  // its log blocks
    std::uint32_t random = kNone;     // the random log block being filled
    std::list<std::uint32_t>::iterator lru;
    bool in_lru = false;
  };
  LogTarget random_target(std::uint32_t group);
  LogTarget reclaim(std::uint32_t group);
  LogTarget reclaim_oldest();  // the least recently used logical group holding log blocks
  std::uint32_t open_log(bool sequential, std::uint32_t group);  // by the module allocation policy
  std::uint32_t open_balanced(bool sequential);
  void touch(std::uint32_t group);

  MnkParams p_;
  std::vector<Group> groups_;            // logical groups
  std::list<std::uint32_t> lru_;         // logical groups with log blocks, least recently used first
  std::vector<Role> role_;               // per block
  std::vector<std::uint32_t> owner_;     // per log block: its logical group
  SequentialLog sequential_;
  std::vector<std::uint32_t> recycled_;  // kept log blocks waiting to be reused as random ones
  std::uint32_t reclaiming_ = kNone;     // the logical group being reclaimed
  std::uint32_t erasing_ = kNone;        // a recycled block being erased for room
  std::vector<std::uint64_t> free_used_, erase_used_;  // per module group: last use of each ordering
  std::uint64_t clock_ = 0;
  std::uint64_t &group_reclaims_, &cap_reclaims_, &pressure_reclaims_, &recycled_reuses_,
      &static_fallbacks_;
  LatencyHistogram& utilization_;  // written share (percent) of each log block at reclaim
  std::vector<double*> module_erases_;  // per module group: blocks erased (as of the last reclaim)
  std::vector<std::uint64_t*> module_copies_;  // per module group: valid pages copied into it
};

}  // namespace ssd::fw
