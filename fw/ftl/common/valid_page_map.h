// Which pages hold live data, as a bitmap plus a valid-page count per erase unit (block or
// segment). Both live in firmware tables, so every update is charged as a memory access.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fw/hal/hal.h"

namespace ssd::fw {

class ValidPageMap {
 public:
  // count_bytes: width of one unit's count in the table (2 for blocks of up to 65535 pages).
  ValidPageMap(Hal& hal, const std::string& name, std::uint64_t pages, std::uint32_t pages_per_unit,
               std::uint32_t count_bytes);

  void mark_valid(std::uint64_t page);
  // Preconditioning: marks pages [first, first + count) of one unit valid at once, uncharged.
  void mark_valid_range(std::uint64_t first, std::uint32_t count);
  void invalidate(std::uint64_t page);  // throws std::logic_error when the page is not valid
  bool is_valid(std::uint64_t page) const { return (bits_[page >> 6] >> (page & 63)) & 1u; }
  std::uint32_t valid_count(std::uint64_t unit) const { return counts_[unit]; }
  std::uint32_t pages_per_unit() const { return pages_per_unit_; }

  // Charges reading `units` consecutive counts (a victim scan).
  void touch_counts(std::uint64_t first_unit, std::uint64_t units);
  // Charges writing both tables whole, in order (a mount that marked its pages uncharged).
  void touch_all();

 private:
  void touch(std::uint64_t page);
  Hal& hal_;
  std::uint32_t pages_per_unit_, count_bytes_;
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint32_t> counts_;
  TableRegion bitmap_table_, count_table_;
};

}  // namespace ssd::fw
