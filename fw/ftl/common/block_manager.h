// Physical block bookkeeping for FTLs that place pages plane by plane: per-plane free pools,
// write frontiers (open blocks written page by page, one per stream, e.g. host and GC), valid
// pages per block, and greedy victim selection.
#pragma once

#include <cstdint>
#include <vector>

#include "fw/ftl/common/valid_page_map.h"
#include "fw/hal/hal.h"
#include "fw/runtime/firmware_costs.h"

namespace ssd::fw {

enum class BlockState : std::uint8_t { Free, Open, Closed, Reclaiming };

class BlockManager {
 public:
  // streams: number of write frontiers per plane. reserve: free blocks per plane that only
  // streams marked privileged (GC) may take, so relocation can always make progress.
  BlockManager(Hal& hal, const FirmwareCosts& costs, std::uint32_t streams, std::uint32_t reserve);

  const FlashGeometry& geometry() const { return geo_; }
  std::uint32_t planes() const { return geo_.total_planes(); }

  // Next page of `stream`'s frontier on `plane`, opening a free block when needed;
  // kNoPpn when the plane has no block this stream may take.
  Ppn allocate(std::uint32_t plane, std::uint32_t stream, bool privileged);
  bool can_allocate(std::uint32_t plane, std::uint32_t stream, bool privileged) const;

  void mark_valid(Ppn ppn) { valid_.mark_valid(ppn); }
  void invalidate(Ppn ppn) { valid_.invalidate(ppn); }
  bool is_valid(Ppn ppn) const { return valid_.is_valid(ppn); }
  std::uint32_t valid_count(BlockId b) const { return valid_.valid_count(b); }
  BlockState state(BlockId b) const { return state_[b]; }

  // Preconditioning: takes the next free block of `plane` as already written up to `programmed`
  // pages (the caller preloads them and marks the valid ones). With a stream, the block becomes
  // that stream's frontier (programmed < pages per block); with kNoStream it is closed.
  BlockId preload_block(std::uint32_t plane, std::uint32_t programmed, std::uint32_t stream);
  static constexpr std::uint32_t kNoStream = 0xffffffffu;

  // Closed block of `plane` with the fewest valid pages (kNoPpn-like max when none).
  BlockId greedy_victim(std::uint32_t plane);
  void begin_reclaim(BlockId b);
  void finish_reclaim(BlockId b);  // after its erase: back to the free pool

  std::uint32_t free_blocks(std::uint32_t plane) const { return static_cast<std::uint32_t>(free_[plane].size()); }
  std::uint32_t reclaiming(std::uint32_t plane) const { return reclaiming_[plane]; }
  std::uint32_t erase_count(BlockId b) const { return erase_count_[b]; }

  // Global plane index of the k-th plane in channel-first striping order, so consecutive
  // allocations go to different channels, then different ways, dies and planes.
  std::uint32_t stripe_plane(std::uint64_t k) const { return stripe_[k % stripe_.size()]; }

  static constexpr BlockId kNoBlock = 0xffffffffu;

 private:
  struct Frontier {
    BlockId block = kNoBlock;
    std::uint32_t next_page = 0;
  };
  Hal& hal_;
  const FirmwareCosts& costs_;
  FlashGeometry geo_;
  std::uint32_t streams_, reserve_;
  std::vector<BlockState> state_;
  std::vector<std::uint32_t> erase_count_;
  ValidPageMap valid_;
  std::vector<std::vector<BlockId>> free_;  // per plane, used as a stack
  std::vector<std::uint32_t> reclaiming_;   // per plane
  std::vector<Frontier> frontiers_;         // plane * streams + stream
  std::vector<std::uint32_t> stripe_;
};

}  // namespace ssd::fw
