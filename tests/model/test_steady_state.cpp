// The SNIA-style steady-state verdict (platforms/report/steady_state.h) on made-up series whose
// answer is known in closed form.
#include <catch2/catch.hpp>

#include <functional>

#include "platforms/report/steady_state.h"

using nlohmann::json;
using ssd::platform::steady_state_verdict;

namespace {

// 26 intervals (the last, partial, is left out): 5 rounds of 5 intervals.
json series(const std::function<double(int)>& iops_of_interval) {
  json points = json::array();
  for (int i = 0; i < 26; ++i) points.push_back({{"iops", iops_of_interval(i)}});
  return {{"interval_s", 0.01}, {"points", points}};
}

}  // namespace

TEST_CASE("steady state: a flat series is steady", "[report][steady]") {
  const json v = steady_state_verdict(series([](int) { return 1000.0; }), false);
  CHECK(v["verdict"] == "steady");
  CHECK(v["range_share"].get<double>() == Approx(0).margin(1e-12));
  CHECK(v["average_iops"].get<double>() == Approx(1000));
}

TEST_CASE("steady state: a ramp fails the slope criterion", "[report][steady]") {
  // Rounds 900, 950, 1000, 1050, 1100 (intervals i -> 900 + 50 x (i / 5)): range 20% of 1000 (at
  // the limit), the fitted line moves 200 = 20% > 10%.
  const json v = steady_state_verdict(series([](int i) { return 900.0 + 50.0 * (i / 5); }), false);
  CHECK(v["range_share"].get<double>() == Approx(0.2));
  CHECK(v["slope_share"].get<double>() == Approx(0.2));
  CHECK(v["verdict"] == "not steady");
}

TEST_CASE("steady state: alternating rounds fail the range criterion, not the slope", "[report][steady]") {
  // Rounds 800, 1200, 800, 1200, 800: average 960, range 400 = 41.7%; slope 0.
  const json v = steady_state_verdict(series([](int i) { return (i / 5) % 2 ? 1200.0 : 800.0; }), false);
  CHECK(v["average_iops"].get<double>() == Approx(960));
  CHECK(v["range_share"].get<double>() == Approx(400.0 / 960));
  CHECK(v["slope_share"].get<double>() == Approx(0).margin(1e-12));
  CHECK(v["verdict"] == "not steady");
}

TEST_CASE("steady state: too few intervals, or an open-loop run, are not judged", "[report][steady]") {
  json short_series = series([](int) { return 1.0; });
  // 20 points (19 full intervals): rounds of 3 intervals, fewer than the 4 required.
  short_series["points"] = json(std::vector<json>(short_series["points"].begin(), short_series["points"].begin() + 20));
  CHECK(steady_state_verdict(short_series, false)["verdict"] == "too short");
  CHECK(steady_state_verdict(series([](int) { return 1.0; }), true)["verdict"] == "not applicable");
}
