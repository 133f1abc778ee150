#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "tlm/busy_calendar.h"

using ssd::tlmx::BusyCalendar;

TEST_CASE("Busy calendar books the first gap at or after arrival", "[calendar]") {
  BusyCalendar c;
  CHECK(c.book(100, 50, 0) == 100);   // [100,150)
  CHECK(c.book(100, 20, 0) == 150);   // queued behind it: [150,170)
  CHECK(c.book(400, 10, 0) == 400);   // a booking ahead in time: [400,410)
  CHECK(c.book(200, 100, 0) == 200);  // an earlier arrival still fits before it: [200,300)
  CHECK(c.book(250, 120, 0) == 410);  // no gap of 120 before 410
  CHECK(c.book(170, 30, 0) == 170);   // exactly fills [170,200)
  CHECK(c.book(0, 100, 0) == 0);      // fits before everything
}

TEST_CASE("Busy calendar forgets bookings that ended and merges touching ones", "[calendar]") {
  BusyCalendar c;
  for (int i = 0; i < 100; ++i) c.book(0, 10, 0);  // back to back: one merged booking
  CHECK(c.bookings() == 1);
  CHECK(c.book(0, 10, 0) == 1000);
  CHECK(c.book(5000, 10, 2000) == 5000);  // the past (ended by 2000) is dropped
  CHECK(c.bookings() == 1);
}

TEST_CASE("Busy calendar matches a brute-force reference on random bookings", "[calendar]") {
  // Reference: a bitmap of busy picoseconds (small times), first fit at or after arrival.
  std::mt19937_64 rng(11);
  BusyCalendar c;
  std::vector<bool> busy(200000, false);
  std::uint64_t now = 0;
  for (int i = 0; i < 3000; ++i) {
    now += rng() % 20;
    const std::uint64_t arrival = now + rng() % 300, duration = 1 + rng() % 40;
    std::uint64_t start = arrival;
    for (;;) {
      bool free = true;
      for (std::uint64_t t = start; t < start + duration && free; ++t) free = !busy[t];
      if (free) break;
      ++start;
    }
    for (std::uint64_t t = start; t < start + duration; ++t) busy[t] = true;
    REQUIRE(c.book(arrival, duration, now) == start);
  }
}
