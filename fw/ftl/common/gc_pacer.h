// Paced GC (ftl.gc_pacing=paced), the rule page mapping and DFTL/CAST share: how many of a
// victim's copies each host page write owes. The balance rate is v / (P - v) copies per host
// page for a victim of v valid pages out of P (freeing it gives the host P - v pages), steered
// by the free pages against threshold x P, about where threshold GC keeps them (a pool allowed
// to sink would act as extra over-provisioning, one kept higher as less); when the free
// blocks or segments are down to the reserve + 1, every remaining copy at once.
#pragma once

#include <algorithm>
#include <cstdint>

namespace ssd::fw {

class GcPacer {
 public:
  static constexpr std::uint32_t kAll = 0xffffffffu;

  // A victim of `valid` of `pages` pages starts being reclaimed. One with every page valid
  // (static wear leveling's, fw/ftl/common/wear_leveling.h) frees no page for the host to pace
  // against: its copies are owed at once.
  void start(std::uint32_t valid, std::uint32_t pages) {
    all_at_once_ = valid >= pages;
    rate_ = all_at_once_ ? 0 : double(valid) / double(pages - valid);
    credit_ = 0;
  }

  // After a host page write: the copies now owed (kAll: catch up). `free_units` blocks or
  // segments of `unit_pages` pages are free, `free_pages` counts them and the room left in the
  // open ones.
  std::uint32_t owed(std::uint32_t free_units, std::uint32_t reserve, std::uint32_t threshold,
                     std::uint32_t unit_pages, double free_pages) {
    if (all_at_once_ || free_units <= reserve + 1) return kAll;
    const double steer = std::max(0.0, 1.0 + (double(threshold) * unit_pages - free_pages) / unit_pages);
    credit_ += rate_ * steer;
    const auto owed = static_cast<std::uint32_t>(credit_);
    credit_ -= owed;
    return owed;
  }

 private:
  double rate_ = 0, credit_ = 0;
  bool all_at_once_ = false;
};

}  // namespace ssd::fw
