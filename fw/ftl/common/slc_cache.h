// The SLC cache of the page-level FTLs (page mapping, DFTL, CAST) on a part with several bits a
// cell (TLC, QLC): host writes land in blocks programmed in SLC mode (one page a word line, the
// part's fast SLC-mode times, nand.slc_t_*), and the cache is emptied by folding: an SLC block's
// valid pages are read and programmed into native blocks (TLC/QLC word lines, one after another:
// on a one-shot part the last page of a word line carries the word line's program time) by the
// FTL's reclaim machinery, after which the SLC block is erased and free again. Each FTL places
// and folds in its own unit: page mapping a block of a plane (fw/ftl/page_mapping/slc_cache.cpp),
// DFTL and CAST a segment, one block on each plane of a plane group (fw/ftl/demand/slc_cache.cpp),
// so "blocks per plane" below means SLC segments per plane group there.
//
// Options (ftl.*):
//   slc_cache = off (default) | static | dynamic
//     static: at most slc_blocks SLC blocks per plane hold data at once, whatever the fill;
//     dynamic: slc_blocks always, and beyond them as long as the SLC blocks past slc_blocks are
//       fewer than slc_free_share x the plane's free blocks above its GC threshold. The cache thus
//       shrinks as the drive fills, as consumer drives' do: with share s and F free blocks above
//       the threshold on an empty plane it settles at slc_blocks + s F / (1 + s) blocks.
//       (Any free block may serve; SLC blocks are erased blocks taken from the same pool, so the
//       cache costs no capacity, only the free space it borrows until folded.)
//   slc_blocks: the static cache, or the dynamic cache's floor, per plane (default
//     blocks_per_plane / 64, at least 1).
//   slc_free_share (default 0.5): see dynamic.
//   slc_when_full = native (default) | fold
//     native: once the cache has no room, host writes go straight to native blocks (the
//       direct-to-TLC speed after the cliff); folding waits for idle time or for GC;
//     fold: host writes keep going to SLC; without cache room the SLC block with the fewest valid
//       pages is folded into native blocks first (the write waits for it: the folding speed of
//       drives that never write natively). With no SLC block to fold (a drive too full for any)
//       writes go native.
//   slc_idle_fold_ms (default 100; 0: never): when the host has sent no command for this long,
//     the closed SLC blocks are folded, one after another, until the host comes back (a paced GC
//     reclaim waiting for host writes to pace it finishes first). Idle is seen by the idle clock
//     (fw/ftl/common/idle_clock.h): folding starts between 1 and 1.25 times the idle time after
//     the host's last command or the completion of its last program, whichever is later.
// GC's greedy victim choice may also take an SLC block (few valid pages: cheap to reclaim);
// that is a fold too. Counters (SlcCounters): slc_pages_written (host pages written in SLC mode),
// slc_blocks_opened, slc_blocks_folded (SLC blocks reclaimed, by any path), slc_fold_copies
// (their valid pages moved), slc_idle_folds and slc_foreground_folds (folds started by idle time
// and by a full cache; the rest were GC's choice); DFTL and CAST count segments as blocks.
// After a power cut the mount does not tell SLC blocks from native ones: the blocks written in
// SLC mode before the cut are closed blocks GC reclaims like any other, and the cache starts empty.
#pragma once

#include <cstdint>

#include "common/geometry.h"
#include "common/metrics.h"
#include "fw/ftl/ftl_options.h"

namespace ssd::fw {

struct SlcCacheParams {
  enum class Mode : std::uint8_t { Off, Static, Dynamic };
  enum class WhenFull : std::uint8_t { Native, Fold };
  Mode mode = Mode::Off;
  std::uint32_t blocks = 0;  // per plane: the static cache, or the dynamic cache's floor
  double free_share = 0.5;
  WhenFull when_full = WhenFull::Native;
  std::uint32_t idle_fold_ns = 100'000'000;
  std::uint32_t pages = 0;  // pages an SLC-mode block holds: pages_per_block / bits_per_cell

  bool on() const { return mode != Mode::Off; }
  // Throws FtlOptionError naming the parameter (the cache needs a part of several bits a cell).
  static SlcCacheParams parse(FtlOptions& options, const FlashGeometry& geometry, std::uint32_t bits_per_cell);
  // Whether a plane (plane group) with `slc_blocks` SLC blocks (segments) holding data and
  // `free_above_threshold` free ones above its GC threshold may open one more; `planes`: how many
  // planes (plane groups) the counts cover, for a floor counted per plane.
  bool may_grow(std::uint32_t slc_blocks, std::uint32_t free_above_threshold, std::uint32_t planes = 1) const {
    const std::uint32_t floor = blocks * planes;
    if (slc_blocks < floor) return true;
    return mode == Mode::Dynamic && double(slc_blocks - floor) < free_share * double(free_above_threshold);
  }
};

// The cache's counters, registered only when it is on (a report without the cache is unchanged).
struct SlcCounters {
  std::uint64_t *pages_written = nullptr, *blocks_opened = nullptr, *blocks_folded = nullptr,
                *fold_copies = nullptr, *idle_folds = nullptr, *foreground_folds = nullptr;
  static SlcCounters registered(MetricSet& m) {
    return {&m.counter("slc_pages_written"), &m.counter("slc_blocks_opened"), &m.counter("slc_blocks_folded"),
            &m.counter("slc_fold_copies"),   &m.counter("slc_idle_folds"),    &m.counter("slc_foreground_folds")};
  }
};

}  // namespace ssd::fw
