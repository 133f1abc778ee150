// The report says why a run is as fast as it is (issue 13 part 3): utilization.busiest and the
// summary's bottleneck line name the saturated resource, name the resources that limit each
// other when none is saturated (utilization.limited_by), and say so when none is busy.
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
  // firmware charges host_command, host_page and host_complete once, at the FTL's costs (the
  // platform's firmware_cycles, firmware_cycles.<ftl> where given: effective as ftl.cycles.*).
  TempDir dir;
  const Outcome o = run(dir, {"--synthetic", "random", "--read-fraction", "0", "--count", "2000", "--precondition", "none"});
  const json& p = o.report["firmware_profile"];
  const json& eff = o.report["platform"]["effective"];
  auto cost = [&](const std::string& k) {
    return eff.contains("ftl.cycles." + k) ? eff["ftl.cycles." + k].get<std::uint64_t>()
                                           : eff["firmware_cycles." + k].get<std::uint64_t>();
  };
  CHECK(p["host_command"]["cycles"] == 2000 * cost("host_command"));
  CHECK(p["host_page"]["cycles"] == 2000 * cost("host_page"));
  CHECK(p["host_complete"]["cycles"] == 2000 * cost("host_complete"));
  CHECK(p["gc_victim_scan"]["cycles"] == 0);
  std::uint64_t total = 0;
  double shares = 0;
  for (const auto& [work, v] : p.items()) total += v["cycles"].get<std::uint64_t>(), shares += v["share"].get<double>();
  CHECK(total == o.report["hardware"]["cores"]["cycles"].get<std::uint64_t>());
  CHECK(shares == Approx(1.0));
  CHECK(contains(o.summary, "firmware cycles: "));
}

TEST_CASE("bottleneck: dies and their channel equally loaded limit each other, and cache read frees them",
          "[cli][report][bottleneck]") {
  // 4 ways of the default MLC on one channel, 4 KiB random reads at QD 256: the dies could do
  // 4 / (mean tR 62.5 + 20.5 us out) = 48.2k reads/s, the channel 1 / 20.5 us = 48.7k. Without
  // cache read a die keeps its page until the channel has moved it, and with tR varying (LSB 50,
  // MSB 75 us) dies finish together and wait for the bus: neither is saturated while the requests
  // wait in the drive, and the verdict names both. With cache read the next tR overlaps
  // the data-out and the channel alone is the bound, within 1% of its closed form.
  TempDir dir;
  // (No factory bad blocks: on 64-block planes a plane with two would lack the room page mapping keeps.)
  const std::vector<std::string> base = {"--set", "channels=1", "--set", "ways=4", "--set", "blocks_per_plane=64",
                                         "--set", "ftl.overprovisioning=0.3", "--set", "host.queue_depth=256",
                                         "--set", "failures.factory_bad_share=0",
                                         "--synthetic", "random", "--read-fraction", "1", "--count", "20000", "--qd",
                                         "256", "--precondition", "fill"};
  std::vector<std::string> coupled = base, cached = base;
  coupled.insert(coupled.end(), {"--set", "nand.cache_read=false"});
  cached.insert(cached.end(), {"--set", "nand.cache_read=true"});
  const Outcome a = run(dir, coupled);
  const json& u = a.report["utilization"];
  INFO(a.summary);
  REQUIRE(u["limited_by"].size() == 2);
  CHECK(u["limited_by"][0] == "channel 0");
  CHECK_THAT(u["limited_by"][1].get<std::string>(), Catch::StartsWith("channel 0 die "));
  CHECK(u["resources"]["channel 0"].get<double>() < 0.95);
  CHECK(contains(a.summary, "bottleneck: limited by channel 0 ("));
  CHECK(contains(a.summary, "together: each waits for the other"));
  const Outcome b = run(dir, cached);
  const json& v = b.report["utilization"];
  INFO(b.summary);
  CHECK(v["limited_by"] == json::array());  // the channel is saturated: the bottleneck alone
  CHECK(v["resources"]["channel 0"].get<double>() > 0.99);
  CHECK(contains(b.summary, "bottleneck: bound by channel 0 ("));
  const double channel_bound = 1e6 / (8192 / 400.0 + 7 * 0.01);  // reads/s: 8 KiB at 400 MB/s + command
  CHECK(b.report["host"]["iops"].get<double>() == Approx(channel_bound).epsilon(0.01));
  CHECK(a.report["host"]["iops"].get<double>() < 0.95 * channel_bound);
}

TEST_CASE("bottleneck: a core waiting for its tables behind the data path is named as such", "[cli][report][bottleneck]") {
  // 128 KiB sequential reads on 8 channels of the default platform: 2.4 GB/s of data cross the
  // system bus and the DRAM twice, and the core's table lookups queue behind them: the core is
  // busy, mostly waiting. With a 10x faster bus and DRAM the same core keeps up and the channels
  // are the bound: 8 x 8 KiB per (20.48 + 0.07) us, within 1%. The core runs at 3.2 GHz so its
  // compute is small beside its waits (at 400 MHz, with the calibrated costs, computing is 96%
  // of its busy time and it is the bound whatever the memory does).
  TempDir dir;
  const std::vector<std::string> base = {"--set", "core.clock_mhz=3200", "--set", "blocks_per_plane=64",
                                         "--set", "ftl.overprovisioning=0.3", "--set", "failures.factory_bad_share=0",
                                         "--synthetic", "sequential", "--read-fraction", "1", "--request-bytes",
                                         "131072", "--count", "3000", "--qd", "64", "--precondition", "fill"};
  const Outcome a = run(dir, base);
  INFO(a.summary);
  const json& u = a.report["utilization"];
  CHECK(u["busiest"]["resource"] == "core 0");
  CHECK(u["busiest"]["memory_wait_share"].get<double>() > 0.5);
  CHECK(contains(a.summary, "waiting for memory: the system bus and memory its tables sit behind are contended"));
  std::vector<std::string> fast = base;
  fast.insert(fast.end(), {"--set", "bus.clock_mhz=4000", "--set", "dram.bandwidth_mbps=64000"});
  const Outcome b = run(dir, fast);
  INFO(b.summary);
  CHECK(b.report["utilization"]["resources"]["channel 0"].get<double>() > 0.99);
  const double channel_bound_mb_s = 8 * 8192 / (8192 / 400.0 + 0.07);  // MB/s: 8 channels
  CHECK(b.report["host"]["mb_per_s"].get<double>() == Approx(channel_bound_mb_s).epsilon(0.01));
  CHECK(a.report["host"]["mb_per_s"].get<double>() < 0.8 * channel_bound_mb_s);
}
