// The GTKWave view written beside a waveform (platforms/sim/waveform_view.cpp): it shows exactly
// the signals that were traced, per channel, with the die filters; and the die signals it shows
// tell host, GC and mapping work apart and count queues past 255.
#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cli_support.h"
#include "vcd_reader.h"

using namespace ssd::cli;

namespace {

// The view's signal lines: "+{alias} ssd.channel0.die0.state[2:0]" -> ssd.channel0.die0.state.
std::set<std::string> view_signals(const std::string& view) {
  std::set<std::string> names;
  const std::regex line(R"(^\+\{[^}]*\} ([A-Za-z0-9_.]+)(\[\d+:0\])?$)");
  std::istringstream in(view);
  std::string l;
  std::smatch m;
  while (std::getline(in, l))
    if (std::regex_match(l, m, line)) names.insert(m[1]);
  return names;
}

std::set<std::string> keys(const std::map<std::string, std::string>& m) {
  std::set<std::string> k;
  for (const auto& [name, _] : m) k.insert(name);
  return k;
}

Result traced_run(const TempDir& dir, std::vector<std::string> extra) {
  std::vector<std::string> args = {"run", "-p", tiny_platform(), "--vcd", dir.file("w/run.vcd"), "-q",
                                   "-r", dir.file("report.json")};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_ssdsim(args, dir);
}

}  // namespace

TEST_CASE("waveform view: generated for the platform, with exactly the traced signals", "[cli][waveform]") {
  TempDir dir;
  const Result r = traced_run(dir, {"--synthetic", "random", "--count", "2000", "--precondition", "fill"});
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  const std::string view = read_text(dir.file("w/run.gtkw"));
  const Vcd vcd = read_vcd(dir.file("w/run.vcd"));
  CHECK(view_signals(view) == keys(vcd.code_of));
  CHECK_THAT(view, Catch::Contains("[dumpfile] \"" + fs::absolute(dir.file("w/run.vcd")).string() + "\""));
  CHECK_THAT(view, Catch::Contains("[timestart] 0\n"));
  // tiny has 2 channels of 2 dies: one group each, the first open (@800200), the second
  // collapsed (@c00200, closed with @1401200).
  CHECK_THAT(view, Catch::Contains("@800200\n-Channel 0\n"));
  CHECK_THAT(view, Catch::Contains("@c00200\n-Channel 1\n"));
  CHECK_THAT(view, Catch::Contains("@1401200\n-Channel 1\n"));
  CHECK_THAT(view, Catch::Contains("@1000200\n-Channel 0\n"));
  CHECK_THAT(view, !Catch::Contains("-Channel 2"));
  // Each die's state and origin are shown through their translate filters, written beside it.
  const std::string filters = fs::absolute(dir.file("w")).string();
  CHECK_THAT(view, Catch::Contains("^1 " + filters + "/die_state.filter\n@2024\n+{ch1 die1 state} ssd.channel1.die1.state[2:0]\n"
                                   "^2 " + filters + "/die_origin.filter\n+{ch1 die1 origin} ssd.channel1.die1.origin[1:0]\n"));
  CHECK_THAT(read_text(dir.file("w/die_state.filter")), Catch::Contains("\n3 tR\n4 tPROG\n5 tBERS\n"));
  CHECK_THAT(read_text(dir.file("w/die_origin.filter")), Catch::Contains("\n1 host\n2 gc\n3 mapping\n"));
  // The system bus, SRAM, DRAM, link and core are in the view (their busy shares), and the core's state.
  for (const char* s : {"ssd.utilization.system_bus", "ssd.utilization.sram", "ssd.utilization.dram",
                        "ssd.utilization.host_link_to_host", "ssd.utilization.core_0", "ssd.cores.core0_busy"})
    CHECK(view_signals(view).count(s) == 1);
}

