#include <algorithm>
#include <cmath>
#include <string>

#include "fw/ftl/common/slc_cache.h"

namespace ssd::fw {

SlcCacheParams SlcCacheParams::parse(FtlOptions& o, const FlashGeometry& g, std::uint32_t bits_per_cell) {
  SlcCacheParams p;
  p.mode =
      o.choice_of<Mode>("slc_cache", "off", {{"off", Mode::Off}, {"static", Mode::Static}, {"dynamic", Mode::Dynamic}},
                        "SLC cache on a part of several bits a cell: off, static (slc_blocks per plane) or "
                        "dynamic (slc_blocks, and more while the plane has free blocks: slc_free_share)");
  p.blocks = static_cast<std::uint32_t>(
      o.integer("slc_blocks", std::max<std::uint32_t>(1, g.blocks_per_plane / 64), 0, g.blocks_per_plane,
                "SLC cache: blocks per plane (static: the cache; dynamic: its floor)"));
  p.free_share = o.real("slc_free_share", 0.5, 0.0, 10.0,
                        "dynamic SLC cache: SLC blocks beyond slc_blocks, as a share of the plane's free blocks "
                        "above the GC threshold");
  p.when_full =
      o.choice_of<WhenFull>("slc_when_full", "native", {{"native", WhenFull::Native}, {"fold", WhenFull::Fold}},
                            "SLC cache full: native (host writes go to native blocks) or fold (fold an SLC "
                            "block first, the write waits)");
  p.idle_fold_ns = static_cast<std::uint32_t>(
      std::lround(1e6 * o.real("slc_idle_fold_ms", 100, 0, 4000,
                               "SLC cache: fold it after the host is idle this long (0: never)")));
  if (!p.on()) return p;
  if (bits_per_cell < 2 || g.pages_per_block % bits_per_cell != 0)
    throw FtlOptionError("ftl.slc_cache = " + o.effective().at("slc_cache") +
                         " needs a part of several bits a cell whose blocks hold whole word lines (nand.t_prog_us "
                         "with one entry per page type); this one has " +
                         std::to_string(bits_per_cell) + " bit(s) a cell and " + std::to_string(g.pages_per_block) +
                         " pages a block");
  if (p.mode == Mode::Static && p.blocks == 0)
    throw FtlOptionError("ftl.slc_cache = static needs ftl.slc_blocks of at least 1");
  p.pages = g.pages_per_block / bits_per_cell;
  return p;
}

}  // namespace ssd::fw
