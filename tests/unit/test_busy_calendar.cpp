#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "tlm/busy_calendar.h"

using ssd::tlmx::BusyCalendar;

namespace {
// The reference: a bitmap of busy picoseconds (small times), first fit at or after arrival.
std::uint64_t reference_book(std::vector<bool>& busy, std::uint64_t arrival, std::uint64_t duration) {
  std::uint64_t start = arrival;
  for (;;) {
    bool free = true;
    for (std::uint64_t t = start; t < start + duration && free; ++t) free = !busy[t];
    if (free) break;
    ++start;
  }
  for (std::uint64_t t = start; t < start + duration; ++t) busy[t] = true;
  return start;
}
}  // namespace

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
    REQUIRE(c.book(arrival, duration, now) == reference_book(busy, arrival, duration));
  }
}

TEST_CASE("Busy calendar matches the reference with long transfers among many short bookings", "[calendar]") {
  // Short core accesses booked ahead with small gaps, long DMA transfers arriving early: the
  // transfers skip many gaps too small for them (the pattern that made the list walk quadratic).
  std::mt19937_64 rng(5);
  BusyCalendar c;
  std::vector<bool> busy(400000, false);
  std::uint64_t now = 0;
  for (int i = 0; i < 4000; ++i) {
    now += rng() % 30;
    const bool dma = rng() % 8 == 0;
    const std::uint64_t arrival = now + (dma ? rng() % 50 : rng() % 3000);
    const std::uint64_t duration = dma ? 60 + rng() % 60 : 1 + rng() % 6;
    REQUIRE(c.book(arrival, duration, now) == reference_book(busy, arrival, duration));
  }
}

TEST_CASE("Busy calendar finds a gap past many small ones in logarithmic steps", "[calendar]") {
  // 2^16 bookings of 10 ps with gaps of 5 ps ahead in time; then transfers of 100 ps arriving
  // before all of them fit only after the last. A walk over the gaps visits all 65,536; the
  // tree descends to the fit: its steps stay within a small multiple of log2(bookings).
  BusyCalendar c;
  const std::uint64_t n = 1 << 16;
  for (std::uint64_t i = 0; i < n; ++i) REQUIRE(c.book(1000 + 15 * i, 10, 0) == 1000 + 15 * i);
  REQUIRE(c.bookings() == n);
  const std::uint64_t after = 1000 + 15 * (n - 1) + 10;
  std::uint32_t most_steps = 0;
  for (std::uint64_t k = 0; k < 1000; ++k) {
    // The first ten fill the 1,000 ps before everything, the rest go after the last booking.
    CHECK(c.book(0, 100, 0) == (k < 10 ? 100 * k : after + 100 * (k - 10)));
    most_steps = std::max(most_steps, c.last_search_steps());
  }
  // Transfers that fit in a gap in the middle: a 5 ps one lands in the first gap after it arrives.
  CHECK(c.book(1000 + 15 * 30000 + 3, 5, 0) == 1000 + 15 * 30000 + 10);
  most_steps = std::max(most_steps, c.last_search_steps());
  INFO("most steps: " << most_steps);
  CHECK(most_steps <= 8 * static_cast<std::uint32_t>(std::log2(double(n))));
}

TEST_CASE("Busy calendar matches the reference through runs of appends, earlier arrivals and forgetting",
          "[calendar]") {
  // A job's accesses each after the last (the tail's appends, touching ones merged), DMA arriving
  // earlier (the tail moved into the tree), time going on (bookings forgotten from the tree and
  // from the tail's front). The held bookings are the reference's busy runs not yet ended.
  std::mt19937_64 rng(23);
  BusyCalendar c;
  std::vector<bool> busy(600000, false);
  std::uint64_t now = 0, last_end = 0;
  const auto runs_not_ended = [&busy](std::uint64_t by) {
    std::size_t runs = 0;
    for (std::uint64_t t = by; t < busy.size(); ++t) runs += busy[t] && (t == by || !busy[t - 1]);
    return runs;
  };
  for (int i = 0; i < 6000; ++i) {
    now += rng() % 40;
    std::uint64_t arrival = now + rng() % 200, duration = 1 + rng() % 30;
    if (rng() % 4 != 0) {
      for (std::uint64_t k = 1 + rng() % 20; k > 0; --k) {
        const std::uint64_t at = std::max(now, last_end) + rng() % 3, length = 1 + rng() % 5;
        const std::uint64_t start = reference_book(busy, at, length);
        REQUIRE(c.book(at, length, now) == start);
        last_end = std::max(last_end, start + length);
      }
      continue;
    }
    const std::uint64_t start = reference_book(busy, arrival, duration);
    REQUIRE(c.book(arrival, duration, now) == start);
    last_end = std::max(last_end, start + duration);
    if (i % 50 == 0) REQUIRE(c.bookings() == runs_not_ended(now));
  }
}
