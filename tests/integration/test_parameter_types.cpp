// Parameters have honest types: physical quantities keep their fractions, counts refuse them,
// absurd values are refused by range, and the report holds numbers as JSON numbers.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {
// One 4 KiB read at QD1 on a fresh tiny drive: its latency contains one page transfer on the
// channel, page_bytes / (rate x 1e6) seconds at 8 bits per transfer.
json one_read(const TempDir& dir, const std::string& rate, const std::string& name) {
  return successful_run({"-p", tiny_platform(), "--synthetic", "sequential", "--read-fraction", "1", "--count", "1",
                         "--request-bytes", "4096", "--qd", "1", "--precondition", "fill", "--set",
                         "channel.rate_mts=" + rate},
                        dir, name);
}
}  // namespace

TEST_CASE("parameters: a fractional rate is simulated as given, not truncated", "[cli][params]") {
  TempDir dir;
  const json a = one_read(dir, "333.9", "a.json");
  const json b = one_read(dir, "333", "b.json");
  CHECK(a["platform"]["effective"]["channel.rate_mts"].get<double>() == 333.9);
  CHECK(a["platform"]["effective"]["channel.rate_mts"].is_number());
  const double page = effective_number(a, "geometry.page_bytes");
  // The read's latency differs by exactly the difference of the page transfer times (closed
  // form), within a few 10 ps ticks of rounding.
  const double expected_us = (page / 333e6 - page / 333.9e6) * 1e6;
  const double got_us = b["host"]["latency_us"]["mean"].get<double>() - a["host"]["latency_us"]["mean"].get<double>();
  CHECK(expected_us > 0.02);  // 33 ns: far above the margin below
  CHECK(got_us == Approx(expected_us).margin(0.001));
}

TEST_CASE("parameters: counts refuse fractions and ranges refuse absurd values", "[cli][params]") {
  TempDir dir;
  const Result ways = run_ssdsim({"validate", tiny_platform(), "--set", "geometry.ways=2.5"}, dir);
  CHECK(ways.exit_code == 2);
  CHECK(contains(ways.err, "geometry.ways = 2.5"));
  CHECK(contains(ways.err, "2.5 is not a whole number"));
  for (const char* bad : {"channel.rate_mts=0.5", "channel.rate_mts=0", "core.clock_mhz=0", "nand.t_erase_us=0",
                          "bus.clock_mhz=-400", "channel.rate_mts=nan", "geometry.channels=1e100"}) {
    const Result r = run_ssdsim({"validate", tiny_platform(), "--set", bad}, dir);
    INFO(bad << "\n" << r.describe());
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "is invalid: expected"));
  }
}

TEST_CASE("parameters: params shows each parameter's type and unit", "[cli][params]") {
  TempDir dir;
  const Result r = run_ssdsim({"params"}, dir);
  REQUIRE(r.exit_code == 0);
  bool rate = false, ways = false;
  for (const auto& line : lines_of(r.out)) {
    std::stringstream s(line);
    std::string key, type, unit;
    s >> key >> type >> unit;
    if (key == "channel.rate_mts") rate = type == "quantity" && unit == "MT/s";
    if (key == "geometry.ways") ways = type == "count";
  }
  CHECK(rate);
  CHECK(ways);
}

TEST_CASE("parameters: the report's effective values are typed JSON", "[cli][params]") {
  TempDir dir;
  const json r = successful_run({"-p", tiny_platform(), "--synthetic", "random", "--count", "50", "--precondition",
                                 "none"},
                                dir);
  const json& e = r["platform"]["effective"];
  CHECK(e["geometry.channels"].is_number_integer());
  CHECK(e["bus.clock_mhz"].is_number());
  CHECK(e["nand.multiplane"].is_boolean());
  CHECK(e["nand.t_read_us"].is_array());
  CHECK(e["channel.scheduler"].is_string());
  CHECK(e["ftl.overprovisioning"].is_number());
}

TEST_CASE("parameters: job files and FTL options parse values the same strict way", "[cli][params]") {
  TempDir dir;
  // yaml-cpp alone reads "-1" as a huge unsigned count and cuts nothing off "2.5": both refused.
  for (const char* count : {"-1", "2.5", "12abc"}) {
    const std::string jobs = dir.file("jobs.yaml");
    write_text(jobs, std::string("jobs:\n  - name: a\n    count: ") + count + "\n");
    RunReport rr = run_report({"-p", tiny_platform(), "--jobs", jobs, "--precondition", "none"}, dir);
    INFO(count << "\n" << rr.result.describe());
    CHECK(rr.result.exit_code == 2);
    CHECK(contains(rr.result.err, "jobs[0].count"));
  }
  const Result ftl = run_ssdsim({"validate", tiny_platform(), "--set", "ftl.gc_threshold_blocks=2.5"}, dir);
  INFO(ftl.describe());
  CHECK(ftl.exit_code == 2);
  CHECK(contains(ftl.err, "2.5 is not a whole number"));
}
