#pragma once

#include <cstdint>
#include <limits>

namespace ssd::fw {

// Handle to an operation in the scheduler's pool. The generation makes a handle to a finished
// (and recycled) operation recognisably stale, so depending on it is a no-op.
struct OpRef {
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t index = kNone;
  std::uint32_t gen = 0;
  bool valid() const { return index != kNone; }
};

}  // namespace ssd::fw
