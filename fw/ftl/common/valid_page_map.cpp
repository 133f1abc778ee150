#include "fw/ftl/common/valid_page_map.h"

#include <algorithm>
#include <stdexcept>

#include "common/narrow_division.h"

namespace ssd::fw {

ValidPageMap::ValidPageMap(Hal& hal, const std::string& name, std::uint64_t pages, std::uint32_t pages_per_unit,
                           std::uint32_t count_bytes)
    : hal_(hal), pages_per_unit_(pages_per_unit), count_bytes_(count_bytes) {
  const std::uint64_t units = (pages + pages_per_unit - 1) / pages_per_unit;
  if (count_bytes < 4 && pages_per_unit >= (1ull << (8 * count_bytes)))
    throw std::invalid_argument(name + ": " + std::to_string(pages_per_unit) + " pages per unit do not fit a " +
                                std::to_string(count_bytes) + "-byte count");
  bits_.assign((pages + 63) / 64, 0);
  counts_.assign(units, 0);
  bitmap_table_ = hal_.place_table(name + "_valid_bitmap", bits_.size() * 8, MemoryKind::Sram);
  count_table_ = hal_.place_table(name + "_valid_counts", units * count_bytes_, MemoryKind::Sram);
}

void ValidPageMap::touch(std::uint64_t page) {
  hal_.touch(bitmap_table_, (page >> 6) * 8, 8, Access::Write);
  hal_.touch(count_table_, (quotient_of(page, pages_per_unit_)) * count_bytes_, count_bytes_, Access::Write);
}

void ValidPageMap::mark_valid(std::uint64_t page) {
  touch(page);
  bits_[page >> 6] |= std::uint64_t(1) << (page & 63);
  ++counts_[quotient_of(page, pages_per_unit_)];
}

void ValidPageMap::mark_valid_range(std::uint64_t first, std::uint32_t count) {
  const std::uint64_t unit = quotient_of(first, pages_per_unit_);
  if (count == 0 || quotient_of(first + count - 1, pages_per_unit_) != unit)
    throw std::logic_error("mark_valid_range of " + std::to_string(count) + " pages from " + std::to_string(first) +
                           ": not within one unit");
  for (std::uint64_t page = first, end = first + count; page < end;) {  // a bitmap word at a time
    const std::uint32_t bit = page & 63;
    const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(64 - bit, end - page));
    const std::uint64_t mask = (n == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << n) - 1) << bit;
    std::uint64_t& word = bits_[page >> 6];
    if (word & mask)
      throw std::logic_error("mark_valid_range: page " + std::to_string(page + __builtin_ctzll((word & mask) >> bit)) +
                             " is already valid");
    word |= mask;
    page += n;
  }
  counts_[unit] += count;
}

void ValidPageMap::invalidate(std::uint64_t page) {
  if (!is_valid(page)) throw std::logic_error("invalidate() of page " + std::to_string(page) + " that is not valid");
  touch(page);
  bits_[page >> 6] &= ~(std::uint64_t(1) << (page & 63));
  --counts_[quotient_of(page, pages_per_unit_)];
}

void ValidPageMap::touch_all() {
  hal_.touch(bitmap_table_, 0, static_cast<std::uint32_t>(bitmap_table_.bytes), Access::Write);
  hal_.touch(count_table_, 0, static_cast<std::uint32_t>(count_table_.bytes), Access::Write);
}

void ValidPageMap::touch_counts(std::uint64_t first_unit, std::uint64_t units) {
  hal_.touch(count_table_, first_unit * count_bytes_, static_cast<std::uint32_t>(units * count_bytes_), Access::Read);
}

}  // namespace ssd::fw
