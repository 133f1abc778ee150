// Preconditioning: brings a drive to a chosen state on the functional HAL (the same firmware on
// the same NAND array the timed model then uses), with the integrity oracle recording every
// page written, before measurement starts.
#pragma once

#include <cstdint>

#include "common/metrics.h"
#include "fw/runtime/firmware.h"
#include "platforms/config/precondition.h"
#include "platforms/functional/functional_hal.h"
#include "stimuli/integrity_oracle.h"
#include "stimuli/synthetic_workload.h"

namespace ssd::platform {

class Preconditioner {
 public:
  Preconditioner(fw::Firmware& firmware, FunctionalHal& hal, stimuli::IntegrityOracle& oracle, MetricSet& ftl,
                 std::uint32_t page_bytes, std::uint32_t fill_chunk_sectors);

  // Throws std::invalid_argument for a combination that cannot be done (random writes need
  // the fill first: unwritten pages have no baseline token).
  PreconditionOutcome run(const PreconditionSpec& spec);

 private:
  void sequential_fill();
  void random_writes(std::uint64_t pages, std::uint64_t seed);
  // `count` uniform random whole-page writes over the logical space.
  stimuli::SyntheticSpec random_pages(std::uint64_t count, std::uint64_t seed) const;
  // When random page writes count as settled: chunks of `chunk_pages` writes, each with its
  // WAF; settled once GC ran in the last chunk, at least `min_chunks` ran, and two windows of
  // chunks have mean WAFs within 2% of each other. window > 0: the last `window` chunks
  // against the `window` chunks 2 x window earlier; window == 0: the two halves of all chunks
  // but the first. Gives up (not settled) after `max_pages` writes.
  struct SettlingRule {
    std::uint64_t chunk_pages = 1;
    std::uint32_t window = 0;
    std::uint32_t min_chunks = 1;
    std::uint64_t max_pages = 0;
  };
  void settle(const SettlingRule& rule, std::uint64_t seed, PreconditionOutcome& out);
  // Settling after a steady start (preload or steady-state fill), or after the sequential fill.
  SettlingRule settling_rule(bool steady_start) const;
  // Writes the steady-state fill and says what it did; "" when the FTL cannot say how many
  // pages it programs before GC.
  std::string steady_state_fill(std::uint64_t seed);

  fw::Firmware& firmware_;
  FunctionalHal& hal_;
  stimuli::IntegrityOracle& oracle_;
  MetricSet& ftl_;
  std::uint32_t page_bytes_, fill_chunk_sectors_;
};

}  // namespace ssd::platform
