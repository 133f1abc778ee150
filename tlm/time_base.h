// The kernel's time base, chosen deliberately.
//
// SystemC counts time as a 64-bit number of resolution ticks. At its default resolution of 1 ps
// that holds only 2^63 ps (about 107 days, where double conversions saturate), so a long trace
// replay ran into the ceiling and every later arrival was silently clamped. One tick here is
// 10 ps: the fastest clock the platform accepts (10 GHz, a 100 ps period) is still 10 ticks, a
// 400 MT/s byte is 250 ticks, and the kernel holds 2.9 years.
//
// A run may use at most kMaxSimulatedTicks (2^62 ticks, about 1.46 years), half of what the kernel
// holds, so that no event scheduled from a time within the limit can overflow. Workloads whose
// arrivals lie beyond it are refused before simulation, and a run whose time runs away stops at
// the limit with an error (sc_start is bounded by it).
//
// Statistics that accumulate time (busy, wait) count kernel ticks in counters named *_ticks;
// to_seconds() converts them.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <systemc>

namespace ssd::tlmx {

constexpr double kTickPicoseconds = 10.0;
constexpr std::uint64_t kMaxSimulatedTicks = std::uint64_t(1) << 62;

// Sets the kernel's resolution to one tick. Call first thing in every sc_main, before any
// non-zero sc_time exists; calling it again is harmless.
void init_time_base();

inline double ticks_to_seconds(std::uint64_t ticks) { return double(ticks) * kTickPicoseconds * 1e-12; }
inline double max_simulated_seconds() { return ticks_to_seconds(kMaxSimulatedTicks); }
inline sc_core::sc_time max_simulated_time() { return sc_core::sc_time::from_value(kMaxSimulatedTicks); }
// A clock's cycles in kernel ticks: `count` periods of an unrounded period, rounded once to the
// nearest tick as std::llround rounds. A whole period (500 MHz is 200 ticks) multiplies exactly
// in integers, without the library's rounding call (two in the path of every table access).
class CycleTicks {
 public:
  explicit CycleTicks(double period_ticks)
      : period_(period_ticks),
        whole_(period_ticks >= 1 && period_ticks < 1e15 && std::floor(period_ticks) == period_ticks
                   ? static_cast<std::uint64_t>(period_ticks)
                   : 0),
        // below it, double(count) * period is an integer under 2^53 and so exact: the same result
        exact_below_(whole_ ? (std::uint64_t(1) << 53) / whole_ : 0) {}
  std::uint64_t operator()(std::uint64_t count) const {
    if (count < exact_below_) return whole_ * count;
    return static_cast<std::uint64_t>(std::llround(period_ * double(count)));
  }

 private:
  double period_;
  std::uint64_t whole_;  // the period when it is a whole number of ticks, else 0
  std::uint64_t exact_below_;
};

// Kernel ticks of the current simulation time.
inline std::uint64_t now_ticks() { return sc_core::sc_time_stamp().value(); }
// A duration in seconds as kernel time, rounded to the nearest tick; refuses what the time base
// cannot hold (instead of the kernel's silent saturation).
sc_core::sc_time seconds_to_time(double seconds, const std::string& what);
// "1.46 years" / "123.4 s": the limit in words, for error messages.
std::string describe_limit();

}  // namespace ssd::tlmx
