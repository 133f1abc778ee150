#include "fw/firmware/reserved_area.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::fw {

ReservedArea::ReservedArea(const FlashGeometry& geo, std::uint64_t pages, std::vector<bool>* taken_or_null,
                           const std::string& too_large, Spread spread, std::uint32_t first_plane)
    : geo_(geo) {
  std::vector<bool> none;
  std::vector<bool>& taken = taken_or_null ? *taken_or_null : none;
  if (taken.empty()) taken.assign(geo.total_blocks(), false);
  const std::uint32_t planes = geo.total_planes();
  const std::uint64_t blocks_needed = (pages + geo.pages_per_block - 1) / geo.pages_per_block;
  if (spread == Spread::EveryPlane) {
    const std::uint64_t per_plane_pages = (pages + planes - 1) / planes;
    depth_ = static_cast<std::uint32_t>((per_plane_pages + geo.pages_per_block - 1) / geo.pages_per_block);
    std::vector<std::vector<std::uint32_t>> by_plane(planes);
    for (std::uint32_t plane = 0; plane < planes; ++plane) {
      std::vector<BlockId> mine;
      for (std::uint32_t k = 0; k < depth_; ++k) mine.push_back(take(plane, taken, pages, too_large));
      for (auto b = mine.rbegin(); b != mine.rend(); ++b) {  // ascending within the plane
        by_plane[plane].push_back(static_cast<std::uint32_t>(blocks_.size()));
        blocks_.push_back(*b);
      }
    }
    // Hand-out order: column k is the plane channel_first_plane(k).
    for (std::uint32_t k = 0; k < planes; ++k) columns_.push_back(by_plane[geo.channel_first_plane(k)]);
  } else {
    depth_ = 1;
    for (std::uint64_t k = 0; k < std::max<std::uint64_t>(1, blocks_needed); ++k) {
      const auto plane = geo.channel_first_plane(static_cast<std::uint32_t>((first_plane + k) % planes));
      columns_.push_back({static_cast<std::uint32_t>(blocks_.size())});
      blocks_.push_back(take(plane, taken, pages, too_large));
    }
  }
  retired_.assign(blocks_.size(), false);
}

BlockId ReservedArea::take(std::uint32_t plane, std::vector<bool>& taken, std::uint64_t pages,
                           const std::string& too_large) {
  BlockId found = kNoBlock;
  std::uint32_t usable = 0;
  for (std::uint32_t b = geo_.blocks_per_plane; b-- > 0;) {
    const BlockId block = geo_.block_at(plane, b);
    if (taken[block]) continue;
    ++usable;
    if (found == kNoBlock) found = block;
  }
  if (usable < 2)  // the plane keeps at least one block for the FTL
    throw std::invalid_argument("an area of " + std::to_string(pages) + " pages takes too many blocks of plane " +
                                std::to_string(plane) + " (" + std::to_string(geo_.blocks_per_plane) + " blocks, " +
                                std::to_string(usable) + " usable left): " + too_large);
  taken[found] = true;
  return found;
}

bool ReservedArea::contains(BlockId b) const { return std::find(blocks_.begin(), blocks_.end(), b) != blocks_.end(); }

Ppn ReservedArea::next_page() {
  const std::uint64_t columns = columns_.size();
  const std::uint64_t end = columns * depth_ * geo_.pages_per_block;
  while (cursor_ < end) {
    const std::vector<std::uint32_t>& column = columns_[cursor_ % columns];
    const std::uint64_t k = cursor_ / columns;  // the page's index within its column
    ++cursor_;
    const std::uint32_t index = column[k / geo_.pages_per_block];
    if (retired_[index]) continue;
    ++taken_;
    return geo_.first_page(blocks_[index]) + std::uint32_t(k % geo_.pages_per_block);
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
