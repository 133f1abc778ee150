#include "fw/ftl/demand/data_placement.h"

#include <algorithm>
#include <limits>

namespace ssd::fw {

DataPlacement::DataPlacement(PlacementPolicy policy, std::uint32_t blocks, std::uint64_t new_block_distance,
                             std::uint32_t first_frontier)
    : policy_(policy), new_block_distance_(new_block_distance), first_frontier_(first_frontier), current_(blocks) {}

DataPlacement::Current& DataPlacement::refreshed(std::uint32_t index, const SegmentSpace& space) {
  Current& c = current_[index];
  const std::uint64_t generation = space.frontier_generation(first_frontier_ + index);
  if (c.generation != generation) {  // the block filled and a fresh one replaced it
    c.generation = generation;
    c.starts.clear();
    c.issuers.clear();
  }
  return c;
}

std::uint32_t DataPlacement::choose(const HostRequestInfo& request, const SegmentSpace& space) {
  if (policy_ == PlacementPolicy::Single || current_.size() == 1) return first_frontier_;
  std::uint32_t best = 0;
  if (policy_ == PlacementPolicy::AddressBased) {
    std::uint64_t best_distance = std::numeric_limits<std::uint64_t>::max();
    for (std::uint32_t i = 0; i < current_.size(); ++i) {
      const Current& c = refreshed(i, space);
      std::uint64_t distance = new_block_distance_;
      if (!c.starts.empty() && request.first_lpn >= *c.starts.rbegin()) {
        distance = request.first_lpn - *c.starts.rbegin();  // past the last start: no search (sequential writes)
      } else if (!c.starts.empty()) {
        auto above = c.starts.lower_bound(request.first_lpn);
        distance = std::numeric_limits<std::uint64_t>::max();
        if (above != c.starts.end()) distance = *above - request.first_lpn;
        if (above != c.starts.begin()) distance = std::min<std::uint64_t>(distance, request.first_lpn - *std::prev(above));
      }
      if (distance < best_distance) {
        best_distance = distance;
        best = i;
      }
    }
    return first_frontier_ + best;
  }
  std::size_t fewest = std::numeric_limits<std::size_t>::max();
  for (std::uint32_t i = 0; i < current_.size(); ++i) {
    const Current& c = refreshed(i, space);
    if (std::find(c.issuers.begin(), c.issuers.end(), request.issuer) != c.issuers.end()) return first_frontier_ + i;
    if (c.issuers.size() < fewest) {
      fewest = c.issuers.size();
      best = i;
    }
  }
  return first_frontier_ + best;
}

void DataPlacement::record(std::uint32_t frontier, const HostRequestInfo& request, const SegmentSpace& space) {
  if (policy_ == PlacementPolicy::Single) return;
  Current& c = refreshed(frontier - first_frontier_, space);
  if (policy_ == PlacementPolicy::AddressBased)
    c.starts.insert(c.starts.end(), request.first_lpn);  // constant time past the last (sequential writes)
  else if (std::find(c.issuers.begin(), c.issuers.end(), request.issuer) == c.issuers.end())
    c.issuers.push_back(request.issuer);
}

}  // namespace ssd::fw
