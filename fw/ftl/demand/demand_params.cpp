#include "fw/ftl/demand/demand_params.h"

#include <algorithm>
#include <cmath>

namespace ssd::fw {

DemandParams DemandParams::parse(DemandVariant variant, FtlOptions& o, const FlashGeometry& g,
                                 std::uint32_t bits_per_cell) {
  DemandParams p;
  p.variant = variant;
  const bool cast = variant == DemandVariant::Cast;
  const char* name = cast ? "cast" : "dftl";
  p.overprovisioning = o.real("overprovisioning", 0.07, 0.0, 0.9, "share of physical pages hidden from the host");
  p.segment_planes = static_cast<std::uint32_t>(
      o.integer("segment_planes", g.total_planes(), 1, g.total_planes(),
                "planes a current block stripes over: a block of that index on each, erased together"));
  if (g.total_planes() % p.segment_planes != 0)
    throw FtlOptionError("ftl.segment_planes = " + std::to_string(p.segment_planes) + " must divide the " +
                         std::to_string(g.total_planes()) + " planes");
  p.segments = g.total_planes() / p.segment_planes * g.blocks_per_plane;

  // Both FTLs take the option, so the CAST reproduction can run DFTL with CAST's allocation
  // (several current blocks, ABL) and CAST with DFTL's (one).
  p.current_blocks = static_cast<std::uint32_t>(
      o.integer("current_blocks", cast ? 4 : 1, 1, 64, "parallel current data blocks (DFTL: 1, CAST: 4)"));
  p.gc_copies_to_current =
      o.choice("gc_destination", "current", {"current", "own"},
               "where GC copies valid data: the current data block (as DFTL and CAST do) or a block of its own") ==
      "current";
  p.gc_paced = o.choice("gc_pacing", "paced", {"paced", "threshold"},
                        "when GC copies of a data victim are issued: paced (in step with host writes) or threshold "
                        "(the whole victim at once)") == "paced";
  p.gc_write_back_paced =
      o.choice("gc_write_back", "paced", {"paced", "batch"},
               "when GC's mapping updates reach their translation pages: batch (all at once before the victim's "
               "erase) or paced (with paced GC, spread over the host writes after it, translation pages in a "
               "cyclic sweep)") == "paced";
  // GC must always be able to finish a victim: one fresh block for each block its copies may
  // go to, and one for translation pages.
  const std::int64_t min_reserve = (p.gc_copies_to_current ? p.current_blocks : 1) + 1;
  p.gc_reserve_segments = static_cast<std::uint32_t>(o.integer(
      "gc_reserve_segments", min_reserve, min_reserve, 64, "free blocks only GC and translation writes may take"));
  p.gc_threshold_segments = static_cast<std::uint32_t>(
      o.integer("gc_threshold_segments", std::max<std::int64_t>(p.gc_reserve_segments + 2, p.segments / 64),
                p.gc_reserve_segments + 1, p.segments, "start GC when free blocks fall below this"));
  p.victim_policy = o.choice_of<VictimPolicy>(
      "gc_policy", "cost_benefit", {{"greedy", VictimPolicy::Greedy}, {"cost_benefit", VictimPolicy::CostBenefit}},
      "GC victim: fewest valid pages, or (1-u)/2u x age (Kawaguchi)");
  p.cache.budget_bytes = static_cast<std::uint64_t>(
      o.integer("cmt_bytes", 128 * 1024, 8, std::int64_t(1) << 30, "SRAM bytes for the cached mapping table"));
  p.cache.replacement = o.choice_of<Replacement>(
      "cmt_policy", "slru", {{"slru", Replacement::SegmentedLru}, {"lru", Replacement::Lru}}, "mapping cache replacement");
  p.cache.protected_share =
      o.real("slru_protected_share", 0.5, 0.05, 0.95, "segmented LRU: share of entries in the protected segment");
  p.cache.boundary = g.page_bytes / 4;
  if (cast) {
    const int bits = std::stoi(o.choice("run_length_bits", "8", {"4", "8"}, "width of a CAMT entry's length field"));
    p.cache.entry_bits = 64 + bits;
    p.cache.max_run = 1u << bits;
  }
  p.write_miss_waits = o.flag("write_miss_waits", true, "a write whose mapping misses waits for its translation page");
  p.share_translation_reads =
      o.flag("share_translation_reads", true, "misses on one translation page share its in-flight read");
  p.logical_pages = static_cast<Lpn>(std::floor(double(g.total_pages()) * (1.0 - p.overprovisioning)));
  p.cache.logical_pages = p.logical_pages;
  if (cast || p.current_blocks > 1) {  // with one current block there is nothing to choose
    p.placement = o.choice_of<PlacementPolicy>(
        "placement", "abl", {{"abl", PlacementPolicy::AddressBased}, {"ibl", PlacementPolicy::IssuerBased}},
        "current block choice (with several): by address or by issuer");
    p.new_block_distance = static_cast<std::uint64_t>(
        o.integer("abl_new_block_distance", std::max<std::int64_t>(1, p.logical_pages / (2 * p.current_blocks)), 0,
                  std::max<std::int64_t>(1, p.logical_pages),
                  "ABL: pages from every recorded address beyond which a request starts an unused block"));
  }
  p.slc = SlcCacheParams::parse(o, g, bits_per_cell);
  o.reject_unread(name);
  // Room for every open block (current data blocks, GC, translation, and the SLC cache's with its
  // floor of segments not folded yet), the GC threshold and one victim, beyond the host data and
  // its translation pages.
  const std::uint64_t segment_pages = std::uint64_t(p.segment_planes) * g.pages_per_block;
  const std::uint64_t translation_pages = (p.logical_pages + p.cache.boundary - 1) / p.cache.boundary;
  const std::uint64_t used = (std::uint64_t(p.logical_pages) + translation_pages + segment_pages - 1) / segment_pages;
  const std::uint64_t spare = p.segments > used ? p.segments - used : 0;
  const std::uint64_t cache = p.slc.on() ? 1 + std::uint64_t(p.slc.blocks) * p.plane_groups(g) : 0;
  const std::uint64_t needed = std::uint64_t(p.gc_threshold_segments) + p.current_blocks + 2 + 1 + cache;
  if (spare < needed)
    throw FtlOptionError("ftl.overprovisioning = " + o.effective().at("overprovisioning") + " leaves " +
                         std::to_string(spare) + " spare blocks of " + std::to_string(segment_pages) + " pages; " +
                         name + " needs at least gc_threshold_segments + current blocks + 3" +
                         (cache ? " + the SLC cache's open block and slc_blocks per plane group" : "") + " = " +
                         std::to_string(needed) + " (lower ftl.segment_planes or raise overprovisioning)");
  return p;
}

}  // namespace ssd::fw
