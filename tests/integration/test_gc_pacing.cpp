// GC that does not stop the world (issue 13 part 2). Steady-state random writes on 4 x 2 dies:
// with ftl.gc_pacing=threshold every plane reads its whole victim at once and the host stalls
// in most windows; paced (the default), at most 10% of the windows run below a fifth of the
// mean throughput (the target), and the write p99 falls.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

json steady_writes(const TempDir& dir, const std::string& pacing, const std::string& ftl = "page_mapping",
                   const char* count = "40000") {
  const std::string report = dir.file(ftl + "-" + pacing + ".json");
  // Write-through without word-line safety: each write would else wait for its word line's
  // padding (test_latency_breakdown.cpp), which is not what this measures.
  const Result r = run_ssdsim({"run", "-p", default_platform(), "--set", "firmware.write_buffer=off", "--set",
                               "firmware.word_line_safety=false", "--set", "geometry.channels=4", "--set", "geometry.ways=2",
                               "--set", "geometry.blocks_per_plane=512", "--set", "ftl.name=" + ftl, "--set", "ftl.gc_pacing=" + pacing,
                               "--synthetic",
                               "random", "--read-fraction", "0", "--request-bytes", "8192", "--qd", "32", "--count",
                               count, "--precondition", "fill+steady", "--no-vcd", "-q", "-r", report},
                              dir, 600);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  return load_json(report);
}

// Share of ~100 ms windows whose throughput is below a fifth of the windows' mean.
double stalled_share(const json& report) {
  const json& over = report["host"]["over_time"];
  const double dt = over["interval_s"].get<double>();
  const std::size_t per = std::max<std::size_t>(1, std::size_t(std::lround(0.1 / dt)));
  std::vector<double> windows;
  const json& points = over["points"];
  for (std::size_t i = 0; i + per <= points.size(); i += per) {
    double sum = 0;
    for (std::size_t k = i; k < i + per; ++k) sum += points[k]["mb_per_s"].get<double>();
    windows.push_back(sum / double(per));
  }
  REQUIRE(windows.size() >= 50);
  double mean = 0;
  for (double w : windows) mean += w / double(windows.size());
  std::size_t low = 0;
  for (double w : windows) low += w < 0.2 * mean;
  return double(low) / double(windows.size());
}

}  // namespace

TEST_CASE("paced GC keeps the host writing where threshold GC stalls it", "[cli][gc][pacing]") {
  TempDir dir;
  const json threshold = steady_writes(dir, "threshold"), paced = steady_writes(dir, "paced");
  INFO("stalled windows: threshold " << stalled_share(threshold) << ", paced " << stalled_share(paced));
  CHECK(stalled_share(threshold) > 0.3);  // the storm this policy exists to prevent
  CHECK(stalled_share(paced) <= 0.1);
  CHECK(paced["host"]["write_latency_us"]["p99"].get<double>() < threshold["host"]["write_latency_us"]["p99"].get<double>());
  CHECK(paced["integrity"]["mapping_check"] == "ok");
}

TEST_CASE("paced GC keeps the host writing under DFTL too", "[cli][gc][pacing]") {
  // DFTL's segments stripe over all 16 planes: one victim at a time for the whole drive.
  TempDir dir;
  const json threshold = steady_writes(dir, "threshold", "dftl", "20000");
  const json paced = steady_writes(dir, "paced", "dftl", "20000");
  INFO("stalled windows: threshold " << stalled_share(threshold) << ", paced " << stalled_share(paced));
  CHECK(stalled_share(threshold) > 0.3);
  CHECK(stalled_share(paced) <= 0.1);
  CHECK(paced["integrity"]["mapping_check"] == "ok");
}
