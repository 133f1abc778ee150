// Preconditioning's runner: brings a drive to a chosen state on the functional HAL (the same
// firmware on the same NAND array the timed model then uses), with the integrity oracle
// recording every page written, before measurement starts. What to do and when it is done are
// decided in fw/precondition/ (the spec, the steady-state fill order, the settling rule, and
// the SteadyStatePreload interface through which an FTL family preloads its steady state);
// this class only issues the writes and calls the preload.
#pragma once

#include <cstdint>
#include <functional>

#include "common/metrics.h"
#include "fw/firmware/firmware.h"
#include "fw/precondition/precondition_spec.h"
#include "fw/precondition/settling.h"
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
  fw::PreconditionOutcome run(const fw::PreconditionSpec& spec);

 private:
  // What each logical page holds after preconditioning, for the FTLs' preloads.
  std::function<Token(Lpn)> baseline_tokens() const;
  // The FTL's direct layout of the fill where it offers one, else a replay; says which.
  std::string sequential_fill();
  void random_writes(std::uint64_t pages, std::uint64_t seed);
  // `count` uniform random whole-page writes over the logical space.
  stimuli::SyntheticSpec random_pages(std::uint64_t count, std::uint64_t seed) const;
  // Random page writes until the rule says the WAF settled, recorded in `out`.
  void settle(const fw::SettlingRule& rule, std::uint64_t seed, fw::PreconditionOutcome& out);
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
