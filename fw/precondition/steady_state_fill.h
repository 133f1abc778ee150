// The order of logical page writes that leaves a drive in the steady state of uniform random
// page writes without running them (and without the garbage collection they would cost).
//
// The model (the log-structured analysis of Desnoyers, "Analytic modeling of SSD write
// performance", SYSTOR 2012): in steady state under uniform random writes, a physical page
// programmed `a` page programs ago survived a(1-u) host writes (a share u of programs are GC
// copies), each of which overwrote it with probability 1/U, so it is still valid with
// probability exp(-a(1-u)/U). The oldest page, the one GC reclaims next, has age P (the
// physical pages in use), so the victim's valid share u solves u = exp(-(1-u)P/U), and the
// write amplification is 1/(1-u). The sum of the valid probabilities over all ages is exactly U.
//
// The sequence has P writes, oldest first. Position i (age P-1-i) is a page's final write with
// that probability; exactly U positions are final (the Bernoulli draw is corrected by flipping
// uniformly chosen positions, O(sqrt U) of them), the last one always is, and the final
// positions receive a random permutation of the logical pages. Every other position writes a
// logical page whose final write comes later, drawn uniformly among those, so it is stale by
// the end, as an overwritten page is. An FTL that places writes in program order (page mapping,
// DFTL, CAST) ends with its blocks' valid counts distributed as after a long random-write run
// under FIFO reclaim; greedy reclaim then settles within a few percent of a capacity (the
// preconditioner measures that before it stops).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/geometry.h"

namespace ssd::fw {

// The preconditioner (platforms/run/preconditioner.h) issues each as a one-page host write.
class SteadyStateFill {
 public:
  // logical_pages: U. physical_pages: P, the pages the drive can program before its GC must
  // start (> U).
  SteadyStateFill(std::uint64_t logical_pages, std::uint64_t physical_pages, std::uint64_t seed);

  // The logical page of the next write; false after the last one.
  bool next(Lpn& lpn);
  std::string describe() const;

  std::uint64_t length() const { return final_.size(); }
  // The valid share of the page GC reclaims next (u, from common/log_structured_model.h) and the
  // steady-state write amplification.
  double victim_valid_share() const { return u_; }
  double predicted_waf() const { return 1.0 / (1.0 - u_); }

 private:
  std::uint64_t logical_, at_ = 0, finals_done_ = 0;
  double u_;
  std::vector<bool> final_;           // per position: the page's final write
  std::vector<std::uint32_t> order_;  // logical page of the k-th final write
  std::mt19937_64 rng_;
};

}  // namespace ssd::fw
