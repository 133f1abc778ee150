// DemandFtl::preload_sequential_fill: DFTL or CAST as a host writing every logical page once,
// one page at a time in logical order, leaves them, made without operations.
//
// Such a fill reads nothing, provided no translation page is written twice:
// - every write misses the cache (its page was never written), and the GTD says at once that
//   the page's translation page was never written, so nothing is read;
// - each page goes to the current block placement picks (the real DataPlacement, fed the same
//   one-page requests), and the cache takes its mapping dirty (the real MappingCache: runs,
//   merges, replacement);
// - a full cache evicts its least recently updated run; that run's translation page is written
//   back whole, for the first time, so without a read-modify-write.
// A translation page is written once when the cache holds at least as many runs as it has
// entries: its first run leaves only after `capacity` newer runs were made, and the page makes at
// most `entries per page` runs (fewer where CAST merges them). With a smaller cache this declines
// and the fill is replayed. Nothing is overwritten, so no page turns invalid and GC never finds
// a victim; DemandParams::parse already made room for the data and its translation pages.
//
// What is left is the engine's own state, changed here in place_write's and write_back's order,
// and every program put straight on flash (Hal::preload) in the order the functional HAL runs
// them: a write-back's program, submitted while the cache takes the new mapping, before the
// data page's program, which waits for the host data's transfer. The cache ends holding the
// last runs, the newest still dirty, as after the written fill.
#include <stdexcept>
#include <string>

#include "common/host_addressing.h"
#include "fw/ftl/demand/demand_ftl.h"

namespace ssd::fw {

bool DemandFtl::preload_sequential_fill(const std::function<Token(Lpn)>& token_of) {
  space_.require_fresh("sequential-fill preload");
  if (cache_.capacity() < directory_.entries_per_page()) return false;

  // Evictions write back by preloading for as long as this runs (an exception included).
  struct RestoreOnExit {
    MappingCache& cache;
    std::function<void(Lpn)> write_back;
    ~RestoreOnExit() { cache.on_dirty_eviction = std::move(write_back); }
  } restore{cache_, std::move(cache_.on_dirty_eviction)};
  cache_.on_dirty_eviction = [this](Lpn evicted) {
    const std::uint32_t vpn = directory_.page_of(evicted);
    if (directory_.location(vpn) != kNoSpn)
      throw std::logic_error("sequential-fill preload: translation page " + std::to_string(vpn) +
                             " written back twice (the cache should hold a translation page's runs)");
    gather_updates(vpn);
    const Spn at = allocate_translation_page(vpn);
    ctx_.hal.preload(space_.to_ppn(at), kTranslationLpnBase + vpn, directory_.checksum(vpn));
    commit_translation_page(vpn, at, kHostPath);
  };

  const std::uint32_t page_sectors = ctx_.hal.geometry().page_bytes / kSectorBytes;
  for (Lpn lpn = 0; lpn < params_.logical_pages; ++lpn) {
    const HostRequestInfo request{0, page_sectors, lpn};
    const std::uint32_t frontier = native_frontier(request);  // old data: none of it in an SLC cache
    if (frontier == kNoFrontier)
      throw std::logic_error("sequential-fill preload: no room for logical page " + std::to_string(lpn));
    const Spn spn = space_.allocate(frontier, false, now_++);
    placement_.record(frontier, request, space_);
    ++counts_.host_pages_written;
    ++write_misses_;
    if (directory_.location(directory_.page_of(lpn)) != kNoSpn)  // the written fill would read it back
      throw std::logic_error("sequential-fill preload: translation page of logical page " + std::to_string(lpn) +
                             " written back before the page (the cache should hold a translation page's runs)");
    space_.mark_valid(spn);
    cache_.set(lpn, spn, true);  // may write back the translation page of the run it evicts
    ctx_.hal.preload(space_.to_ppn(spn), lpn, token_of(lpn));
    ++counts_.flash_pages_programmed;
    maybe_start_gc();
    if (gc_victim_ != SegmentSpace::kNoSegment)
      throw std::logic_error("sequential-fill preload: GC found a victim with nothing overwritten");
  }
  refresh_gauges();
  return true;
}

}  // namespace ssd::fw
