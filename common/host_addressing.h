// How the host addresses the drive: 512-byte sectors (logical block addresses), and the logical
// pages of the drive's page size that a sector range touches. Shared by the host side (trace
// readers, admission, the host model and its integrity oracle) and the firmware, which splits
// commands by the same rule; neither needs the other for it.
#pragma once

#include <cstdint>

#include "common/geometry.h"
#include "common/narrow_division.h"

namespace ssd {

inline constexpr std::uint32_t kSectorBytes = 512;

// Logical pages touched by a sector range.
struct PageSpan {
  Lpn first = 0;
  std::uint32_t count = 0;
};
// (Pages are whole sectors: counted in sectors, the addresses of drives below 2 TiB divide in 32 bits.)
inline PageSpan page_span(std::uint64_t lba, std::uint32_t sectors, std::uint32_t page_bytes) {
  const std::uint32_t page_sectors = page_bytes / kSectorBytes;
  const std::uint64_t first = quotient_of(lba, page_sectors), last = quotient_of(lba + sectors - 1, page_sectors);
  return PageSpan{static_cast<Lpn>(first), static_cast<std::uint32_t>(last - first + 1)};
}

// Logical pages a sector range covers whole (a trim deallocates only these; common/host_op.h):
// count 0 when it covers none.
inline PageSpan whole_page_span(std::uint64_t lba, std::uint32_t sectors, std::uint32_t page_bytes) {
  const std::uint32_t page_sectors = page_bytes / kSectorBytes;
  const std::uint64_t first = quotient_of(lba + page_sectors - 1, page_sectors), end = quotient_of(lba + sectors, page_sectors);
  return end > first ? PageSpan{static_cast<Lpn>(first), static_cast<std::uint32_t>(end - first)} : PageSpan{static_cast<Lpn>(first), 0};
}

}  // namespace ssd
