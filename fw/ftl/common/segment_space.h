// The one block/segment space of the firmware: free pools, write frontiers, valid pages,
// victim choice and reclaim for every FTL (page mapping, DFTL/CAST, the hybrids, and the
// ADAPT/MNK schemes to come). A segment is the block with the same index on each plane of a
// plane group, erased and reclaimed together; a segment of one block on one plane is the
// degenerate case (plain physical blocks).
//
// A segment's pages are numbered in the order a write frontier fills them -- page 0 of every
// member block (members in channel-first order), then page 1, ... -- so consecutive segment page
// numbers (SPNs) are consecutive allocations striped over channels and dies. That numbering is
// what lets a mapping run (first LPN, first SPN, length) describe a multi-page write that was
// spread over the whole array.
//
// Two layouts:
// - Striped (DFTL, CAST, hybrids): plane groups of `segment_planes` planes taken channel first.
//   segment_planes = all planes: one group, every write stripes over the array; 1: segments are
//   single blocks. Frontiers roam: each new segment comes from the next group round-robin, and
//   the reserve counts the free segments of the whole space.
// - PlaneBlocks (page mapping): one block per segment and groups in physical plane order, so a
//   segment is its BlockId and an SPN is its PPN. Each plane has its own frontiers (one per
//   stream) pinned to it, and the reserve counts that plane's free blocks.
//
// Bad blocks. The format's scan of the factory markers (Hal::factory_bad_blocks) takes them out
// before anything is allocated. A segment of one block holding a bad block is retired. Wider
// segments are built from each plane's good blocks: segment slot k of a plane group takes the k-th
// good block of each member plane, and the R highest slots of a group (R: its member planes' most
// bad blocks) are retired, their good blocks kept as the planes' spares. A block that fails in use
// (mark_bad: a program's or an erase's status) makes its segment retiring: no frontier writes it
// further, and once reclaimed (its data moved, its blocks erased) each bad member is replaced by a
// spare of its plane, or, with none left, the segment is retired and its good members become
// spares. Retired segments are never free again; once the usable segments (neither retired nor
// retiring beyond repair by the spares left) fall below what the FTL needs (set_capacity_need),
// the space is read-only.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/metrics.h"
#include "common/narrow_division.h"
#include "fw/ftl/common/valid_page_map.h"
#include "fw/ftl/common/wear_leveling.h"
#include "fw/hal/hal.h"
#include "fw/runtime/firmware_costs.h"

namespace ssd::fw {

using Spn = std::uint32_t;  // segment page number
inline constexpr Spn kNoSpn = 0xffffffffu;

enum class SegmentState : std::uint8_t { Free, Open, Closed, Reclaiming, Retired };
enum class VictimPolicy : std::uint8_t { Greedy, CostBenefit };

class SegmentSpace {
 public:
  // Striped layout. frontier_kinds: one entry per write frontier, the kind (caller-defined,
  // e.g. data or translation) its segments get. reserve: free segments only privileged
  // allocations may take.
  SegmentSpace(Hal& hal, const FirmwareCosts& costs, std::uint32_t segment_planes,
               std::vector<std::uint8_t> frontier_kinds, std::uint32_t reserve);

  // PlaneBlocks layout: `streams` frontiers per plane (frontier plane * streams + stream, see
  // plane_frontier); reserve: free blocks per plane only privileged allocations may take.
  struct PlaneBlocks {
    std::uint32_t streams;
  };
  SegmentSpace(Hal& hal, const FirmwareCosts& costs, PlaneBlocks layout, std::uint32_t reserve);

  const FlashGeometry& geometry() const { return geo_; }
  std::uint32_t segments() const { return segments_; }
  std::uint32_t segment_pages() const { return segment_pages_; }
  std::uint32_t segment_planes() const { return width_; }
  std::uint32_t groups() const { return groups_; }
  std::uint64_t total_pages() const { return std::uint64_t(segments_) * segment_pages_; }
  std::uint32_t segment_of(Spn spn) const { return spn / segment_pages_; }
  std::uint32_t group_of(std::uint32_t segment) const { return segment / geo_.blocks_per_plane; }
  Spn first_spn(std::uint32_t segment) const { return segment * segment_pages_; }
  // Single-block segments in physical plane order (PlaneBlocks) number pages as the flash does.
  Ppn to_ppn(Spn spn) const { return identity_ ? spn : striped_to_ppn(spn); }
  Spn to_spn(Ppn ppn) const { return identity_ ? ppn : striped_to_spn(ppn); }
  std::vector<BlockId> blocks(std::uint32_t segment) const;

