// The part of a mount after a power cut (Ftl::mount) every FTL's block space shares: which
// segments the boot found written, and whether a page found on the flash is the FTL's.
#pragma once

#include <cstdint>
#include <functional>

#include "fw/ftl/common/segment_space.h"
#include "fw/recovery/mount_image.h"

namespace ssd::fw {

// Closes every free segment with a member block the boot found written (SegmentSpace::
// adopt_written), of the kind `kind_of(segment)` says. (The firmware has given the space the
// blocks' erase counts and bad blocks already.)
void adopt_written_segments(SegmentSpace& space, const MountImage& image,
                            const std::function<std::uint8_t(std::uint32_t)>& kind_of);

// Whether `ppn` lies in a segment of the space that is in use (not a block the firmware holds
// back for itself, a spare or a retired one).
bool in_used_segment(const SegmentSpace& space, Ppn ppn);

}  // namespace ssd::fw
