// Energy per interval (common/energy_meter.h): what the report's energy.over_time reads.
#include <catch2/catch.hpp>
#include <numeric>

#include "common/energy_meter.h"

using ssd::BusyTime;
using ssd::EnergyMeter;

namespace {
constexpr std::uint64_t kIntervalTicks = BusyTime::kInitialIntervalTicks;
double sum(const EnergyMeter& e) { return std::accumulate(e.per_interval().begin(), e.per_interval().end(), 0.0); }
}  // namespace

TEST_CASE("Energy meter: an operation's energy is spread over its span in proportion to the time",
          "[metrics][energy]") {
  EnergyMeter e;
  e.add(kIntervalTicks / 2, 2 * kIntervalTicks + kIntervalTicks / 4,
        700.0);  // 1.75 ms: half a ms, a whole ms, a quarter ms
  REQUIRE(e.per_interval().size() == 3);
  CHECK(e.per_interval()[0] == Approx(200.0));
  CHECK(e.per_interval()[1] == Approx(400.0));
  CHECK(e.per_interval()[2] == Approx(100.0));
  e.add(2 * kIntervalTicks + 10, 2 * kIntervalTicks + 20, 5.0);  // within the last one's interval
  e.add(kIntervalTicks, kIntervalTicks, 3.0);                    // a point at an interval's start: that interval
  CHECK(e.per_interval()[2] == Approx(105.0));
  CHECK(e.per_interval()[1] == Approx(403.0));
  CHECK(e.picojoules() == Approx(708.0));
  CHECK(sum(e) == Approx(e.picojoules()));
}

TEST_CASE("Energy meter: a long run doubles the interval and keeps every picojoule", "[metrics][energy]") {
  EnergyMeter e;
  double total = 0;
  for (std::uint64_t i = 0; i < 5000; ++i) {  // 5000 ms of 1 pJ a ms, in 100 us operations
    e.add(i * kIntervalTicks, i * kIntervalTicks + kIntervalTicks / 10, 1.0);
    total += 1.0;
  }
  CHECK(e.per_interval().size() <= BusyTime::kMaxIntervals);
  CHECK(e.interval_ticks() == 8 * kIntervalTicks);  // 5000 intervals of 1 ms do not fit in 1000; 625 of 8 do
  CHECK(e.per_interval()[0] == Approx(8.0));
  CHECK(e.picojoules() == Approx(total));
  CHECK(sum(e) == Approx(total));
  e.reset();
  CHECK(e.picojoules() == 0);
  e.add(0, kIntervalTicks / 2, 2.0);
  CHECK(e.per_interval()[0] == Approx(2.0));
}
