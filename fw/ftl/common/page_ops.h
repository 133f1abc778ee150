// Small flash-work idioms every FTL repeats.
#pragma once

#include <cstdint>
#include <vector>

#include "fw/ftl/common/segment_space.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

// A host read of a page the mapping places at `ppn`: its read, or -- never written -- the
// unwritten token at once (counted in `unmapped`) and an invalid OpRef.
inline OpRef read_mapped_page(OpScheduler& ops, Ppn ppn, Token* sink, std::uint64_t& unmapped) {
  if (ppn == kNoPpn) {
    ++unmapped;
    *sink = kUnwrittenToken;
    return OpRef{};
  }
  OpRef r = ops.read(ppn, sink);
  ops.submit(r);
  return r;
}

// A padding page at `ppn` (Ftl::close_word_lines): no data, OOB kPaddingLpn, never valid.
inline void program_padding(OpScheduler& ops, Ppn ppn) { ops.submit(ops.program(ppn, kPaddingLpn, kUnwrittenToken)); }

// For FTLs that write through the space's frontiers (page mapping, DFTL/CAST): closes the word
// lines of every frontier (SegmentSpace::close_word_lines) writing `only` (kNoBlock: all).
// Returns the padding pages.
inline std::uint32_t close_frontiers(OpScheduler& ops, SegmentSpace& space, std::uint32_t word_line_pages,
                                     BlockId only) {
  std::uint32_t padded = 0;
  for (std::uint32_t f = 0; f < space.frontier_count(); ++f)
    padded += space.close_word_lines(f, word_line_pages, only, [&](Spn spn) { program_padding(ops, space.to_ppn(spn)); });
  return padded;
}

// For FTLs that write each segment at a write pointer of their own (the hybrids): pads the
// segment holding `only` (kNoBlock: every segment being written) to the end of its word lines
// (SegmentSpace::word_line_gap), leaving alone segments being reclaimed, retired or retiring.
// Returns the padding pages.
inline std::uint32_t close_write_pointers(OpScheduler& ops, const SegmentSpace& space, const FirmwareCosts& costs,
                                          Hal& hal, std::vector<std::uint32_t>& write_pointer,
                                          std::uint32_t word_line_pages, BlockId only) {
  const auto close = [&](std::uint32_t segment) -> std::uint32_t {
    const SegmentState state = space.state(segment);
    if (state == SegmentState::Reclaiming || state == SegmentState::Retired || space.retiring(segment)) return 0;
    const std::uint32_t gap = space.word_line_gap(write_pointer[segment], word_line_pages);
    for (std::uint32_t k = 0; k < gap; ++k) {
      hal.charge_cycles(costs.page_allocate, FirmwareWork::PageAllocate);
      program_padding(ops, space.to_ppn(space.first_spn(segment) + write_pointer[segment]++));
    }
    return gap;
  };
  if (word_line_pages <= 1) return 0;
  if (only != kNoBlock) {
    const std::uint32_t segment = space.segment_of_block(only);
    return segment == SegmentSpace::kNoSegment ? 0 : close(segment);
  }
  std::uint32_t padded = 0;
  for (std::uint32_t segment = 0; segment < space.segments(); ++segment) padded += close(segment);
  return padded;
}

// Erases every physical block of `segment` (each after the earlier accesses to it, the
// scheduler's hazard rule); `done` runs once all are erased. Returns the number of blocks.
inline std::uint32_t erase_segment(OpScheduler& ops, const SegmentSpace& space, std::uint32_t segment, OpCallback done) {
  OpRef all = ops.join();
  for (BlockId b : space.blocks(segment)) {
    OpRef e = ops.erase(b);
    ops.depend(e, all);
    ops.submit(e);
  }
  ops.on_complete(all, std::move(done));
  ops.submit(all);
  return space.segment_planes();
}

}  // namespace ssd::fw
