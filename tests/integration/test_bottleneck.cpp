// The report says why a run is as fast as it is (issue 13 part 3): utilization.busiest and the
// summary's bottleneck line name the saturated resource, and say so when none is.
#include <catch2/catch.hpp>

#include <cmath>

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
  // Over time: each series, integrated over the run, is the resource's busy share of the run.
  const json& t = u["over_time"];
  const double end = o.report["hardware"]["simulated_seconds"].get<double>(), dt = t["interval_s"].get<double>();
  auto integral = [&](const json& shares) {
    double busy = 0;
    for (std::size_t j = 0; j < shares.size(); ++j)
      busy += shares[j].get<double>() * (std::min(end, (double(j) + 1) * dt) - double(j) * dt);
    return busy / end;
  };
  REQUIRE(t["start_s"].size() == std::size_t(std::ceil(end / dt - 1e-9)));
  for (const char* name : {"system bus", "sram", "dram", "host link (to device)", "host link (to host)", "core 0"}) {
    INFO(name);
    CHECK(integral(t["series"][name]) == Approx(u["resources"][name].get<double>()).epsilon(1e-6));
  }
  CHECK(integral(t["series"]["dies (mean)"]) == Approx(u["dies"]["mean"].get<double>()).epsilon(1e-6));
  double channels = 0;
  for (int c = 0; c < 8; ++c) channels += u["resources"]["channel " + std::to_string(c)].get<double>() / 8;
  CHECK(integral(t["series"]["channels (mean)"]) == Approx(channels).epsilon(1e-6));
  CHECK(integral(t["series"]["dies (max)"]) >= u["dies"]["max"].get<double>() - 1e-9);
}

TEST_CASE("firmware profile: cycles per kind of work, in closed form, adding up to the cores' cycles",
          "[cli][report][firmware]") {
  // 2,000 random 4 KiB writes on a fresh default drive: one page each, no GC. Per command the
  // firmware charges host_command (1,200 cycles), host_page (150) and host_complete (400).
  TempDir dir;
  const Outcome o = run(dir, {"--synthetic", "random", "--read-fraction", "0", "--count", "2000", "--precondition", "none"});
  const json& p = o.report["firmware_profile"];
  CHECK(p["host_command"]["cycles"] == 2000 * 1200);
  CHECK(p["host_page"]["cycles"] == 2000 * 150);
  CHECK(p["host_complete"]["cycles"] == 2000 * 400);
  CHECK(p["gc_victim_scan"]["cycles"] == 0);
  std::uint64_t total = 0;
  double shares = 0;
  for (const auto& [work, v] : p.items()) total += v["cycles"].get<std::uint64_t>(), shares += v["share"].get<double>();
  CHECK(total == o.report["hardware"]["cores"]["cycles"].get<std::uint64_t>());
  CHECK(shares == Approx(1.0));
  CHECK(contains(o.summary, "firmware cycles: "));
}
