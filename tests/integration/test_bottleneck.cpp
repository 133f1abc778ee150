// The report says why a run is as fast as it is (issue 13 part 3): utilization.busiest and the
// summary's bottleneck line name the saturated resource, and say so when none is.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

struct Outcome {
  json report;
  std::string summary;
};

Outcome run(const TempDir& dir, std::vector<std::string> args) {
  const std::string report = dir.file("r.json");
  args.insert(args.begin(), {"run", "-p", default_platform(), "--no-vcd", "-r", report});
  const Result r = run_ssdsim(args, dir, 300);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  return {load_json(report), r.out};
}

std::vector<std::string> one_channel_reads(std::uint32_t ways) {
  return {"--set", "geometry.channels=1", "--set", "geometry.ways=" + std::to_string(ways), "--synthetic", "sequential",
          "--read-fraction", "1", "--request-bytes", "131072", "--qd", "64", "--count", "1000"};
}

}  // namespace

TEST_CASE("bottleneck: 16 ways reading through one channel are bound by the channel", "[cli][report][bottleneck]") {
  TempDir dir;
  const Outcome o = run(dir, one_channel_reads(16));
  const json& u = o.report["utilization"];
  CHECK(u["busiest"]["resource"] == "channel 0");
  CHECK(u["bound"] == true);
  CHECK(u["busiest"]["busy_fraction"].get<double>() > 0.99);
  // Each die reads 1/16 of the pages: far from busy.
  CHECK(u["dies"]["max"].get<double>() < 0.3);
  CHECK(contains(o.summary, "bottleneck: bound by channel 0 ("));
}

TEST_CASE("bottleneck: one die behind its channel is bound by the die", "[cli][report][bottleneck]") {
  TempDir dir;
  const Outcome o = run(dir, one_channel_reads(1));
  const json& u = o.report["utilization"];
  CHECK(u["busiest"]["resource"] == "channel 0 die 0");
  CHECK(u["bound"] == true);
  // tR + data out of 16 KiB on the die; the channel carries only the data out: 41 of ~104 us.
  CHECK(u["resources"]["channel 0"].get<double>() == Approx(40.96 / (62.64 + 40.96)).epsilon(0.05));
  CHECK(contains(o.summary, "bottleneck: bound by channel 0 die 0 ("));
}

TEST_CASE("bottleneck: the bundled trace on the default drive is bound by no resource", "[cli][report][bottleneck]") {
  TempDir dir;
  const Outcome o = run(dir, {});
  const json& u = o.report["utilization"];
  CHECK(u["bound"] == false);
  CHECK(u["busiest"]["busy_fraction"].get<double>() < 0.9);
  CHECK(contains(o.summary, "bottleneck: not bound by the drive"));
  // Every resource class is listed, each link direction separately.
  for (const char* name : {"channel 7", "channel 7 die 3", "system bus", "sram", "dram", "host link (to device)",
                           "host link (to host)", "core 0"}) {
    INFO(name);
    CHECK(u["resources"].contains(name));
  }
}
