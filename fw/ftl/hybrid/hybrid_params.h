// Parameters shared by the hybrid log-block FTLs, read and checked from the FTL options.
#pragma once

#include <cstdint>
#include <string>

#include "fw/ftl/ftl_options.h"
#include "common/geometry.h"

namespace ssd::fw {

// The default block of a hybrid (see parse_hybrid_block_planes).
enum class HybridBlockDefault {
  kChannelStripe,  // FAST, FASTer, LAST: a shared random log, whose writes stripe over the channels
  kPlaneBlock,     // BAST, SUPERBLOCK: a write outside its logical block's log forces a merge
};

struct HybridParams {
  double log_share = 0.03;            // share of the blocks used as log blocks (the papers' 3%)
  std::uint32_t free_blocks = 2;      // blocks at least kept free for merges (the rest of the
                                      // over-provisioning beyond the log is free too)
  std::uint32_t segment_planes = 1;   // planes a block stripes over
  bool concurrent_merges = true;      // ftl.merges: see parse_concurrent_merges
  std::uint32_t blocks = 0;           // all blocks (segments)
  std::uint32_t log_blocks = 0;       // the log's cap
  std::uint32_t log_blocks_needed = 0;  // what the scheme works with at least (bad blocks: read-only below)
  std::uint32_t logical_blocks = 0;
  Lpn logical_pages = 0;

  // Reads the shared parameters; `min_log_blocks` is what the scheme needs at least. The caller
  // reads its own parameters and then calls options.reject_unread(name).
  static HybridParams parse(const std::string& name, FtlOptions& options, const FlashGeometry& geometry,
                            std::uint32_t min_log_blocks, HybridBlockDefault block);
};

// The hybrids' block (their erase and merge unit): `ftl.segment_planes` planes, one block on
// each, erased together. The default depends on how the scheme uses its log:
// - FAST, FASTer, LAST write every random update into one shared log block at a time, so that
//   block must stripe for the log to take writes in parallel: one block per channel, a small
//   superblock as real multi-channel log-block controllers use (2,048 pages on the default
//   platform). Their merges are rare enough for the larger unit.
// - BAST and SUPERBLOCK bind each update to its own logical block's log, so a write scattered
//   outside the blocks the log holds forces a merge: the merge unit is their per-write cost and
//   the default is one physical block (256 pages there). On the default platform it cuts their
//   WAF on TPC-C from 785/724 to 67/1.04 and on uniform 4 KiB random writes from 1,950/1,768 to
//   213/199 (the closed-form pages-per-block cost of BAST's random writes); the price is that one
//   logical block's writes serialise on one plane (bench/reproductions/last.md, defaults table).
// A block of more than kLargeMergeUnitPages pages draws a warning: every merge of one logical
// block copies that many.
inline constexpr std::uint32_t kLargeMergeUnitPages = 4096;

// ftl.merges: serial (one merge at a time; every host write waits while one runs, as the papers'
// single-chip simulators did) or concurrent (merges of different log blocks overlap as far as
// free blocks allow, and a write waits only for the merge its own logical block, or its log
// slot, needs). Default: serial on a one-die drive (nothing to overlap, and the paper platforms'
// results stay as they were), concurrent on more dies.
bool parse_concurrent_merges(FtlOptions& options, const FlashGeometry& geometry);
std::uint32_t parse_hybrid_block_planes(FtlOptions& options, const FlashGeometry& geometry, HybridBlockDefault block);

}  // namespace ssd::fw
