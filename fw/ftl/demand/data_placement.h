// Which current data block (write frontier) a host page goes to.
//
// - Single: one current data block for all host writes (DFTL).
// - Address-based location (CAST ABL): the current block whose recorded request start
//   addresses hold the one nearest to this request's start. A block records the first logical
//   page of each request written into it, and forgets them when it fills and a fresh block takes
//   its place. A current block with nothing recorded counts as `new_block_distance` pages away,
//   so a request farther than that from every recorded address starts filling an unused block
//   (the paper leaves how empty blocks are chosen open; this is our choice, an option).
// - Issuer-based location (CAST IBL): the current block already serving this request's issuer;
//   else one serving nobody; else the one serving the fewest issuers (blocks then mix issuers,
//   and with one block the policy is DFTL's).
// Every page of a request goes to the block its first page chose.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "fw/ftl/common/segment_space.h"
#include "fw/ftl/ftl.h"

namespace ssd::fw {

enum class PlacementPolicy : std::uint8_t { Single, AddressBased, IssuerBased };

class DataPlacement {
 public:
  // Frontiers first_frontier .. first_frontier + blocks - 1 of `space` are the current blocks.
  DataPlacement(PlacementPolicy policy, std::uint32_t blocks, std::uint64_t new_block_distance,
                std::uint32_t first_frontier);

  // The frontier for a page of `request`.
  std::uint32_t choose(const HostRequestInfo& request, const SegmentSpace& space);
  // Records that a page of `request` was written to `frontier`.
  void record(std::uint32_t frontier, const HostRequestInfo& request, const SegmentSpace& space);
  std::uint32_t blocks() const { return static_cast<std::uint32_t>(current_.size()); }

 private:
  struct Current {
    std::uint64_t generation = 0;  // the frontier's segment these records belong to
    std::set<Lpn> starts;          // ABL: recorded request start pages
    std::vector<std::uint32_t> issuers;  // IBL
  };
  Current& refreshed(std::uint32_t index, const SegmentSpace& space);

  PlacementPolicy policy_;
  std::uint64_t new_block_distance_;
  std::uint32_t first_frontier_;
  std::vector<Current> current_;
};

}  // namespace ssd::fw
