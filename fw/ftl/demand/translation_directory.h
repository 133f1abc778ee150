// The Global Mapping Table on flash and its Global Translation Directory in SRAM.
//
// The GMT is split into translation pages of page_bytes / 4 entries each (translation page v
// holds the mappings of logical pages [v*E, (v+1)*E)). The GTD (one 4-byte entry per
// translation page, in SRAM) says where each translation page currently lives.
//
// What the translation pages contain is kept here too (`stored`): it is the flash content, not
// firmware memory, and changes only when the firmware programs a new version of a translation
// page. Each version's OOB carries a marker LPN (kTranslationLpnBase + v) and a checksum token
// of its contents, so a read of a translation page can be checked against what the firmware
// believes it wrote.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fw/ftl/common/segment_space.h"
#include "fw/hal/hal.h"

namespace ssd::fw {

// OOB logical page of translation page v (above every logical page a drive can export).
inline constexpr Lpn kTranslationLpnBase = 0x80000000u;
inline bool is_translation_lpn(Lpn lpn) { return lpn >= kTranslationLpnBase && lpn < kPaddingLpn; }

class TranslationDirectory {
 public:
  TranslationDirectory(Hal& hal, Lpn logical_pages, std::uint32_t entries_per_page);

  std::uint32_t entries_per_page() const { return per_page_; }
  std::uint32_t pages() const { return static_cast<std::uint32_t>(location_.size()); }
  std::uint32_t page_of(Lpn lpn) const { return lpn / per_page_; }
  Lpn first_lpn(std::uint32_t vpn) const { return vpn * per_page_; }

  // GTD lookup and update (charged as SRAM accesses). kNoSpn: the page was never written.
  Spn location(std::uint32_t vpn);
  void move(std::uint32_t vpn, Spn spn);
  Spn peek_location(std::uint32_t vpn) const { return location_[vpn]; }

  // The mapping of `lpn` as stored on flash in its translation page.
  Spn stored(Lpn lpn) const { return stored_[lpn]; }
  // Changes the content of the translation page version about to be programmed.
  void store(Lpn lpn, Spn spn);
  // Token of the translation page's current content (incrementally maintained).
  Token checksum(std::uint32_t vpn) const;
  // The same, recomputed from the stored entries (for end-of-run checks).
  Token recompute_checksum(std::uint32_t vpn) const;

 private:
  static std::uint32_t mix(Lpn lpn, Spn spn);
  Hal& hal_;
  std::uint32_t per_page_;
  std::vector<Spn> location_;
  std::vector<Spn> stored_;
  std::vector<std::uint32_t> sums_;
  TableRegion gtd_table_;
};

}  // namespace ssd::fw
