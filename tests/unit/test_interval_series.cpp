#include <catch2/catch.hpp>

#include "common/interval_series.h"

using ssd::IntervalSeries;

TEST_CASE("Interval series: counts per interval, doubling the interval past the limit", "[metrics][series]") {
  IntervalSeries s(10, 4);  // 10 ns intervals, at most 4
  s.record(5, 100, 512, false);
  s.record(15, 300, 1024, true);
  s.record(19, 50, 512, false);
  REQUIRE(s.intervals().size() == 2);
  CHECK(s.intervals()[1].reads == 1);
  CHECK(s.intervals()[1].writes == 1);
  CHECK(s.intervals()[1].bytes == 1536);
  CHECK(s.intervals()[1].latency_sum_ns == 350);
  CHECK(s.intervals()[1].latency_max_ns == 300);
  // t = 45 needs interval 4 of 10 ns: the series doubles to 20 ns (0-1 and 2-3 merge).
  s.record(45, 10, 512, true);
  CHECK(s.length_ns() == 20);
  REQUIRE(s.intervals().size() == 3);
  CHECK(s.intervals()[0].reads == 2);
  CHECK(s.intervals()[0].writes == 1);
  CHECK(s.intervals()[0].latency_max_ns == 300);
  CHECK(s.intervals()[1].reads + s.intervals()[1].writes == 0);
  CHECK(s.intervals()[2].writes == 1);
  // Far beyond: doubles until it fits (t = 1000 -> 320 ns intervals, index 3).
  s.record(1000, 1, 512, false);
  CHECK(s.length_ns() == 320);
  REQUIRE(s.intervals().size() == 4);
  CHECK(s.intervals()[0].reads + s.intervals()[0].writes == 4);
  CHECK(s.intervals()[3].reads == 1);
}
