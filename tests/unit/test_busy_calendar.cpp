#include <catch2/catch.hpp>

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
