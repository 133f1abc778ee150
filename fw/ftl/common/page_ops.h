// Small flash-work idioms every FTL repeats.
#pragma once

#include <cstdint>

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
