// Several firmware cores: jobs overlap in simulated time while the firmware's decisions are made
// one job at a time, so commands to a die must still reach it in the order they were issued
// (a block's pages in order). Integrity and the NAND rules must hold with 1, 2 and 4 cores, and
// the cores must share the firmware work.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

TEST_CASE("Firmware on 1, 2 and 4 cores keeps integrity and the NAND rules", "[cli][multicore]") {
  TempDir dir;
  double utilization_one = 0;
  for (int cores : {1, 2, 4}) {
    const std::string name = "cores" + std::to_string(cores) + ".json";
    RunReport rr = run_report({"-p", tiny_platform(), "--set", "core.count=" + std::to_string(cores), "--synthetic",
                               "random", "--read-fraction", "0.3", "--request-bytes", "16384", "--count", "20000",
                               "--qd", "32", "--precondition", "fill+random:1", "--no-vcd"},
                              dir, name);
    INFO(cores << " cores: " << rr.result.describe());
    REQUIRE(rr.result.exited());
    REQUIRE(rr.result.exit_code == 0);
    const json& r = rr.report;
    CHECK(r["integrity"]["mismatches"].get<std::uint64_t>() == 0);
    CHECK(r["integrity"]["mapping_check"].get<std::string>() == "ok");
    CHECK(r["ftl_metrics"]["gc_runs"].get<std::uint64_t>() > 0);
    const json& per_core = r["hardware"]["cores"]["per_core"];
    REQUIRE(per_core.size() == std::size_t(cores));
    for (const auto& c : per_core) CHECK(c["jobs"].get<std::uint64_t>() > 0);  // every core took work
    // The same work spread over more cores: average utilization falls about in proportion.
    const double u = r["hardware"]["cores"]["utilization"].get<double>();
    if (cores == 1) utilization_one = u;
    else CHECK(u < utilization_one / cores * 1.25);
  }
}
