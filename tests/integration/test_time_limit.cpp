// Simulated time must hold the whole workload: a replay reaching beyond the time base is refused
// before anything is simulated, and one just inside it is simulated to its real end (not clamped
// at the kernel's ceiling, which at SystemC's default 1 ps resolution is 2^63 ps = 106.75 days).
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {
// Two 4 KiB MSR writes, the second 1 s of trace time after the first (FILETIME: 10^7 ticks per s).
std::string two_writes_one_second_apart() {
  return "128166372000000000,host,0,Write,0,4096,100\n"
         "128166372010000000,host,0,Write,8192,4096,100\n";
}
constexpr double kLimitSeconds = 46116860.184273879;  // 2^62 ticks of 10 ps (tlm/time_base.h)
}  // namespace

TEST_CASE("time limit: arrivals beyond the time base are refused before simulation", "[cli][time]") {
  TempDir dir;
  const std::string trace = dir.file("two.csv");
  write_text(trace, two_writes_one_second_apart());
  // 1 s x 5e7 = 5e7 s (1.58 years): beyond the 1.46-year limit.
  RunReport rr = run_report({"-p", tiny_platform(), "--trace", trace, "--time-scale", "5e7", "--precondition",
                             "fill"},
                            dir);
  INFO(rr.result.describe());
  REQUIRE(rr.result.exited());
  CHECK(rr.result.exit_code == 2);
  CHECK(contains(rr.result.err, "two.csv:2"));
  CHECK(contains(rr.result.err, "time limit"));
  CHECK_FALSE(rr.has_report);
}

TEST_CASE("time limit: a replay of more than a year is simulated to its real end", "[cli][time]") {
  TempDir dir;
  const std::string trace = dir.file("two.csv");
  write_text(trace, two_writes_one_second_apart());
  // 1 s x 4e7 = 4e7 s (1.27 years): inside the limit, far beyond the old 9.22e6 s ceiling.
  const double scale = 4e7;
  json r = successful_run({"-p", tiny_platform(), "--trace", trace, "--time-scale", "4e7", "--precondition", "none"},
                          dir);
  const double simulated = r["host"]["simulated_seconds"].get<double>();
  CHECK(simulated > scale);  // the second write arrives at 4e7 s and then takes its service time
  CHECK(simulated < scale + 0.01);
  CHECK(simulated < kLimitSeconds);
  CHECK(r["host"]["writes"].get<std::uint64_t>() == 2);
}

TEST_CASE("time limit: the arrival at exactly the limit is accepted, one tick more is not", "[cli][time]") {
  TempDir dir;
  const std::string trace = dir.file("two.csv");
  write_text(trace, two_writes_one_second_apart());
  // Trace time 1 s scaled to just over the limit: refused (the limit is checked on the scaled arrival).
  RunReport over = run_report({"-p", tiny_platform(), "--trace", trace, "--time-scale", "46116861",
                               "--precondition", "none"},
                              dir, "over.json");
  CHECK(over.result.exit_code == 2);
  RunReport under = run_report({"-p", tiny_platform(), "--trace", trace, "--time-scale", "46116860",
                                "--precondition", "none"},
                               dir, "under.json");
  INFO(under.result.describe());
  CHECK(under.result.exit_code == 0);
}
