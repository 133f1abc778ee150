#include "fw/firmware/reserved_area.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::fw {

ReservedArea::ReservedArea(const FlashGeometry& geo, std::uint64_t pages, std::vector<bool>* taken_or_null,
                           const std::string& too_large)
    : geo_(geo) {
  std::vector<bool> none;
  std::vector<bool>& taken = taken_or_null ? *taken_or_null : none;
  if (taken.empty()) taken.assign(geo.total_blocks(), false);
  const std::uint32_t planes = geo.total_planes();
  const std::uint64_t per_plane_pages = (pages + planes - 1) / planes;
  per_plane_ = static_cast<std::uint32_t>((per_plane_pages + geo.pages_per_block - 1) / geo.pages_per_block);
  for (std::uint32_t plane = 0; plane < planes; ++plane) {
    std::vector<BlockId> mine;
    std::uint32_t left = 0;  // usable blocks the plane keeps besides the area's
    for (std::uint32_t b = geo.blocks_per_plane; b-- > 0;) {
      const BlockId block = geo.block_at(plane, b);
      if (taken[block]) continue;
      if (mine.size() < per_plane_)
        mine.push_back(block);
      else
        ++left;
    }
    if (mine.size() < per_plane_ || left == 0)
      throw std::invalid_argument("an area of " + std::to_string(pages) + " pages needs " + std::to_string(per_plane_) +
                                  " blocks on each plane, and plane " + std::to_string(plane) + " has " +
                                  std::to_string(mine.size() + left) + " usable blocks of " +
                                  std::to_string(geo.blocks_per_plane) + ": " + too_large);
    std::reverse(mine.begin(), mine.end());
    for (BlockId block : mine) {
      taken[block] = true;
      blocks_.push_back(block);
    }
  }
  retired_.assign(blocks_.size(), false);
}

bool ReservedArea::contains(BlockId b) const { return std::find(blocks_.begin(), blocks_.end(), b) != blocks_.end(); }

Ppn ReservedArea::next_page() {
  const std::uint32_t planes = geo_.total_planes();
  const std::uint64_t end = std::uint64_t(planes) * per_plane_ * geo_.pages_per_block;
  while (cursor_ < end) {
    const std::uint64_t k = cursor_ / planes;  // the page's index within its plane's share
    const std::uint32_t plane_index = geo_.channel_first_plane(static_cast<std::uint32_t>(cursor_ % planes));
    ++cursor_;
    // blocks_ holds per_plane_ blocks of each plane, planes in order.
    const std::uint64_t slot = std::uint64_t(plane_index) * per_plane_ + k / geo_.pages_per_block;
    if (retired_[slot]) continue;
    ++taken_;
    return geo_.first_page(blocks_[slot]) + std::uint32_t(k % geo_.pages_per_block);
  }
  return kNoPpn;
}

void ReservedArea::retire(BlockId b) {
  const auto at = std::find(blocks_.begin(), blocks_.end(), b);
  if (at != blocks_.end()) retired_[std::size_t(at - blocks_.begin())] = true;
}

std::uint64_t ReservedArea::capacity_pages() const {
  return std::uint64_t(std::count(retired_.begin(), retired_.end(), false)) * geo_.pages_per_block;
}

}  // namespace ssd::fw
