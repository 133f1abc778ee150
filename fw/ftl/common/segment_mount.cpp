#include "fw/ftl/common/segment_mount.h"

namespace ssd::fw {

std::uint32_t adopt_written_segments(SegmentSpace& space, const MountImage& image,
                                     const std::function<std::uint8_t(std::uint32_t)>& kind_of) {
  const FlashGeometry& g = space.geometry();
  std::uint32_t closed = 0;
  for (BlockId b = 0; b < g.total_blocks(); ++b) {
    if (image.written_pages[b] == 0) continue;
    const std::uint32_t s = space.segment_of_block(b);
    if (s == SegmentSpace::kNoSegment || space.state(s) != SegmentState::Free) continue;  // not the FTL's, or done
    space.adopt_written(s, kind_of(s));
    ++closed;
  }
  return closed;
}

bool in_used_segment(const SegmentSpace& space, Ppn ppn) {
  const Spn spn = space.to_spn(ppn);
  if (spn == kNoSpn) return false;
  const SegmentState state = space.state(space.segment_of(spn));
  return state != SegmentState::Free && state != SegmentState::Retired;
}

}  // namespace ssd::fw
