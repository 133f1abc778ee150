#include "fw/ftl/common/block_manager.h"

#include <limits>
#include <stdexcept>
#include <string>

namespace ssd::fw {

BlockManager::BlockManager(Hal& hal, const FirmwareCosts& costs, std::uint32_t streams, std::uint32_t reserve)
    : hal_(hal),
      costs_(costs),
      geo_(hal.geometry()),
      streams_(streams),
      reserve_(reserve),
      valid_(hal, "block", geo_.total_pages(), geo_.pages_per_block, 2) {
  const std::uint64_t blocks = geo_.total_blocks();
  state_.assign(blocks, BlockState::Free);
  erase_count_.assign(blocks, 0);
  free_.resize(planes());
  reclaiming_.assign(planes(), 0);
  frontiers_.resize(std::size_t(planes()) * streams_);
  for (std::uint32_t p = 0; p < planes(); ++p) {
    free_[p].reserve(geo_.blocks_per_plane);
    for (std::uint32_t b = geo_.blocks_per_plane; b-- > 0;) free_[p].push_back(geo_.block_at(p, b));
  }
  // Channel-first striping: k -> channel k % C, then way, die, plane.
  const std::uint32_t C = geo_.channels, W = geo_.ways, D = geo_.dies_per_way, P = geo_.planes_per_die;
  for (std::uint32_t k = 0; k < planes(); ++k) {
    std::uint32_t ch = k % C, r = k / C;
    std::uint32_t way = r % W;
    r /= W;
    std::uint32_t die = r % D, plane = r / D;
    stripe_.push_back(((ch * W + way) * D + die) * P + plane);
  }
}

bool BlockManager::can_allocate(std::uint32_t plane, std::uint32_t stream, bool privileged) const {
  const Frontier& f = frontiers_[std::size_t(plane) * streams_ + stream];
  if (f.block != kNoBlock && f.next_page < geo_.pages_per_block) return true;
  return free_[plane].size() > (privileged ? 0u : reserve_);
}

Ppn BlockManager::allocate(std::uint32_t plane, std::uint32_t stream, bool privileged) {
  if (!can_allocate(plane, stream, privileged)) return kNoPpn;
  hal_.charge_cycles(costs_.page_allocate);
  Frontier& f = frontiers_[std::size_t(plane) * streams_ + stream];
  if (f.block == kNoBlock || f.next_page == geo_.pages_per_block) {
    f.block = free_[plane].back();
    free_[plane].pop_back();
    f.next_page = 0;
    state_[f.block] = BlockState::Open;
  }
  Ppn ppn = geo_.first_page(f.block) + f.next_page++;
  if (f.next_page == geo_.pages_per_block) state_[f.block] = BlockState::Closed;
  return ppn;
}

BlockId BlockManager::preload_block(std::uint32_t plane, std::uint32_t programmed, std::uint32_t stream) {
  if (free_[plane].empty()) throw std::logic_error("preload: plane " + std::to_string(plane) + " has no free block");
  const BlockId b = free_[plane].back();
  free_[plane].pop_back();
  if (stream == kNoStream) {
    if (programmed != geo_.pages_per_block) throw std::logic_error("preload: a closed block must be fully written");
    state_[b] = BlockState::Closed;
    return b;
  }
  Frontier& f = frontiers_[std::size_t(plane) * streams_ + stream];
  if (f.block != kNoBlock || programmed >= geo_.pages_per_block)
    throw std::logic_error("preload: stream " + std::to_string(stream) + " of plane " + std::to_string(plane) +
                           " already has a frontier, or the block is full");
  f.block = b;
  f.next_page = programmed;
  state_[b] = BlockState::Open;
  return b;
}

BlockId BlockManager::greedy_victim(std::uint32_t plane) {
  hal_.charge_cycles(std::uint64_t(costs_.gc_scan_per_block) * geo_.blocks_per_plane);
  BlockId best = kNoBlock;
  std::uint32_t best_valid = std::numeric_limits<std::uint32_t>::max();
  const BlockId first = geo_.block_at(plane, 0);
  for (BlockId b = first; b < first + geo_.blocks_per_plane; ++b) {
    if (state_[b] == BlockState::Closed && valid_.valid_count(b) < best_valid) {
      best = b;
      best_valid = valid_.valid_count(b);
    }
  }
  valid_.touch_counts(first, geo_.blocks_per_plane);
  return best;
}

void BlockManager::begin_reclaim(BlockId b) {
  if (state_[b] != BlockState::Closed) throw std::logic_error("reclaim of block " + std::to_string(b) + " that is not closed");
  state_[b] = BlockState::Reclaiming;
  ++reclaiming_[geo_.plane_of_block(b)];
}

void BlockManager::finish_reclaim(BlockId b) {
  if (state_[b] != BlockState::Reclaiming || valid_.valid_count(b) != 0)
    throw std::logic_error("block " + std::to_string(b) + " erased while it still holds " +
                           std::to_string(valid_.valid_count(b)) + " valid pages");
  state_[b] = BlockState::Free;
  ++erase_count_[b];
  std::uint32_t plane = geo_.plane_of_block(b);
  --reclaiming_[plane];
  free_[plane].push_back(b);
}

}  // namespace ssd::fw
