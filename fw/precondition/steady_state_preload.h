// The interface between preconditioning and an FTL family: what an FTL offers so the drive can
// be brought to the steady state of uniform random page writes without running them all.
//
// - Families that place writes in program order (page mapping, DFTL/CAST) say how many pages
//   they program before GC must start, so the steady-state fill (steady_state_fill.h) applies,
//   and preload the steady state directly (their steady_state_preload.cpp, beside the FTL,
//   built from greedy_steady_state.h and steady_state_dealer.h).
// - Families that offer neither (the hybrids) return no SteadyStatePreload from
//   Ftl::steady_state_preload(); the preconditioner then writes its way there.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/geometry.h"

namespace ssd::fw {

class SteadyStatePreload {
 public:
  virtual ~SteadyStatePreload() = default;
  // Physical pages (data and the FTL's own metadata) a fresh drive can program before this
  // FTL's garbage collection must start, or 0 when it cannot say.
  virtual std::uint64_t pages_before_gc() const = 0;
  // On a fresh drive over a HAL that can preload: puts the drive straight into the steady state
  // of uniform random page writes over every logical page, each page holding token_of(lpn)
  // (flash contents through Hal::preload, tables set to match). Returns what it did, or "" when
  // it cannot here (the preconditioner then writes a steady-state fill or its way there).
  virtual std::string preload_random_steady_state(std::uint64_t seed, const std::function<Token(Lpn)>& token_of) = 0;
};

}  // namespace ssd::fw