  // Global plane index of the k-th plane in channel-first order, so consecutive allocations
  // striped over planes go to different channels, then different ways, dies and planes.
  std::uint32_t stripe_plane(std::uint64_t k) const {
    return stripe_[remainder_of(k, static_cast<std::uint32_t>(stripe_.size()))];
  }
  // PlaneBlocks: the frontier of `stream` on `plane`.
  std::uint32_t plane_frontier(std::uint32_t plane, std::uint32_t stream) const { return plane * streams_ + stream; }

  // Next page of a frontier, opening a free segment when its current one is full; kNoSpn when
  // the frontier needs a segment and may not take one. `now` is the caller's virtual clock.
  // A segment a privileged allocation opened out of the reserve is privileged-only while the
  // reserve is short (GC copying into a block the host also writes must not see the host use
  // up the space it took for its copies).
  Spn allocate(std::uint32_t frontier, bool privileged, std::uint64_t now);
  // Preconditioning: what `pages` unprivileged allocate(frontier, ...) calls in a row do to the
  // space, without their cost. Returns the pages taken as runs within segments, in order.
  // Throws std::logic_error when the frontier would run out of room on the way.
  struct PageRun {
    Spn first;
    std::uint32_t count;
  };
  std::vector<PageRun> advance_frontier(std::uint32_t frontier, std::uint64_t pages, std::uint64_t now);
  bool can_allocate(std::uint32_t frontier, bool privileged) const;
  std::uint32_t frontier_count() const { return static_cast<std::uint32_t>(frontiers_.size()); }
  // Counts segments the frontier has opened (so callers can tell when it moved to a new one).
  std::uint64_t frontier_generation(std::uint32_t frontier) const { return frontiers_[frontier].generation; }
  // Pages every frontier can still write in its open segment.
  std::uint64_t open_room() const {
    std::uint64_t room = 0;
    for (std::uint32_t f = 0; f < frontiers_.size(); ++f) room += frontier_room(f);
    return room;
  }
  // Pages the frontier can still write in its open segment (0 when it has none open).
  std::uint32_t frontier_room(std::uint32_t frontier) const {
    const Frontier& f = frontiers_[frontier];
    return f.segment == kNoSegment ? 0 : capacity(f) - f.next;
  }
  // A frontier whose segments are written in SLC mode on a part of several bits a cell: it gives
  // its segments `kind`, closes each once its member blocks hold `pages` pages each (one a word
  // line: close_word_lines pads none), and is told apart by slc_frontier().
  void make_slc_frontier(std::uint32_t frontier, std::uint8_t kind, std::uint32_t pages);
  bool slc_frontier(std::uint32_t frontier) const { return frontiers_[frontier].pages != 0; }
  // The Closed segment of `kind` in the plane group with the fewest valid pages (kNoSegment: none).
  std::uint32_t fewest_valid_of_kind(std::uint32_t group, std::uint8_t kind) const;

  // Word-line safety (Ftl::close_word_lines): `word_line_pages` consecutive pages of a block
  // share a word line, and a segment fills its member blocks row by row, so its word lines are
  // all closed when its next page is a multiple of word_line_pages x members (or at its end).
  // The pages from `next` to there.
  std::uint32_t word_line_gap(std::uint32_t next, std::uint32_t word_line_pages) const {
    const std::uint32_t unit = word_line_pages * width_;
    if (word_line_pages <= 1 || next == 0 || next % unit == 0) return 0;
    return std::min(unit - next % unit, segment_pages_ - next);
  }
  // Takes the pages that close the frontier's open word lines, as allocate() would, and hands
  // each to `pad` (which programs it); only if its segment holds `only` (kNoBlock: any). Returns
  // how many.
  std::uint32_t close_word_lines(std::uint32_t frontier, std::uint32_t word_line_pages, BlockId only,
                                 const std::function<void(Spn)>& pad);

  // For FTLs that write segments at chosen offsets themselves (hybrid log-block schemes): takes
  // a free segment of `kind` regardless of the reserve (kNoSegment when none is free).
  std::uint32_t take(std::uint8_t kind);
  // The same from one plane group (load balancing over module groups: MNK).
  std::uint32_t take_in_group(std::uint8_t kind, std::uint32_t group);
  void set_kind(std::uint32_t segment, std::uint8_t kind) { kind_[segment] = kind; }