TEST_CASE("waveform view: follows --vcd-signals and the --vcd-start-us window", "[cli][waveform]") {
  TempDir dir;
  const Result r = traced_run(dir, {"--synthetic", "random", "--count", "2000", "--precondition", "none",
                                    "--vcd-signals", "channel1", "--vcd-start-us", "1000"});
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  const std::string view = read_text(dir.file("w/run.gtkw"));
  const std::set<std::string> shown = view_signals(view);
  CHECK(shown == keys(read_vcd(dir.file("w/run.vcd")).code_of));
  CHECK(shown.size() == 1 + 2 * 3);  // bus owner; state, origin, queue of 2 dies
  for (const auto& s : shown) CHECK_THAT(s, Catch::StartsWith("ssd.channel1."));
  CHECK_THAT(view, !Catch::Contains("-Host"));
  CHECK_THAT(view, !Catch::Contains("-Channel 0"));
  CHECK_THAT(view, Catch::Contains("[timestart] 100000000\n"));  // 1000 us in 10 ps ticks
}

TEST_CASE("waveform: each die's origin tells host, GC and mapping work apart", "[cli][waveform]") {
  SECTION("page mapping: host programs, then GC once the fill leaves too few free blocks") {
    TempDir dir;
    const Result r = traced_run(dir, {"--synthetic", "random", "--count", "20000", "--precondition", "fill",
                                      "--set", "firmware.write_buffer=off"});
    REQUIRE(r.exit_code == 0);
    const json report = load_json(dir.file("report.json"));
    REQUIRE(report["ftl_metrics"]["gc_copies"].get<std::uint64_t>() > 0);
    const Vcd vcd = read_vcd(dir.file("w/run.vcd"));
    CHECK(vcd.values("ssd.channel0.die0.origin") == std::set<std::uint64_t>{0, 1, 2});
  }
  SECTION("DFTL with a small cache: translation pages are mapping work") {
    TempDir dir;
    const Result r = traced_run(dir, {"--ftl", "dftl", "--set", "ftl.cmt_bytes=1024", "--synthetic", "random",
                                      "--read-fraction", "0.5", "--count", "3000", "--precondition", "fill"});
    INFO(r.describe());
    REQUIRE(r.exit_code == 0);
    const json report = load_json(dir.file("report.json"));
    REQUIRE(report["ftl_metrics"]["translation_reads_host"].get<std::uint64_t>() > 0);
    const Vcd vcd = read_vcd(dir.file("w/run.vcd"));
    std::set<std::uint64_t> seen;
    for (const char* die : {"ssd.channel0.die0", "ssd.channel0.die1", "ssd.channel1.die0", "ssd.channel1.die1"})
      for (std::uint64_t v : vcd.values(std::string(die) + ".origin")) seen.insert(v);
    CHECK(seen.count(1) == 1);
    CHECK(seen.count(3) == 1);
  }
  SECTION("a hybrid's merges are GC work") {
    TempDir dir;
    const Result r = traced_run(dir, {"--ftl", "bast", "--synthetic", "random", "--count", "3000", "--precondition",
                                      "fill", "--set", "firmware.write_buffer=off"});
    REQUIRE(r.exit_code == 0);
    const json report = load_json(dir.file("report.json"));
    REQUIRE(report["ftl_metrics"]["full_merges"].get<std::uint64_t>() > 0);
    const Vcd vcd = read_vcd(dir.file("w/run.vcd"));
    CHECK(vcd.values("ssd.channel1.die1.origin").count(2) == 1);
  }
}

TEST_CASE("waveform: queue depths are not capped at 255", "[cli][waveform]") {
  // One die, 1024 reads outstanding: its controller queue holds far more than 255 commands.
  TempDir dir;
  const Result r = traced_run(dir, {"--set", "channels=1", "--set", "ways=1", "--set", "host.queue_depth=1024",
                                    "--synthetic", "random", "--read-fraction", "1", "--count", "3000", "--qd", "1024",
                                    "--precondition", "fill"});
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  const Vcd vcd = read_vcd(dir.file("w/run.vcd"));
  CHECK(*vcd.values("ssd.channel0.die0.queue").rbegin() > 255);
  CHECK(*vcd.values("ssd.host.outstanding").rbegin() == 1024);
}
