// PageMappingFtl::mount: the page map after a power cut is the boot's rebuilt map as it stands
// (each logical page where its newest readable version is). Every block the boot found written
// is closed, its valid pages those the map points into; erased blocks are free; the frontiers
// open new blocks. Partly written blocks are not written further (see SegmentSpace::
// adopt_written): GC reclaims them like any block. No flash work: the table is in DRAM already
// (the boot charged its updates page by page); the valid-page tables are written once, in order.
#include <string>

#include "fw/ftl/common/segment_mount.h"
#include "fw/ftl/page_mapping/page_mapping_ftl.h"

namespace ssd::fw {

std::string PageMappingFtl::mount(const MountImage& image, std::function<void()> settled) {
  adopt_written_segments(blocks_, image, [](std::uint32_t) { return std::uint8_t{0}; });
  for (Lpn lpn = 0; lpn < logical_pages_; ++lpn) {
    const Ppn ppn = image.map.ppn_of(lpn);
    if (ppn == kNoPpn || !in_used_segment(blocks_, ppn)) continue;  // none, or the firmware's own area's
    l2p_[lpn] = ppn;
    blocks_.mount_valid(blocks_.to_spn(ppn));
  }
  blocks_.charge_rebuilt_valid_pages();
  for (std::uint32_t plane = 0; plane < blocks_.geometry().total_planes(); ++plane) maybe_start_gc(plane);
  settled();
  return "";
}

}  // namespace ssd::fw
