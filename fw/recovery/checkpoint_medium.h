// What a map checkpoint's pages hold beyond their spare area (fw/recovery/map_checkpointer.h).
//
// A checkpoint saves the mapping of the blocks whose every page is programmed when it is taken
// (sealed blocks: nothing more will be written to them before an erase), each with its erase
// count, which every page's OOB carries. The boot that finds the checkpoint whole then reads page
// 0 of each block it saved: a block still at the saved erase count holds exactly what it held
// (a sealed block changes only by an erase), so its pages' mapping comes from the checkpoint and
// the block is not scanned; every other block is scanned as without a checkpoint. A logical page
// whose newest copy was not in a sealed block is found by that scan, and the newest version wins,
// so the boot rebuilds the same map as a scan of every page (fw/recovery/oob_recovery.h).
//
// The model keeps a page's data as a token, not as bytes, so a checkpoint's content lives here,
// beside the array: the firmware records it when it takes the checkpoint, and the boot uses it
// only once it has read every page of the checkpoint back, whole and of this checkpoint.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "common/geometry.h"

namespace ssd::fw {

// The spare area of a checkpoint page: this logical page (beyond any host's and any FTL
// metadata's), and the checkpoint's id as the token.
inline constexpr Lpn kCheckpointLpn = kNoLpn - 3;

class CheckpointMedium {
 public:
  virtual ~CheckpointMedium() = default;
  using PageVisitor = std::function<void(Ppn ppn, Lpn lpn, Token token, std::uint32_t version)>;

  // Firmware, as it takes checkpoint `id` (ids grow): what it saves is the mapping of the blocks
  // sealed now; `pages` are where it goes.
  virtual void record(std::uint32_t id, const std::vector<Ppn>& pages) = 0;
  // Boot: the checkpoints recorded whose pages may still be on the flash, newest first.
  virtual std::vector<std::pair<std::uint32_t, std::vector<Ppn>>> candidates() const = 0;
  // Whether checkpoint `id` saved block `b`.
  virtual bool saved(std::uint32_t id, BlockId b) const = 0;
  // Whether `b` has been erased since checkpoint `id` saved it (its OOB's erase count differs).
  virtual bool erased_since(std::uint32_t id, BlockId b) const = 0;
  // The mapping checkpoint `id` saved of block `b`: each page's logical page, data and version, as
  // its OOB had them. Only for a block not erased since (throws std::logic_error otherwise: the
  // checkpoint knows nothing of what the block holds now).
  virtual void for_each_saved_page(std::uint32_t id, BlockId b, const PageVisitor& visit) const = 0;
};

}  // namespace ssd::fw
