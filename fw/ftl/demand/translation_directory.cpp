#include "fw/ftl/demand/translation_directory.h"

#include <algorithm>

namespace ssd::fw {

TranslationDirectory::TranslationDirectory(Hal& hal, Lpn logical_pages, std::uint32_t entries_per_page)
    : hal_(hal), per_page_(entries_per_page) {
  const std::uint32_t pages = (logical_pages + per_page_ - 1) / per_page_;
  location_.assign(pages, kNoSpn);
  stored_.assign(logical_pages, kNoSpn);
  sums_.assign(pages, 0);
  gtd_table_ = hal_.place_table("gtd", std::uint64_t(pages) * 4, MemoryKind::Sram);
}

Spn TranslationDirectory::location(std::uint32_t vpn) {
  hal_.touch(gtd_table_, std::uint64_t(vpn) * 4, 4, Access::Read);
  return location_[vpn];
}

void TranslationDirectory::move(std::uint32_t vpn, Spn spn) {
  hal_.touch(gtd_table_, std::uint64_t(vpn) * 4, 4, Access::Write);
  location_[vpn] = spn;
}

std::uint32_t TranslationDirectory::mix(Lpn lpn, Spn spn) {
  if (spn == kNoSpn) return 0;
  std::uint64_t x = (std::uint64_t(lpn) << 32 | spn) * 0x9e3779b97f4a7c15ull;
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ull;
  return static_cast<std::uint32_t>(x ^ (x >> 32));
}

void TranslationDirectory::store(Lpn lpn, Spn spn) {
  std::uint32_t& sum = sums_[page_of(lpn)];
  sum = sum - mix(lpn, stored_[lpn]) + mix(lpn, spn);
  stored_[lpn] = spn;
}

Token TranslationDirectory::checksum(std::uint32_t vpn) const {
  return sums_[vpn] == kUnwrittenToken ? 1u : sums_[vpn];  // 0 reads as "never written"
}

Token TranslationDirectory::recompute_checksum(std::uint32_t vpn) const {
  std::uint32_t sum = 0;
  const Lpn end = std::min<Lpn>(first_lpn(vpn) + per_page_, static_cast<Lpn>(stored_.size()));
  for (Lpn lpn = first_lpn(vpn); lpn < end; ++lpn) sum += mix(lpn, stored_[lpn]);
  return sum == kUnwrittenToken ? 1u : sum;
}

}  // namespace ssd::fw
