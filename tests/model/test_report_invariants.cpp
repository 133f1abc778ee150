// The sanity layer refuses a report that cannot be right, naming the invariant.
#include <catch2/catch.hpp>

#include "platforms/report/report_invariants.h"

using ssd::platform::check_report_invariants;
using ssd::platform::InvariantError;
using ssd::platform::WorkloadTotals;
using json = nlohmann::json;

namespace {
json latency(double p50, double max) {
  return {{"count", 10}, {"mean", (p50 + max) / 2}, {"p50", p50}, {"p90", p50}, {"p99", max},
          {"p99_9", max}, {"p99_99", max}, {"max", max}};
}
// A consistent report of 10 requests of 4 KiB (the fields the checker reads).
json sound_report() {
  json die = {{"busy_fraction", 0.5}};
  json r;
  r["host"] = {{"requests", 10}, {"reads", 4}, {"writes", 6}, {"read_bytes", 4 * 4096}, {"write_bytes", 6 * 4096},
               {"simulated_seconds", 0.01}, {"latency_us", latency(100, 900)},
               {"read_latency_us", latency(80, 200)}, {"write_latency_us", latency(120, 900)}};
  r["hardware"] = {{"simulated_seconds", 0.012},
                   {"channels", json::array({{{"busy_fraction", 0.3}, {"dies", json::array({die, die})}}})},
                   {"system_bus", {{"busy_fraction", 0.1}}},
                   {"sram", {{"busy_fraction", 0.1}}},
                   {"dram", {{"busy_fraction", 0.1}}},
                   {"cores", {{"utilization", 0.2}, {"per_core", json::array({{{"utilization", 0.2}}})}}}};
  r["utilization"]["over_time"] = {{"interval_s", 0.01},
                                   {"start_s", {0.0, 0.01}},
                                   {"series", {{"dies (max)", {0.9, 0.4}}, {"system bus", {0.1, 0.1}}}}};
  r["ftl_metrics"] = {{"waf", 1.5}, {"host_pages_written", 6}};
  return r;
}
const WorkloadTotals kTotals{10, 10 * 4096};

void expect_violation(const json& r, const std::string& invariant) {
  try {
    check_report_invariants(r, kTotals);
    FAIL("no violation reported; expected '" << invariant << "'");
  } catch (const InvariantError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("'" + invariant + "'") != std::string::npos);
  }
}
}  // namespace

TEST_CASE("report invariants: a sound report passes, each broken invariant is named", "[report][invariants]") {
  CHECK_NOTHROW(check_report_invariants(sound_report(), kTotals));

  json r = sound_report();
  r["host"]["simulated_seconds"] = 9.3e7;  // beyond 2^62 ticks of 10 ps
  expect_violation(r, "simulated time within the time base");

  r = sound_report();
  r["hardware"]["channels"][0]["dies"][1]["busy_fraction"] = 1.25;
  expect_violation(r, "busy fraction within [0, 1]");
  r = sound_report();
  r["hardware"]["cores"]["per_core"][0]["utilization"] = 1.01;
  expect_violation(r, "busy fraction within [0, 1]");
  r = sound_report();
  r["utilization"]["over_time"]["series"]["dies (max)"][1] = 1.5;
  expect_violation(r, "busy fraction within [0, 1]");

  r = sound_report();
  r["host"]["requests"] = 9;
  expect_violation(r, "requests completed equal requests issued");

  r = sound_report();
  r["host"]["write_bytes"] = 5 * 4096;
  expect_violation(r, "bytes moved match the requests");

  r = sound_report();
  r["host"]["latency_us"]["p99"] = 50;  // below p90
  expect_violation(r, "latency percentiles non-decreasing");

  r = sound_report();
  r["ftl_metrics"]["waf"] = 0.8;
  expect_violation(r, "WAF >= 1 when data was written");
}
