// Whether the measured run was in steady state, judged the way the SNIA Solid State Storage
// Performance Test Specification judges it: the run's completions over time (host.over_time)
// are cut into five rounds of equal simulated time; the run is steady when the rounds' IOPS lie
// within 20% of their average (max - min <= 0.2 x average) and the least-squares line through
// them moves by at most 10% of the average across the window (|slope| x 4 rounds <= 0.1 x
// average). The PTS's rounds are minute-long test runs; here they are fifths of one run, each at
// least four over-time intervals long, or the run is too short to judge. Open-loop runs follow
// their trace's arrivals, so the verdict does not apply to them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ssd::platform {

inline constexpr int kSteadyRounds = 5;
inline constexpr int kMinIntervalsPerRound = 4;
inline constexpr double kSteadyRangeShare = 0.2, kSteadySlopeShare = 0.1;

// {"verdict": "steady" | "not steady" | "too short" | "not applicable", "rounds_iops": [...],
//  "average_iops", "range_share", "slope_share", "explanation"}.
nlohmann::json steady_state_verdict(const nlohmann::json& over_time, bool open_loop);

// The summary's line: the verdict, and a warning when it is not steady or cannot tell.
std::string steady_state_text(const nlohmann::json& verdict);

}  // namespace ssd::platform
