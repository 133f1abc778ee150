// PageMappingFtl::preload_random_steady_state: the drive as long uniform random page writes
// leave it under this FTL's greedy GC, built in one pass over the flash instead of written.
//
// Choices (none of them is in a paper; each is what the random-write process makes equally
// likely, or the cheapest faithful approximation):
// - Every plane holds U / planes live pages (the first U % planes one more), as host striping
//   and uniform overwrites keep them on average.
// - Valid counts per block: simulate_greedy_steady_state on one plane's worth (same blocks,
//   pages per block and GC threshold), run for min(planes, 4) planes with distinct seeds;
//   plane p takes simulation p % 4 with its blocks in a random order. Its free blocks end at the
//   GC threshold, with a host and a GC frontier partly written.
// - Planes sharing a simulation are in the same phase of their GC cycle. Tried (2026-11-25):
//   each plane at its own phase (the simulation seen at ceil(planes / 4) points spread over a
//   host frontier's block). On default.yaml with 128 blocks per plane, gc_threshold_blocks 5,
//   100k 8 KiB random writes QD32: paced GC gives 20.5 MB/s from either preload and 20.1 from
//   writing its way there (fill+steady:run), so the phase does not matter to it; threshold GC
//   gives 18.0 MB/s from this preload, 5.7 from the phased one, and 15.7-16.0 after writing its
//   way there and 600k writes on: its planes do not drift apart in a long run (a plane copying a
//   whole victim holds the host's writes, and the other planes wait with it), so phased planes
//   would be the further from what a long run leaves. Kept as it is.
// - Which logical pages are live where: a random permutation of all of them dealt out over the
//   valid slots (uniform overwrites leave no pattern), each valid slot at a random offset among
//   its block's written pages (fw/precondition/steady_state_dealer.h).
// - Stale pages hold a random logical page's OOB and no valid data (kUnwrittenToken): GC never
//   reads them, and a mapping bug that returned one would fail the integrity check.
// - Erase counts stay zero (the wear of the writes that never ran is not made up).
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "fw/precondition/greedy_steady_state.h"
#include "fw/precondition/steady_state_dealer.h"
#include "fw/ftl/page_mapping/page_mapping_ftl.h"

namespace ssd::fw {

std::string PageMappingFtl::preload_random_steady_state(std::uint64_t seed, const std::function<Token(Lpn)>& token_of) {
  const FlashGeometry& g = blocks_.geometry();
  const std::uint32_t planes = g.total_planes(), ppb = g.pages_per_block;
  blocks_.require_fresh("steady-state preload");

  GreedyDomainSpec spec;
  spec.blocks = blocks_.fewest_usable_in_group();  // (bad blocks: planes with more usable ones keep them free)
  spec.pages_per_block = ppb;
  spec.valid_pages = logical_pages_ / planes;
  spec.gc_threshold = gc_threshold_;
  const std::uint32_t simulated = std::min<std::uint32_t>(planes, 4);
  std::vector<GreedyDomainState> domains;
  try {
    for (std::uint32_t d = 0; d < simulated; ++d) domains.push_back(simulate_greedy_steady_state(spec, seed + d));
  } catch (const std::invalid_argument&) {
    return "";  // the preconditioner then writes its way there
  }

  SteadyStateDealer dealer(ctx_.hal, logical_pages_, seed, token_of);
  const std::uint32_t extra_planes = static_cast<std::uint32_t>(logical_pages_ % planes);
  for (std::uint32_t plane = 0; plane < planes; ++plane) {
    std::vector<GreedyDomainState::Block> used = domains[plane % simulated].used;
    std::shuffle(used.begin(), used.end(), dealer.rng());
    if (plane < extra_planes) {  // one more live page: in the first block with a stale slot
      auto it = std::find_if(used.begin(), used.end(), [](const auto& b) { return b.valid < b.programmed; });
      if (it == used.end()) throw std::logic_error("steady-state preload: no room for a plane's last live page");
      ++it->valid;
    }
    for (const GreedyDomainState::Block& b : used) {
      using Role = GreedyDomainState::Block::Role;
      const std::uint32_t frontier = b.role == Role::HostFrontier ? blocks_.plane_frontier(plane, kHostStream)
                                     : b.role == Role::GcFrontier ? blocks_.plane_frontier(plane, kGcStream)
                                                                  : SegmentSpace::kNoFrontier;
      const Ppn first = blocks_.to_ppn(blocks_.first_spn(blocks_.preload(0, b.programmed, frontier, plane)));
      dealer.write_block(
          b.programmed, b.valid, [first](std::uint32_t off) { return first + off; },
          [this, first](std::uint32_t off, Lpn lpn) {
            l2p_[lpn] = first + off;
            blocks_.mark_valid(blocks_.to_spn(first + off));
          });
    }
  }
  dealer.check_all_dealt();
  const GreedyDomainState& d0 = domains.front();
  char waf[32];
  std::snprintf(waf, sizeof waf, "%.3f", d0.write_amplification);
  return "steady-state preload (every plane laid out as greedy GC leaves it under uniform random writes: " +
         std::to_string(d0.capacities) + " capacities of a plane's valid counts simulated" +
         (d0.settled ? "" : ", NOT settled") + ", write amplification " + waf + ")";
}

}  // namespace ssd::fw
