// The SRAM cache of logical-to-physical mappings of the demand-based page-mapping FTLs.
//
// An entry maps a run of consecutive logical pages to consecutive segment pages: (first LPN,
// first SPN, length). DFTL's Cached Mapping Table is the case max_run = 1 with 8-byte entries
// (LPN + PPN); CAST's Compact Address Mapping Table allows runs up to 2^bits pages with the
// length field added to each entry (9 bytes for 8 bits, 8.5 for 4). The entry count is the byte
// budget divided by the entry size, as both papers count it (list links and dirty flags are not
// charged to the budget).
//
// Updates split the run that covered the page and merge the new mapping with a neighbouring run
// when logical and physical pages both continue it (CAST Figures 5 and 6). A run never crosses
// a translation page boundary, so a dirty run belongs to exactly one translation page.
//
// Replacement: segmented LRU (Karedla et al., as DFTL uses): new entries enter the
// probationary segment, a hit moves an entry to the protected segment, whose overflow falls
// back to probationary; victims come from probationary's LRU end. Plain LRU as an option.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/metrics.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/hal/hal.h"
#include "fw/runtime/firmware_costs.h"

namespace ssd::fw {

enum class Replacement : std::uint8_t { SegmentedLru, Lru };

struct MappingCacheConfig {
  Lpn logical_pages = 0;          // the logical space the cached mappings belong to
  std::uint64_t budget_bytes = 0;
  std::uint32_t entry_bits = 64;  // size of one entry in bits (64: LPN + PPN; 72: plus 8-bit length)
  std::uint32_t max_run = 1;
  std::uint32_t boundary = 1;     // runs never cross a multiple of this many logical pages
  Replacement replacement = Replacement::SegmentedLru;
  double protected_share = 0.5;   // segmented LRU: share of entries in the protected segment
};

class MappingCache {
 public:
  // Counts evictions in `metrics` (cmt_evictions, cmt_dirty_evictions).
  MappingCache(Hal& hal, const FirmwareCosts& costs, const MappingCacheConfig& config, MetricSet& metrics);

  std::uint32_t capacity() const { return capacity_; }
  std::uint64_t budget_bytes() const { return config_.budget_bytes; }
  std::uint32_t entries() const { return entries_; }
  std::uint64_t covered_pages() const { return covered_; }

  // Cached mapping of `lpn` (kNoSpn: not cached). Charged as a lookup and an entry access; a hit
  // promotes the entry.
  Spn lookup(Lpn lpn);
  // The same without charge or promotion (integrity checks, decisions already paid for).
  Spn peek(Lpn lpn) const;

  bool peek_dirty(Lpn lpn) const {
    const std::uint32_t s = find(lpn);
    return s != kNil && slots_[s].dirty;
  }
  const TableRegion& table() const { return table_; }

  // Maps `lpn` to `spn`, splitting and merging runs; may evict. A run is dirty when its
  // mapping is newer than the translation page on flash.
  void set(Lpn lpn, Spn spn, bool dirty);

  // Calls visit(lpn, spn) for every page of every dirty run inside [first, first + count) and
  // marks those runs clean (a batch update writing them to their translation page).
  void clean_range(Lpn first, Lpn count, const std::function<void(Lpn, Spn)>& visit);
  // The first page of every dirty run, without charge (in no particular order).
  std::vector<Lpn> dirty_runs() const;

  // Called when a dirty run must leave the cache, before it is dropped: the owner writes back
  // its translation page (normally through clean_range).
  std::function<void(Lpn first_lpn)> on_dirty_eviction;

 private:
  static constexpr std::uint32_t kNil = 0xffffffffu;
  enum List : std::uint8_t { kProbation = 0, kProtected = 1 };
  struct Entry {
    Lpn lpn = 0;
    Spn spn = 0;
    std::uint32_t length = 0;
    bool dirty = false;
    List list = kProbation;
    std::uint32_t prev = kNil, next = kNil;  // towards MRU / LRU
  };
  struct ListHead {
    std::uint32_t mru = kNil, lru = kNil, size = 0;
  };

  std::uint32_t find(Lpn lpn) const;  // slot of the run covering lpn, or kNil
  std::uint32_t new_entry(Lpn lpn, Spn spn, std::uint32_t length, bool dirty);
  void drop(std::uint32_t slot);  // unlink and free, no write-back
  void claim(std::uint32_t slot, Lpn first, std::uint32_t count);
  void unlink(std::uint32_t slot);
  void push_mru(std::uint32_t slot, List list);
  void insert_after(std::uint32_t slot, std::uint32_t anchor);  // same list, just LRU-ward of anchor
  void promote(std::uint32_t slot);
  void evict_one(std::uint32_t keep);
  bool mergeable(const Entry& left, const Entry& right) const;
  void touch(std::uint32_t slot, Access access);

  Hal& hal_;
  const FirmwareCosts& costs_;
  MappingCacheConfig config_;
  std::uint32_t capacity_, protected_capacity_;
  std::vector<Entry> slots_;
  std::vector<std::uint32_t> free_;
  // Which run covers each logical page (kNil: none). The simulator's index for O(1) lookups;
  // the firmware's search is charged as map_lookup cycles plus the entry's table access.
  std::vector<std::uint32_t> owner_;
  ListHead lists_[2];
  std::uint32_t entries_ = 0;
  std::uint64_t covered_ = 0;
  std::uint64_t &evictions_, &dirty_evictions_;
  TableRegion table_;
};

}  // namespace ssd::fw
