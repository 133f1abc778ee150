#include "fw/firmware/plp_dump.h"

#include <stdexcept>
#include <string>

namespace ssd::fw {

PlpDumpArea::PlpDumpArea(const FlashGeometry& geo, std::uint32_t pages) : geo_(geo) {
  const std::uint32_t planes = geo.total_planes();
  const std::uint64_t per_plane_pages = (std::uint64_t(pages) + planes - 1) / planes;
  per_plane_ = static_cast<std::uint32_t>((per_plane_pages + geo.pages_per_block - 1) / geo.pages_per_block);
  if (per_plane_ >= geo.blocks_per_plane)
    throw std::invalid_argument("the power-loss dump area for the write buffer's " + std::to_string(pages) +
                                " pages needs " + std::to_string(per_plane_) + " blocks a plane of " +
                                std::to_string(geo.blocks_per_plane) +
                                ": shrink the write buffer (firmware.write_buffer_dram_share) or use "
                                "firmware.plp_destage = ftl");
  for (std::uint32_t plane = 0; plane < planes; ++plane)
    for (std::uint32_t b = geo.blocks_per_plane - per_plane_; b < geo.blocks_per_plane; ++b)
      blocks_.push_back(geo.block_at(plane, b));
}

Ppn PlpDumpArea::next_page() {
  const std::uint32_t planes = geo_.total_planes();
  const std::uint64_t k = taken_ / planes;  // the page's index within its plane's share
  if (k >= std::uint64_t(per_plane_) * geo_.pages_per_block) return kNoPpn;
  const std::uint32_t plane = geo_.channel_first_plane(static_cast<std::uint32_t>(taken_ % planes));
  ++taken_;
  const BlockId block = geo_.block_at(plane, geo_.blocks_per_plane - per_plane_ + std::uint32_t(k / geo_.pages_per_block));
  return geo_.first_page(block) + std::uint32_t(k % geo_.pages_per_block);
}

}  // namespace ssd::fw
