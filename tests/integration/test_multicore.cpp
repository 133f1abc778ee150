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

TEST_CASE("Every core dispatch policy keeps integrity and spreads jobs as documented", "[cli][multicore]") {
  // 4 cores, mixed 16 KiB requests with GC. round_robin: job counts within one of each other
  // (job i on core i mod 4); first_idle: the lowest-numbered core is the busiest; the time split
  // of every core adds up to the run's length.
  TempDir dir;
  for (const std::string policy : {"first_idle", "round_robin", "least_loaded", "channel_affinity"}) {
    RunReport rr = run_report({"-p", tiny_platform(), "--set", "core.count=4", "--set", "core.dispatch=" + policy,
                               "--synthetic", "random", "--read-fraction", "0.3", "--request-bytes", "16384",
                               "--count", "3000", "--qd", "16", "--precondition", "fill"},
                              dir, policy + ".json");
    INFO(policy << ": " << rr.result.describe());
    REQUIRE(rr.result.exited());
    REQUIRE(rr.result.exit_code == 0);
    const json& r = rr.report;
    CHECK(r["platform"]["effective"]["core.dispatch"] == policy);
    CHECK(r["integrity"]["mismatches"].get<std::uint64_t>() == 0);
    CHECK(r["integrity"]["mapping_check"].get<std::string>() == "ok");
    CHECK(r["ftl_metrics"]["gc_runs"].get<std::uint64_t>() > 0);
    const json& per_core = r["hardware"]["cores"]["per_core"];
    REQUIRE(per_core.size() == 4);
    const double elapsed_us = r["hardware"]["simulated_seconds"].get<double>() * 1e6;
    std::uint64_t most = 0, least = ~std::uint64_t(0);
    for (const auto& c : per_core) {
      const std::uint64_t jobs = c["jobs"].get<std::uint64_t>();
      most = std::max(most, jobs);
      least = std::min(least, jobs);
      const double sum = c["compute_us"].get<double>() + c["memory_wait_us"].get<double>() + c["idle_us"].get<double>();
      CHECK(sum == Approx(elapsed_us).epsilon(1e-9));
    }
    if (policy == "round_robin") CHECK(most - least <= 1);
    if (policy == "first_idle") CHECK(per_core[0]["jobs"].get<std::uint64_t>() == most);
  }
}
