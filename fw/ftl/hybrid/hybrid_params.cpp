#include "fw/ftl/hybrid/hybrid_params.h"

#include <algorithm>
#include <cmath>

namespace ssd::fw {

std::uint32_t parse_hybrid_block_planes(FtlOptions& o, const FlashGeometry& g, HybridBlockDefault block) {
  const bool per_plane = block == HybridBlockDefault::kPlaneBlock;
  const auto planes = static_cast<std::uint32_t>(o.integer(
      "segment_planes", per_plane ? 1 : g.channels, 1, g.total_planes(),
      per_plane ? "planes a block stripes over; the default 1 (single physical blocks, as the papers) keeps the "
                  "merge every scattered write triggers to one block's pages"
                : "planes a block stripes over: 1 gives the papers' single physical blocks; the default, one "
                  "block per channel, is a small superblock whose log writes stripe over the channels"));
  if (g.total_planes() % planes != 0)
    throw FtlOptionError("ftl.segment_planes = " + std::to_string(planes) + " must divide the " +
                         std::to_string(g.total_planes()) + " planes");
  const std::uint64_t unit = std::uint64_t(planes) * g.pages_per_block;
  if (unit > kLargeMergeUnitPages)
    o.warn("ftl.segment_planes = " + std::to_string(planes) + " makes every block " + std::to_string(unit) +
           " pages: each merge of one logical block copies up to that many (more than " +
           std::to_string(kLargeMergeUnitPages) + "); a real controller merges per-plane blocks or small "
           "superblocks (segment_planes = " + std::to_string(g.channels) + ", one block per channel, or 1)");
  return planes;
}

bool parse_concurrent_merges(FtlOptions& o, const FlashGeometry& g) {
  return o.choice("merges", g.total_dies() > 1 ? "concurrent" : "serial", {"serial", "concurrent"},
                  "serial: one merge at a time, host writes wait while it runs (the papers' simulators); "
                  "concurrent: merges of different log blocks overlap as far as free blocks allow and a write "
                  "waits only for the merge its logical block needs (default on drives of more than one die)") ==
         "concurrent";
}

HybridParams HybridParams::parse(const std::string& name, FtlOptions& o, const FlashGeometry& g,
                                 std::uint32_t min_log_blocks, HybridBlockDefault block) {
  HybridParams p;
  p.segment_planes = parse_hybrid_block_planes(o, g, block);
  p.concurrent_merges = parse_concurrent_merges(o, g);
  p.blocks = g.total_planes() / p.segment_planes * g.blocks_per_plane;
  const double op = o.real("overprovisioning", 0.07, 0.0, 0.9,
                           "share of blocks hidden from the host: the log blocks and the free pool");
  p.log_share = o.real("log_share", 0.03, 0.0, 0.5, "share of the blocks used as log blocks");
  p.free_blocks = static_cast<std::uint32_t>(o.integer("free_blocks", 2, 2, 1024, "blocks kept free for merges"));
  p.log_blocks = std::max<std::uint32_t>(min_log_blocks, static_cast<std::uint32_t>(std::ceil(p.log_share * p.blocks)));
  p.log_blocks_needed = p.log_blocks;  // a scheme keeps its whole log open: it needs it all
  p.logical_blocks = static_cast<std::uint32_t>(std::floor(double(p.blocks) * (1.0 - op)));
  if (std::uint64_t(p.logical_blocks) + p.log_blocks + p.free_blocks > p.blocks)
    throw FtlOptionError("ftl.overprovisioning = " + o.effective().at("overprovisioning") + " hides " +
                         std::to_string(p.blocks - std::min(p.blocks, p.logical_blocks)) + " of " +
                         std::to_string(p.blocks) + " blocks (of " + std::to_string(p.segment_planes) +
                         " plane(s)); " + name + " needs " + std::to_string(p.log_blocks) + " log blocks (at least " +
                         std::to_string(min_log_blocks) + ", ftl.log_share) + " + std::to_string(p.free_blocks) +
                         " free (ftl.free_blocks)");
  p.logical_pages = static_cast<Lpn>(std::uint64_t(p.logical_blocks) * p.segment_planes * g.pages_per_block);
  return p;
}

}  // namespace ssd::fw
