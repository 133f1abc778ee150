#include "platforms/report/steady_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ssd::platform {

using nlohmann::json;

json steady_state_verdict(const json& over_time, bool open_loop) {
  json v = {{"rounds_iops", json::array()}, {"average_iops", 0.0}, {"range_share", 0.0}, {"slope_share", 0.0}};
  if (open_loop) {
    v["verdict"] = "not applicable";
    v["explanation"] = "open loop: the trace's arrival times set the pace";
    return v;
  }
  const json& points = over_time["points"];
  // The last interval is cut short by the end of the run: left out.
  const std::size_t usable = points.empty() ? 0 : points.size() - 1;
  const std::size_t per_round = usable / kSteadyRounds;
  if (per_round < std::size_t(kMinIntervalsPerRound)) {
    v["verdict"] = "too short";
    v["explanation"] = fmt::format("{} full intervals of {:.3g} s; judging needs {} rounds of at least {}", usable,
                                   over_time["interval_s"].get<double>(), kSteadyRounds, kMinIntervalsPerRound);
    return v;
  }
  std::vector<double> y;
  for (int r = 0; r < kSteadyRounds; ++r) {
    double sum = 0;
    for (std::size_t i = r * per_round; i < (r + 1) * per_round; ++i) sum += points[i]["iops"].get<double>();
    y.push_back(sum / double(per_round));
  }
  const double n = kSteadyRounds, mean = [&] {
    double s = 0;
    for (double x : y) s += x;
    return s / n;
  }();
  double sxy = 0, sxx = 0;
  for (int r = 0; r < kSteadyRounds; ++r) {
    sxy += (r - (n - 1) / 2) * (y[r] - mean);
    sxx += (r - (n - 1) / 2) * (r - (n - 1) / 2);
  }
  const double slope = sxy / sxx;  // IOPS per round
  const auto [lo, hi] = std::minmax_element(y.begin(), y.end());
  const double range_share = mean > 0 ? (*hi - *lo) / mean : 0.0;
  const double slope_share = mean > 0 ? std::abs(slope) * (n - 1) / mean : 0.0;
  const bool steady = mean > 0 && range_share <= kSteadyRangeShare && slope_share <= kSteadySlopeShare;
  v["rounds_iops"] = y;
  v["average_iops"] = mean;
  v["range_share"] = range_share;
  v["slope_share"] = slope_share;
  v["verdict"] = steady ? "steady" : "not steady";
  v["explanation"] = fmt::format("5 rounds of {:.3g} s: range {:.1f}% of the average (at most 20%), slope {:.1f}% "
                                 "(at most 10%)",
                                 per_round * over_time["interval_s"].get<double>(), 100 * range_share, 100 * slope_share);
  return v;
}

std::string steady_state_text(const json& v) {
  const std::string verdict = v["verdict"].get<std::string>(), why = v["explanation"].get<std::string>();
  if (verdict == "steady") return "  steady state (SNIA PTS): yes; " + why + "\n";
  if (verdict == "not applicable") return "  steady state: not judged (" + why + ")\n";
  if (verdict == "too short")
    return "  WARNING: the run is too short to tell whether it was in steady state (" + why +
           "); figures may describe a transient\n";
  return "  WARNING: not in steady state (SNIA PTS): " + why +
         "; precondition (--precondition fill+steady) or run longer before trusting steady-state figures\n";
}

}  // namespace ssd::platform
