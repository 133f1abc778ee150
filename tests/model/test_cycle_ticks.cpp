#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>

#include "tlm/time_base.h"

using ssd::tlmx::CycleTicks;

TEST_CASE("Cycle ticks: a whole period multiplies exactly, a fractional one rounds once as llround does",
          "[model][time]") {
  const CycleTicks whole(200.0);  // 500 MHz at 10 ps a tick
  CHECK(whole(0) == 0);
  CHECK(whole(5) == 1000);
  // Up to and past the bound below which the integer product is the rounded double product.
  const std::uint64_t bound = (std::uint64_t(1) << 53) / 200;
  for (const std::uint64_t n : {std::uint64_t(1), std::uint64_t(1) << 20, bound - 1, bound, bound + 7})
    CHECK(whole(n) == static_cast<std::uint64_t>(std::llround(200.0 * double(n))));
  const double period = 1e6 / 333.0 / 10.0;  // 333 MHz: 300.3003... ticks
  const CycleTicks fractional(period);
  CHECK(fractional(1) == 300);
  CHECK(fractional(3) == 901);  // 900.9009 rounded once, not 3 x 300
  for (std::uint64_t n = 0; n < 2000; ++n)
    CHECK(fractional(n) == static_cast<std::uint64_t>(std::llround(period * double(n))));
}