  // Preconditioning: takes a free segment as already written up to `programmed` pages, of
  // `kind`; as `frontier`'s open segment (programmed < segment pages), or closed with
  // kNoFrontier. It comes from the frontier's plane when the frontier is pinned to one, else
  // from `group` when one is given, else round-robin. The caller preloads the pages and marks
  // the valid ones.
  std::uint32_t preload(std::uint8_t kind, std::uint32_t programmed, std::uint32_t frontier,
                        std::uint32_t group = kAnyGroup);
  static constexpr std::uint32_t kNoFrontier = 0xffffffffu;
  static constexpr std::uint32_t kAnyGroup = 0xffffffffu;

  // A mount after a power cut (Ftl::mount): a free segment the boot found written takes `kind`
  // and is closed, whatever of it is still unwritten (the pages after a write pointer the cut
  // stopped may sit on a word line it left half programmed: not written further, the segment is
  // reclaimed as any other). The caller marks its valid pages.
  void adopt_written(std::uint32_t segment, std::uint8_t kind);
  // A mount's valid page: marked uncharged, the tables charged whole once the mount has marked
  // them all (charge_rebuilt_valid_pages: one sequential write of each instead of one access a
  // page, which on 128 GiB would be 32 million).
  void mount_valid(Spn spn) { valid_.mark_valid_range(spn, 1); }
  void charge_rebuilt_valid_pages() { valid_.touch_all(); }

  void mark_valid(Spn spn) { valid_.mark_valid(spn); }
  void mark_valid_run(const PageRun& run) { valid_.mark_valid_range(run.first, run.count); }
  // Preconditioning, for a sequential fill laid out directly: pages [0, count) of `segment` hold
  // logical pages first_lpn, first_lpn + 1, ... (token_of each), preloaded member block by
  // member block and marked valid, each member's sequence numbered as a fill writing logical
  // page x as the array's (x + 1)-th program would number it.
  void preload_in_order(std::uint32_t segment, Lpn first_lpn, std::uint32_t count,
                        const std::function<Token(Lpn)>& token_of);
  void invalidate(Spn spn, std::uint64_t now);
  bool is_valid(Spn spn) const { return valid_.is_valid(spn); }
  // Whether the physical page holds a valid page of some segment (a spare block's never does).
  bool holds_valid(Ppn ppn) const {
    const Spn spn = to_spn(ppn);
    return spn != kNoSpn && valid_.is_valid(spn);
  }
  std::uint32_t valid_count(std::uint32_t segment) const { return valid_.valid_count(segment); }
  SegmentState state(std::uint32_t segment) const { return state_[segment]; }
  std::uint8_t kind(std::uint32_t segment) const { return kind_[segment]; }

  // Closed segment to reclaim: fewest valid pages (greedy) or highest (1 - u) / 2u x age
  // (cost-benefit, Kawaguchi et al.; age = time since the segment last changed); the first in
  // segment order among equals. Over the whole space, or over one plane group's segments.
  // kNoSegment when none is closed.
  std::uint32_t choose_victim(VictimPolicy policy, std::uint64_t now);
  std::uint32_t choose_victim_in_group(std::uint32_t group, VictimPolicy policy, std::uint64_t now);
  void begin_reclaim(std::uint32_t segment);
  // Whether the last victim chosen is static wear leveling's (cold data to move): reclaim it even
  // with every page valid, which frees nothing this time but frees the young block.
  bool wear_victim(std::uint32_t segment) const { return segment == wear_victim_; }
  void finish_reclaim(std::uint32_t segment);  // after all its blocks are erased

  std::uint32_t free_segments() const { return free_count_; }
  // Preloads lay out a drive nothing was written to: throws std::logic_error naming `what`
  // unless every segment is free.
  void require_fresh(const char* what) const;
  std::uint32_t free_segments_in_group(std::uint32_t group) const {
    return static_cast<std::uint32_t>(free_[group].size());
  }
  std::uint32_t erase_count(std::uint32_t segment) const { return erase_count_[segment]; }

