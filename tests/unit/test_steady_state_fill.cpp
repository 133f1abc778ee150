#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "common/log_structured_model.h"
#include "fw/precondition/steady_state_fill.h"

using ssd::Lpn;
using ssd::fw::SteadyStateFill;

TEST_CASE("steady-state fill: the victim's valid share solves u = exp(-(1-u) P/U)", "[precondition]") {
  for (double r : {1.02, 1.07, 1.25, 2.0}) {
    const double u = ssd::fifo_victim_valid_share(r);
    INFO("P/U = " << r);
    CHECK(u > 0.0);
    CHECK(u < 1.0);
    CHECK(u == Approx(std::exp(-(1.0 - u) * r)).epsilon(1e-9));
  }
  // Closed form check: P/U = 2 gives u = 0.2032 (the root of u = e^{-2(1-u)}).
  CHECK(ssd::fifo_victim_valid_share(2.0) == Approx(0.2031878).epsilon(1e-5));
  CHECK_THROWS(ssd::fifo_victim_valid_share(1.0));
}

TEST_CASE("steady-state fill: every logical page written, last writes distributed by age as the model says",
          "[precondition]") {
  const std::uint64_t U = 20000, P = 23000;
  SteadyStateFill fill(U, P, 42);
  REQUIRE(fill.length() == P);

  std::vector<std::int64_t> last(U, -1);
  std::vector<std::uint32_t> at;
  Lpn lpn;
  std::uint64_t n = 0;
  while (fill.next(lpn)) {
    REQUIRE(lpn < U);
    last[lpn] = static_cast<std::int64_t>(n);
    at.push_back(static_cast<std::uint32_t>(lpn));
    ++n;
  }
  CHECK(n == P);
  // Every logical page is written, so the fill replaces the sequential one.
  std::uint64_t finals = 0;
  for (std::int64_t p : last) finals += p >= 0;
  CHECK(finals == U);

  // Valid (final) writes by age: the share in each tenth of the sequence matches the integral of
  // exp(-a(1-u)/U) over it (binomial noise: a few percent at these sizes).
  std::vector<bool> is_final(P, false);
  for (std::int64_t p : last) is_final[static_cast<std::size_t>(p)] = true;
  const double u = fill.victim_valid_share(), k = (1 - u) / double(U);
  for (int tenth = 0; tenth < 10; ++tenth) {
    const std::uint64_t a0 = P * tenth / 10, a1 = P * (tenth + 1) / 10;  // positions [a0, a1)
    std::uint64_t got = 0;
    for (std::uint64_t i = a0; i < a1; ++i) got += is_final[i];
    // Ages P-1-i for i in [a0, a1): integral of exp(-k a) from P-a1 to P-a0.
    const double expect = (std::exp(-k * double(P - a1)) - std::exp(-k * double(P - a0))) / k;
    INFO("tenth " << tenth << ": " << got << " final writes, model " << expect);
    CHECK(double(got) == Approx(expect).epsilon(0.06));
  }
  // The oldest write is valid with probability u, the youngest with probability 1.
  CHECK(is_final[P - 1]);
  CHECK(u == Approx(ssd::fifo_victim_valid_share(double(P) / double(U))));
  CHECK(fill.predicted_waf() == Approx(1.0 / (1.0 - u)));
}

TEST_CASE("steady-state fill: same seed, same sequence, bad sizes rejected", "[precondition]") {
  SteadyStateFill a(1000, 1100, 5), b(1000, 1100, 5);
  Lpn la, lb;
  while (a.next(la)) {
    REQUIRE(b.next(lb));
    REQUIRE(la == lb);
  }
  CHECK_FALSE(b.next(lb));
  CHECK_THROWS_AS(SteadyStateFill(1000, 1000, 1), std::invalid_argument);
  CHECK_THROWS_AS(SteadyStateFill(0, 10, 1), std::invalid_argument);
}
