#pragma once

#include <cstdint>

#include "common/geometry.h"

namespace ssd::fw {

inline constexpr std::uint32_t kSectorBytes = 512;

// A host command as the firmware sees it after fetching it from the submission queue.
// Token arrays hold one entry per logical page the command touches (first to last).
struct HostCommand {
  std::uint32_t id = 0;  // unique among commands in flight
  bool write = false;
  std::uint64_t lba = 0;  // first 512-byte sector
  std::uint32_t sectors = 0;
  const Token* write_tokens = nullptr;  // write: the host's token for each page
  Token* read_tokens = nullptr;         // read: filled by the firmware before completion
  std::uint32_t issuer = 0;             // trace device / process / stream id
};

// Logical pages touched by a sector range.
struct PageSpan {
  Lpn first = 0;
  std::uint32_t count = 0;
};
inline PageSpan page_span(std::uint64_t lba, std::uint32_t sectors, std::uint32_t page_bytes) {
  const std::uint64_t begin = lba * kSectorBytes, end = (lba + sectors) * kSectorBytes;
  const std::uint64_t first = begin / page_bytes, last = (end - 1) / page_bytes;
  return PageSpan{static_cast<Lpn>(first), static_cast<std::uint32_t>(last - first + 1)};
}

}  // namespace ssd::fw
