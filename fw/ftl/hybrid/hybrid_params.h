// Parameters shared by the hybrid log-block FTLs, read and checked from the FTL options.
#pragma once

#include <cstdint>
#include <string>

#include "fw/ftl/ftl_options.h"
#include "common/geometry.h"

namespace ssd::fw {

struct HybridParams {
  double log_share = 0.03;            // share of the blocks used as log blocks (the papers' 3%)
  std::uint32_t free_blocks = 2;      // blocks at least kept free for merges (the rest of the
                                      // over-provisioning beyond the log is free too)
  std::uint32_t segment_planes = 1;   // planes a block stripes over
  std::uint32_t blocks = 0;           // all blocks (segments)
  std::uint32_t log_blocks = 0;       // the log's cap
  std::uint32_t logical_blocks = 0;
  Lpn logical_pages = 0;

  // Reads the shared parameters; `min_log_blocks` is what the scheme needs at least. The caller
  // reads its own parameters and then calls options.reject_unread(name).
  static HybridParams parse(const std::string& name, FtlOptions& options, const FlashGeometry& geometry,
                            std::uint32_t min_log_blocks);
};

// The hybrids' block (their erase and merge unit): `ftl.segment_planes` planes, one block on
// each, erased together. The default is one block per channel -- the small superblock real
// multi-channel log-block controllers use, so a log block's pages stripe over the channels while
// a merge copies channels x pages_per_block pages (2,048 on the default platform, 256-page
// blocks on 8 channels), not the whole array's stripe. A block of more than
// kLargeMergeUnitPages pages draws a warning: every merge of one logical block copies that many.
inline constexpr std::uint32_t kLargeMergeUnitPages = 4096;
std::uint32_t parse_hybrid_block_planes(FtlOptions& options, const FlashGeometry& geometry);

}  // namespace ssd::fw