  // --- Bad blocks (see the top of this file) ---
  // A program or erase of `block` reported failure. Returns the segment it belongs to (now
  // retiring), or kNoSegment when it was already known bad.
  std::uint32_t mark_bad(BlockId block);
  bool is_bad(BlockId block) const { return !bad_.empty() && bad_[block]; }
  // An aged drive (--precondition ...+pe:N): blocks that went bad before the run, as the
  // firmware's persisted bad-block table holds them, left out like the factory's. Fresh space only.
  void adopt_bad_blocks(const std::vector<BlockId>& worn);
  // Blocks the firmware keeps for itself (the power-loss dump area, fw/firmware/plp_dump.h; the
  // map checkpoint's slots, fw/recovery/map_checkpointer.h), left
  // out like bad blocks but counted apart (held_blocks; not in bad_block_counts). Fresh space only.
  // Throws ResourceError when what is left is less than the FTL needs.
  void hold_back(const std::vector<BlockId>& blocks);
  std::uint64_t held_blocks() const { return held_; }
  // The segment holds a block that failed: write nothing more to it (a hybrid checks before
  // writing a data or log block it took; frontiers stop at once).
  bool retiring(std::uint32_t segment) const { return !retiring_.empty() && retiring_[segment]; }
  // The segment holding `block` (kNoSegment: a spare, or a retired segment's block).
  std::uint32_t segment_of_block(BlockId block) const;
  // The usable segments (per plane group when frontiers are pinned to planes, else in all) the
  // FTL needs to keep its logical capacity and its reserve; fewer than that plus the margin
  // (set_read_only_margin): read_only(), so the work in flight when it turns can still finish.
  // `overhead`, pinned layouts: the part of `segments` that is not data (reserve, frontiers); a
  // group whose valid pages fill more segments than its even share of the data needs those plus
  // the overhead (data does not move between pinned groups).
  // Throws ResourceError (fw/hal/table_placer.h) when the factory's bad blocks already leave fewer.
  void set_capacity_need(std::uint32_t segments, std::uint32_t overhead = 0);
  // The margin is set at format: a drive its factory bad blocks already leave read-only is a
  // ResourceError too.
  void set_read_only_margin(std::uint32_t segments);
  bool read_only() const { return read_only_since_ != 0; }
  // When it turned read-only (kernel ticks; 1: at format; 0: it has not).
  std::uint64_t read_only_since() const { return read_only_since_; }
  // Segments not retired: in all, and the fewest of any plane group (layouts that fill every
  // group alike, e.g. a steady-state preload, use that many per group).
  std::uint32_t usable_segments() const { return segments_ - retired_ - doomed_; }
  std::uint32_t usable_in_group(std::uint32_t g) const {
    return geo_.blocks_per_plane - retired_in_group_[g] - doomed_in_group_[g];
  }
  std::uint32_t fewest_usable_in_group() const {
    std::uint32_t most_retired = 0;
    for (std::uint32_t g = 0; g < groups_; ++g)
      most_retired = std::max(most_retired, retired_in_group_[g] + doomed_in_group_[g]);
    return geo_.blocks_per_plane - most_retired;
  }
  struct BadBlockCounts {
    std::uint64_t factory = 0, grown = 0, replaced = 0, retired_segments = 0, spares = 0;
  };
  BadBlockCounts bad_block_counts() const;
  // Keeps gauges retired_segments, spare_blocks, usable_segments, bad_block_replacements and
  // read_only_since_ticks in `metrics` up to date.
  void publish_bad_blocks(MetricSet& metrics);

  // Wear leveling (fw/ftl/common/wear_leveling.h); its static victims are counted in
  // `metrics` ("wear_leveling_victims").
  void set_wear_leveling(const WearLeveling& w, MetricSet& metrics);
  // An aged drive: each segment's erase count becomes its most-erased member block's.
  template <typename EraseCount>
  void adopt_erase_counts(EraseCount erase_count) {
    for (std::uint32_t s = 0; s < segments_; ++s) {
      if (state_[s] == SegmentState::Retired) continue;
      std::uint32_t most = 0;
      for (BlockId b : blocks(s)) most = std::max<std::uint32_t>(most, erase_count(b));
      erase_count_[s] = most;
    }
  }
  std::uint64_t erases_in_group(std::uint32_t group) const { return group_erases_[group]; }

  static constexpr std::uint32_t kNoSegment = 0xffffffffu;

