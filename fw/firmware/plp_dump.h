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
// The area (fw/firmware/reserved_area.h): the last usable blocks of every plane, as many per plane
// as the buffer's pages need. It costs the FTL those blocks' share of its overprovisioning.
#pragma once

#include <cstdint>
#include <vector>

#include "common/geometry.h"
#include "fw/firmware/reserved_area.h"

namespace ssd::fw {

class PlpDumpArea : public ReservedArea {
 public:
  // An area of at least `pages` pages on `geo`, passing over the blocks `taken` marks (null: none;
  // it marks its own there).
  PlpDumpArea(const FlashGeometry& geo, std::uint32_t pages, std::vector<bool>* taken = nullptr);
};

}  // namespace ssd::fw
