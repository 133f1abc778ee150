// Writes a steady-state layout (greedy_steady_state.h) onto flash for an FTL's preload: deals
// the drive's logical pages, in the order of a random permutation, over the blocks' valid slots,
// each slot at a random offset among its block's written pages; the other written pages are
// stale (a random logical page's OOB, no valid data: kUnwrittenToken). Pages are preloaded in
// offset order, as the flash requires of programs.
#pragma once

#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/random_permutation.h"
#include "fw/hal/hal.h"

namespace ssd::fw {

class SteadyStateDealer {
 public:
  SteadyStateDealer(Hal& hal, Lpn logical_pages, std::uint64_t seed, std::function<Token(Lpn)> token_of)
      : hal_(hal),
        logical_(logical_pages),
        deal_(logical_pages, seed),
        token_of_(std::move(token_of)),
        rng_(seed ^ 0x5eedf00dULL),
        any_lpn_(0, logical_pages - 1) {}

  // For the caller's own random choices (e.g. the order of a layout's blocks).
  std::mt19937_64& rng() { return rng_; }

  // Preloads offsets [0, programmed) of one block, a random `valid` of them live, at
  // ppn_of(offset); calls on_live(offset, lpn) for each live page so the FTL maps it.
  template <class PpnOf, class OnLive>
  void write_block(std::uint32_t programmed, std::uint32_t valid, PpnOf ppn_of, OnLive on_live) {
    offsets_.resize(programmed);
    std::iota(offsets_.begin(), offsets_.end(), 0u);
    for (std::uint32_t i = 0; i < valid; ++i)
      std::swap(offsets_[i], offsets_[i + std::uniform_int_distribution<std::uint32_t>(0, programmed - 1 - i)(rng_)]);
    live_.assign(programmed, false);
    for (std::uint32_t i = 0; i < valid; ++i) live_[offsets_[i]] = true;
    for (std::uint32_t off = 0; off < programmed; ++off) {
      if (!live_[off]) {
        hal_.preload(ppn_of(off), any_lpn_(rng_), kUnwrittenToken);
        continue;
      }
      const Lpn lpn = static_cast<Lpn>(deal_(dealt_++));
      hal_.preload(ppn_of(off), lpn, token_of_(lpn));
      on_live(off, lpn);
    }
  }

  // Throws std::logic_error unless every logical page was dealt exactly once.
  void check_all_dealt() const {
    if (dealt_ != logical_)
      throw std::logic_error("steady-state preload dealt " + std::to_string(dealt_) + " of " +
                             std::to_string(logical_) + " logical pages");
  }

 private:
  Hal& hal_;
  std::uint64_t logical_, dealt_ = 0;
  RandomPermutation deal_;
  std::function<Token(Lpn)> token_of_;
  std::mt19937_64 rng_;
  std::uniform_int_distribution<Lpn> any_lpn_;
  std::vector<std::uint32_t> offsets_;
  std::vector<bool> live_;
};

}  // namespace ssd::fw