 private:
  struct Frontier {
    std::uint8_t kind = 0;
    std::uint32_t group = kAnyGroup;  // pinned to one plane group, or roaming
    std::uint32_t segment = kNoSegment;
    std::uint32_t next = 0;
    std::uint64_t generation = 0;
    bool from_reserve = false;
    std::uint32_t pages = 0;  // SLC mode: the pages its segments take (0: all of them)
  };
  std::uint32_t capacity(const Frontier& f) const { return f.pages ? f.pages : segment_pages_; }
  SegmentSpace(Hal& hal, const FirmwareCosts& costs, std::uint32_t segment_planes, bool striped, std::uint32_t reserve,
               const char* table_name, std::uint32_t count_bytes);
  // Free segments the frontier may draw from: its group's when pinned, else the whole space's.
  std::uint32_t free_for(const Frontier& f) const {
    return f.group == kAnyGroup ? free_count_ : free_segments_in_group(f.group);
  }
  Ppn striped_to_ppn(Spn spn) const;
  Spn striped_to_spn(Ppn ppn) const;
  // The block in plane of a segment slot (its index within its group) on `plane`.
  std::uint32_t slot_block(std::uint32_t plane, std::uint32_t slot) const {
    return slot_block_.empty() ? slot : slot_block_[plane][slot];
  }
  void lay_out(const std::vector<BlockId>& bad);
  // `blocks` and every block left out so far (bad, or held back): what a new layout leaves out.
  std::vector<BlockId> and_excluded(std::vector<BlockId> blocks) const;
  void exclude(const std::vector<BlockId>& bad);
  void remap_from_good_blocks(std::uint32_t group);
  bool replace_bad_members(std::uint32_t segment);
  void retire(std::uint32_t segment);
  void count_doomed();
  [[noreturn]] void refuse_factory_layout() const;
  void update_read_only();                          // and the published gauges
  void open_segment(Frontier& f, bool privileged);  // the frontier's next segment (allowed: can_allocate)
  std::uint32_t take_free(bool privileged);         // round-robin over groups; kNoSegment when none may be taken
  std::uint32_t take_free_in(std::uint32_t group, bool privileged);
  std::uint32_t scan_victim(std::uint32_t first, std::uint32_t count, VictimPolicy policy, std::uint64_t now);
  // dynamic wear leveling: the pool's least-erased segment to its back, where taking pops it
  void youngest_to_back(std::vector<std::uint32_t>& pool);

  Hal& hal_;
  const FirmwareCosts& costs_;
  FlashGeometry geo_;
  std::uint32_t width_, groups_, segments_, segment_pages_, reserve_, streams_ = 0;
  bool identity_;                               // SPN == PPN
  std::vector<std::uint32_t> stripe_;           // channel-first order of all planes
  std::vector<std::uint32_t> member_plane_;     // group * width + member -> global plane
  std::vector<std::uint32_t> member_of_plane_;  // global plane -> member index in its group
  std::vector<std::uint32_t> group_of_plane_;
  std::vector<SegmentState> state_;
  std::vector<std::uint8_t> kind_;
  std::vector<std::uint32_t> erase_count_;
  std::vector<std::uint64_t> group_erases_;       // per plane group: its segments' erases
  std::vector<std::uint64_t> changed_at_;         // virtual time of the last write or invalidation
  std::vector<std::vector<std::uint32_t>> free_;  // per group, used as a stack
  std::uint32_t free_count_ = 0, group_cursor_ = 0;
  std::vector<Frontier> frontiers_;
  ValidPageMap valid_;
  WearLeveling wear_;
  std::uint64_t* wear_victims_ = nullptr;
  std::vector<bool> wear_moved_last_;  // per reclaim scope (a group, or the whole space at 0)
  std::uint32_t wear_victim_ = kNoSegment;
  // Bad blocks
  bool pinned_;                                         // frontiers pinned to plane groups (PlaneBlocks)
  std::vector<bool> bad_;                               // per block: factory or grown bad (empty: none)
  std::vector<bool> retiring_;                          // per segment (empty: none)
  std::vector<std::vector<std::uint32_t>> slot_block_;  // per plane: slot -> block in plane (empty: identity)
  std::vector<std::uint32_t> block_slot_;               // per block: its slot, or kNoSegment (a spare)
  std::vector<std::vector<std::uint32_t>> spares_;      // per plane: spare blocks in plane
  // Retiring segments, and of them the doomed: those the spares left cannot repair (to be retired)
  std::vector<std::uint32_t> retiring_list_;
  std::vector<std::uint32_t> retired_in_group_, doomed_in_group_;
  std::uint32_t retired_ = 0, doomed_ = 0, need_ = 0, overhead_ = 0, margin_ = 0;
  std::uint64_t factory_bad_ = 0, grown_bad_ = 0, replaced_ = 0;
  std::uint64_t held_ = 0;          // hold_back's blocks
  std::uint32_t held_retired_ = 0;  // the segments they retired (not counted as bad blocks' doing)
  std::uint64_t read_only_since_ = 0;
  double *retired_gauge_ = nullptr, *spares_gauge_ = nullptr, *usable_gauge_ = nullptr, *replaced_gauge_ = nullptr,
         *read_only_gauge_ = nullptr;
};

}  // namespace ssd::fw
