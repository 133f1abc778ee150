// DemandFtl::preload_random_steady_state: DFTL or CAST as long uniform random page writes leave
// them, built in one pass over the flash.
//
// Choices (as for page mapping, see fw/ftl/page_mapping/steady_state_preload.cpp):
// - The translation pages take the first ceil(pages / segment pages) segments, packed and all
//   valid (the last one, if partly written, is the current translation block). Under random
//   writes they are rewritten about once per host write, so their own churn settles within a
//   few thousand writes; the preconditioner's settling writes cover it.
// - The remaining segments are one reclaim domain for the data pages: valid counts from
//   random_write_steady_state (greedy simulation for segments of up to 1,024 pages, the FIFO
//   closed form for larger ones, e.g. the default segment over every plane), segments in a
//   random order; a partly written host frontier becomes current data block 0, a partly written
//   GC frontier the GC block (gc_destination=own) or, when GC copies into the current data
//   blocks, a closed segment padded with stale pages.
// - Logical pages are dealt over the valid slots by a random permutation
//   (fw/precondition/steady_state_dealer.h); the mapping is stored in the translation pages (the
//   mapping cache starts empty, as after a power cycle); stale pages hold a random logical
//   page's OOB and kUnwrittenToken.
// - Erase counts stay zero.
// Returns "" (the preconditioner then writes a steady-state fill) when the data cannot fit the
// domain the model needs (GC threshold plus two frontiers of free segments).
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "fw/precondition/greedy_steady_state.h"
#include "fw/precondition/steady_state_dealer.h"
#include "fw/ftl/demand/demand_ftl.h"

namespace ssd::fw {

std::string DemandFtl::preload_random_steady_state(std::uint64_t seed, const std::function<Token(Lpn)>& token_of) {
  space_.require_fresh("steady-state preload");
  const std::uint32_t pages = space_.segment_pages(), translation_pages = directory_.pages();
  const std::uint32_t translation_segments = (translation_pages + pages - 1) / pages;
  if (translation_segments >= space_.usable_segments()) return "";
  GreedyDomainSpec spec;
  spec.blocks = space_.usable_segments() - translation_segments;
  spec.pages_per_block = pages;
  spec.valid_pages = params_.logical_pages;
  spec.gc_threshold = params_.gc_threshold_segments;
  GreedyDomainState layout;
  try {
    layout = random_write_steady_state(spec, seed);
  } catch (const std::invalid_argument&) {
    return "";
  }

  SteadyStateDealer dealer(ctx_.hal, params_.logical_pages, seed, token_of);
  std::shuffle(layout.used.begin(), layout.used.end(), dealer.rng());
  for (GreedyDomainState::Block b : layout.used) {
    using Role = GreedyDomainState::Block::Role;
    // GC copying into the current data blocks never writes the GC frontier again: its partly
    // written segment is closed instead, the rest of it stale, so GC can reclaim it.
    if (b.role == Role::GcFrontier && params_.gc_copies_to_current) {
      b.role = Role::Closed;
      b.programmed = pages;
    }
    const std::uint32_t frontier = b.role == Role::HostFrontier ? 0u
                                   : b.role == Role::GcFrontier ? gc_frontier_
                                                                : SegmentSpace::kNoFrontier;
    const Spn first = space_.first_spn(space_.preload(kDataKind, b.programmed, frontier));
    // SPN order writes each member block's pages in order.
    dealer.write_block(
        b.programmed, b.valid, [this, first](std::uint32_t off) { return space_.to_ppn(first + off); },
        [this, first](std::uint32_t off, Lpn lpn) {
          space_.mark_valid(first + off);
          directory_.store(lpn, first + off);
        });
  }
  dealer.check_all_dealt();

  // The translation pages, written once the mappings they hold are final.
  for (std::uint32_t t = 0; t < translation_segments; ++t) {
    const std::uint32_t first_vpn = t * pages;
    const std::uint32_t programmed = std::min(pages, translation_pages - first_vpn);
    const std::uint32_t segment = space_.preload(
        kTranslationKind, programmed, programmed < pages ? translation_frontier_ : SegmentSpace::kNoFrontier);
    for (std::uint32_t off = 0; off < programmed; ++off) {
      const std::uint32_t vpn = first_vpn + off;
      const Spn spn = space_.first_spn(segment) + off;
      ctx_.hal.preload(space_.to_ppn(spn), kTranslationLpnBase + vpn, directory_.checksum(vpn));
      space_.mark_valid(spn);
      directory_.move(vpn, spn);
    }
  }
  char waf[32];
  std::snprintf(waf, sizeof waf, "%.3f", layout.write_amplification);
  const bool simulated = pages <= kSimulatedPagesPerBlock;
  return std::string("steady-state preload (data segments laid out as ") +
         (simulated ? "greedy GC leaves them under uniform random writes, simulated"
                    : "FIFO reclaim leaves them under uniform random writes, closed form: segments this large "
                      "leave greedy nothing to choose") +
         ", data write amplification " + waf + "; " + std::to_string(translation_pages) +
         " translation pages packed after them)";
}

}  // namespace ssd::fw
