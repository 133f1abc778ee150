// Busy time per interval (common/busy_time.h): what the report's utilization.over_time reads.
#include <catch2/catch.hpp>

#include <numeric>

#include "common/busy_time.h"

using ssd::BusyTime;

namespace {
constexpr std::uint64_t kMs = BusyTime::kInitialIntervalTicks;
std::uint64_t sum(const BusyTime& b) {
  return std::accumulate(b.per_interval().begin(), b.per_interval().end(), std::uint64_t(0));
}
}  // namespace

TEST_CASE("Busy time: a span is split at interval boundaries and its total kept", "[metrics][busy]") {
  BusyTime b;
  b.add(kMs / 2, 2 * kMs + kMs / 4);  // half of the first, all of the second, a quarter of the third
  REQUIRE(b.per_interval().size() == 3);
  CHECK(b.per_interval()[0] == kMs / 2);
  CHECK(b.per_interval()[1] == kMs);
  CHECK(b.per_interval()[2] == kMs / 4);
  CHECK(b.ticks() == kMs * 7 / 4);
  b.remove(2 * kMs, 2 * kMs + kMs / 4);  // the end of a suspended operation that did not happen
  CHECK(b.per_interval()[2] == 0);
  CHECK(b.ticks() == kMs * 3 / 2);
  b.add(5, 5);  // empty
  CHECK(b.ticks() == kMs * 3 / 2);
}

TEST_CASE("Busy time: the interval doubles, merging neighbours, past 1,000 intervals", "[metrics][busy]") {
  BusyTime b;
  b.add(0, 10);
  b.add(kMs, kMs + 20);
  b.add(999 * kMs, 999 * kMs + 30);
  CHECK(b.interval_ticks() == kMs);
  CHECK(b.per_interval().size() == 1000);
  b.add(1000 * kMs, 1000 * kMs + 40);  // interval 1,000 of 1 ms: 2 ms intervals, 0 and 1 merge
  CHECK(b.interval_ticks() == 2 * kMs);
  REQUIRE(b.per_interval().size() == 501);
  CHECK(b.per_interval()[0] == 30);
  CHECK(b.per_interval()[499] == 30);
  CHECK(b.per_interval()[500] == 40);
  b.add(3999 * kMs, 4001 * kMs);  // needs 8 ms intervals: 4001 ms is interval 500
  CHECK(b.interval_ticks() == 8 * kMs);
  CHECK(b.per_interval()[499] == kMs);
  CHECK(b.per_interval()[500] == kMs);
  CHECK(b.ticks() == 100 + 2 * kMs);
  CHECK(sum(b) == b.ticks());
  b.reset();
  CHECK(b.ticks() == 0);
  CHECK(sum(b) == 0);
}
