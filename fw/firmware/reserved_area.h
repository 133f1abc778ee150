// An area of blocks the firmware keeps for itself, out of the FTL's space (SegmentSpace::
// hold_back): the power-loss dump area (fw/firmware/plp_dump.h) and the two slots of the map
// checkpoint (fw/recovery/map_checkpointer.h). It takes the same number of blocks on every plane,
// as many as `pages` need, from the end of the plane down, passing over factory-bad blocks and
// blocks another area took; its pages are handed out planes first in channel-first order (page k
// on the (k mod planes)-th plane), so consecutive pages go to different channels and the dies
// program in parallel. A block that fails is retired: its pages are passed over from then on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/geometry.h"

namespace ssd::fw {

class ReservedArea {
 public:
  // An area of at least `pages` pages. `taken` (one flag a block; null or empty: none) marks blocks
  // it may not use (factory-bad, or another area's); its own blocks are marked there too. Throws
  // std::invalid_argument, ending with `too_large`, when a plane has too few blocks left.
  ReservedArea(const FlashGeometry& geo, std::uint64_t pages, std::vector<bool>* taken, const std::string& too_large);

  // In plane order, ascending within a plane.
  const std::vector<BlockId>& blocks() const { return blocks_; }
  std::uint32_t blocks_per_plane() const { return per_plane_; }
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
  FlashGeometry geo_;
  std::uint32_t per_plane_ = 0;
  std::vector<BlockId> blocks_;
  std::vector<bool> retired_;   // by index in blocks_
  std::uint64_t cursor_ = 0;    // next position in hand-out order (retired blocks' pages included)
  std::uint64_t taken_ = 0;
};

}  // namespace ssd::fw
