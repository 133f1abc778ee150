// Closed forms of a log-structured drive under uniform random page writes with FIFO reclaim
// (Desnoyers, "Analytic modeling of SSD write performance", SYSTOR 2012): with U live pages in
// P physical pages in use, a page programmed a programs ago is still valid with probability
// exp(-a(1-u)/U), and the page reclaimed next (age P) with u, the root in (0, 1) of
// u = exp(-(1-u) P/U). The write amplification is 1/(1-u).
#pragma once

#include <cmath>
#include <stdexcept>

namespace ssd {

inline double fifo_victim_valid_share(double physical_over_logical) {
  if (!(physical_over_logical > 1.0))
    throw std::invalid_argument("the FIFO steady state needs more physical than logical pages");
  // f(u) = u - exp(-(1-u) r) is negative near 0, positive just below the trivial root u = 1.
  double lo = 0.0, hi = 1.0 - 1e-12;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid - std::exp(-(1.0 - mid) * physical_over_logical) < 0) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace ssd
