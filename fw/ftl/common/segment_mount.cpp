#include "fw/ftl/common/segment_mount.h"

namespace ssd::fw {

void adopt_written_segments(SegmentSpace& space, const MountImage& image,
                            const std::function<std::uint8_t(std::uint32_t)>& kind_of) {
  for (BlockId b = 0; b < space.geometry().total_blocks(); ++b) {
    if (!image.written[b]) continue;
    const std::uint32_t s = space.segment_of_block(b);
    if (s == SegmentSpace::kNoSegment || space.state(s) != SegmentState::Free) continue;  // not the FTL's, or done
    space.adopt_written(s, kind_of(s));
  }
}

bool in_used_segment(const SegmentSpace& space, Ppn ppn) {
  const Spn spn = space.to_spn(ppn);
  if (spn == kNoSpn) return false;
  const SegmentState state = space.state(space.segment_of(spn));
  return state != SegmentState::Free && state != SegmentState::Retired;
}

}  // namespace ssd::fw
