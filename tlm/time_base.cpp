#include "tlm/time_base.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace ssd::tlmx {

void init_time_base() {
  static bool done = false;
  if (done) return;
  sc_core::sc_set_time_resolution(kTickPicoseconds, sc_core::SC_PS);
  done = true;
}

sc_core::sc_time seconds_to_time(double seconds, const std::string& what) {
  if (!(seconds >= 0) || !(seconds <= max_simulated_seconds()))
    throw std::out_of_range(fmt::format("{} of {:g} s is beyond the simulator's time limit of {}", what, seconds,
                                        describe_limit()));
  return sc_core::sc_time::from_value(static_cast<std::uint64_t>(std::llround(seconds / (kTickPicoseconds * 1e-12))));
}

std::string describe_limit() {
  const double s = max_simulated_seconds();
  return fmt::format("{:.0f} s ({:.2f} years at a {:g} ps time resolution)", s, s / (365.25 * 86400), kTickPicoseconds);
}

}  // namespace ssd::tlmx
