// An area of blocks the firmware keeps for itself, out of the FTL's space (SegmentSpace::
// hold_back): the power-loss dump area (fw/firmware/plp_dump.h) and the two slots of the map
// checkpoint (fw/recovery/map_checkpointer.h). Its blocks are taken from the end of a plane down,
// passing over factory-bad blocks and blocks another area took, and always leaving the plane a
// usable block. Two spreads:
// - every plane: the same number of blocks on every plane, as many as `pages` need (the dump,
//   which must program the whole buffer in the hold-up with every plane at work);
// - as needed: as many blocks as `pages` need, one a plane on consecutive planes in channel-first
//   order from a given position (a checkpoint: its few pages still program in parallel, and it
//   takes no more of the FTL's spare blocks than it fills).
// Pages are handed out across the area's columns (a plane's blocks, in order) in channel-first
// order, page k on column k mod columns, so consecutive pages go to different channels. A block
// that fails is retired: its pages are passed over from then on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/geometry.h"

namespace ssd::fw {

class ReservedArea {
 public:
  enum class Spread : std::uint8_t { EveryPlane, AsNeeded };
  // An area of at least `pages` pages. `taken` (one flag a block; null or empty: none) marks blocks
  // it may not use (factory-bad, or another area's); its own blocks are marked there too.
  // AsNeeded starts at the `first_plane`-th plane in channel-first order. Throws
  // std::invalid_argument, ending with `too_large`, when a plane has too few blocks left.
  ReservedArea(const FlashGeometry& geo, std::uint64_t pages, std::vector<bool>* taken, const std::string& too_large,
               Spread spread = Spread::EveryPlane, std::uint32_t first_plane = 0);

  // EveryPlane: in plane order, ascending within a plane; AsNeeded: in hand-out order.
  const std::vector<BlockId>& blocks() const { return blocks_; }
  // EveryPlane: blocks a plane.
  std::uint32_t blocks_per_plane() const { return depth_; }
  bool contains(BlockId b) const;
  // The next page (kNoPpn once every block not retired is full).
  Ppn next_page();
  std::uint64_t pages_taken() const { return taken_; }
  // After its blocks were erased: pages are handed out from the first again.
  void restart() { cursor_ = 0, taken_ = 0; }
  // A block whose program or erase failed: never handed out again.
  void retire(BlockId b);
  // Pages of its blocks not retired.
  std::uint64_t capacity_pages() const;

 private:
  // The last usable block of `plane` not taken, marked taken; throws when the plane would keep none.
  BlockId take(std::uint32_t plane, std::vector<bool>& taken, std::uint64_t pages, const std::string& too_large);

  FlashGeometry geo_;
  std::uint32_t depth_ = 0;                          // blocks a column
  std::vector<std::vector<std::uint32_t>> columns_;  // in hand-out order; a plane's blocks (indices in blocks_)
  std::vector<BlockId> blocks_;
  std::vector<bool> retired_;  // by index in blocks_
  std::uint64_t cursor_ = 0;   // next position in hand-out order (retired blocks' pages included)
  std::uint64_t taken_ = 0;
};

}  // namespace ssd::fw
