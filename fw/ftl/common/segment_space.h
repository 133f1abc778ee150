// Erase units for FTLs that address pages in allocation order (DFTL, CAST): a segment is the
// block with the same index on each plane of a plane group, erased and reclaimed together.
// Its pages are numbered in the order a write frontier fills them -- page 0 of every member
// block (members in channel-first order), then page 1, ... -- so consecutive segment page
// numbers (SPNs) are consecutive allocations striped over channels and dies. That numbering is
// what lets a mapping run (first LPN, first SPN, length) describe a multi-page write that was
// spread over the whole array.
//
// segment_planes = all planes: one group, every write stripes over the array (default).
// segment_planes = 1: segments are single blocks; frontiers open them round-robin over planes.
#pragma once

#include <cstdint>
#include <vector>

#include "fw/ftl/common/valid_page_map.h"
#include "fw/hal/hal.h"
#include "fw/runtime/firmware_costs.h"

namespace ssd::fw {

using Spn = std::uint32_t;  // segment page number
inline constexpr Spn kNoSpn = 0xffffffffu;

enum class SegmentState : std::uint8_t { Free, Open, Closed, Reclaiming };
enum class VictimPolicy : std::uint8_t { Greedy, CostBenefit };

class SegmentSpace {
 public:
  // frontier_kinds: one entry per write frontier, the kind (caller-defined, e.g. data or
  // translation) its segments get. reserve: free segments only privileged allocations may take.
  SegmentSpace(Hal& hal, const FirmwareCosts& costs, std::uint32_t segment_planes,
               std::vector<std::uint8_t> frontier_kinds, std::uint32_t reserve);

  std::uint32_t segments() const { return segments_; }
  std::uint32_t segment_pages() const { return segment_pages_; }
  std::uint32_t segment_planes() const { return width_; }
  std::uint64_t total_pages() const { return std::uint64_t(segments_) * segment_pages_; }
  std::uint32_t segment_of(Spn spn) const { return spn / segment_pages_; }
  Spn first_spn(std::uint32_t segment) const { return segment * segment_pages_; }
  Ppn to_ppn(Spn spn) const;
  Spn to_spn(Ppn ppn) const;
  std::vector<BlockId> blocks(std::uint32_t segment) const;

  // Next page of a frontier, opening a free segment when its current one is full; kNoSpn when
  // the frontier needs a segment and may not take one. `now` is the caller's virtual clock.
  // A segment a privileged allocation opened out of the reserve is privileged-only while the
  // reserve is short (GC copying into a block the host also writes must not see the host use
  // up the space it took for its copies).
  Spn allocate(std::uint32_t frontier, bool privileged, std::uint64_t now);
  bool can_allocate(std::uint32_t frontier, bool privileged) const;
  // Counts segments the frontier has opened (so callers can tell when it moved to a new one).
  std::uint64_t frontier_generation(std::uint32_t frontier) const { return frontiers_[frontier].generation; }

  // For FTLs that write segments at chosen offsets themselves (hybrid log-block schemes): takes
  // a free segment of `kind` regardless of the reserve (kNoSegment when none is free).
  std::uint32_t take(std::uint8_t kind);
  void set_kind(std::uint32_t segment, std::uint8_t kind) { kind_[segment] = kind; }

  // Preconditioning: takes a free segment as already written up to `programmed` pages, of
  // `kind`; as `frontier`'s open segment (programmed < segment pages), or closed with
  // kNoFrontier. The caller preloads the pages and marks the valid ones.
  std::uint32_t preload(std::uint8_t kind, std::uint32_t programmed, std::uint32_t frontier);
  static constexpr std::uint32_t kNoFrontier = 0xffffffffu;

  void mark_valid(Spn spn) { valid_.mark_valid(spn); }
  void invalidate(Spn spn, std::uint64_t now);
  bool is_valid(Spn spn) const { return valid_.is_valid(spn); }
  std::uint32_t valid_count(std::uint32_t segment) const { return valid_.valid_count(segment); }
  SegmentState state(std::uint32_t segment) const { return state_[segment]; }
  std::uint8_t kind(std::uint32_t segment) const { return kind_[segment]; }

  // Closed segment to reclaim: fewest valid pages (greedy) or highest (1 - u) / 2u x age
  // (cost-benefit, Kawaguchi et al.; age = time since the segment last changed). kNoSegment
  // when none is closed.
  std::uint32_t choose_victim(VictimPolicy policy, std::uint64_t now);
  void begin_reclaim(std::uint32_t segment);
  void finish_reclaim(std::uint32_t segment);  // after all its blocks are erased

  std::uint32_t free_segments() const { return free_count_; }
  std::uint32_t erase_count(std::uint32_t segment) const { return erase_count_[segment]; }

  static constexpr std::uint32_t kNoSegment = 0xffffffffu;

 private:
  struct Frontier {
    std::uint8_t kind = 0;
    std::uint32_t segment = kNoSegment;
    std::uint32_t next = 0;
    std::uint64_t generation = 0;
    bool from_reserve = false;
  };
  std::uint32_t take_free(bool privileged);  // kNoSegment when none may be taken

  Hal& hal_;
  const FirmwareCosts& costs_;
  FlashGeometry geo_;
  std::uint32_t width_, groups_, segments_, segment_pages_, reserve_;
  std::vector<std::uint32_t> member_plane_;  // group * width + member -> global plane
  std::vector<std::uint32_t> member_of_plane_;  // global plane -> member index in its group
  std::vector<std::uint32_t> group_of_plane_;
  std::vector<SegmentState> state_;
  std::vector<std::uint8_t> kind_;
  std::vector<std::uint32_t> erase_count_;
  std::vector<std::uint64_t> changed_at_;  // virtual time of the last write or invalidation
  std::vector<std::vector<std::uint32_t>> free_;  // per group, used as a stack
  std::uint32_t free_count_ = 0, group_cursor_ = 0;
  std::vector<Frontier> frontiers_;
  ValidPageMap valid_;
};

}  // namespace ssd::fw
