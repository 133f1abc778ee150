// Power-loss protection's emergency dump (firmware.plp = capacitors, firmware.plp_destage = dump).
// When the power goes, the capacitors' hold-up time is short and the FTL's way of writing a page
// may be long: a hybrid FTL evicting a buffered page may first merge a whole log block. So the
// firmware keeps an area of erased blocks of its own, out of the FTL's space (SegmentSpace::
// hold_back), large enough for the whole write buffer, and at the power loss programs every
// buffered page there directly: the next page of the area, planes taken channel first so the
// dies program in parallel. Each dump page's OOB carries its logical page and a sequence number
// newer than anything on the flash, so the recovery's OOB scan (fw/recovery/oob_recovery.h) finds
// it as the page's newest copy; no mapping is written.
//
// The area: the last blocks of every plane, as many per plane as the buffer's pages need. It
// costs the FTL those blocks' share of its overprovisioning.
#pragma once

#include <cstdint>
#include <vector>

#include "common/geometry.h"

namespace ssd::fw {

class PlpDumpArea {
 public:
  // An area of at least `pages` pages on `geo`.
  PlpDumpArea(const FlashGeometry& geo, std::uint32_t pages);

  const std::vector<BlockId>& blocks() const { return blocks_; }
  std::uint32_t blocks_per_plane() const { return per_plane_; }
  // The next page to dump to (kNoPpn once the area is full): page k of the dump is on the
  // (k mod planes)-th plane in channel-first order, so consecutive pages go to different channels.
  Ppn next_page();
  std::uint64_t pages_taken() const { return taken_; }

 private:
  FlashGeometry geo_;
  std::uint32_t per_plane_;
  std::vector<BlockId> blocks_;
  std::uint64_t taken_ = 0;
};

}  // namespace ssd::fw
