// The SLC cache on the timed platform (fw/ftl/common/slc_cache.h): the idle clock starts
// folding between 1 and 1.25 times ftl.slc_idle_fold_ms after the host's last work, read from the
// waveform; a power cut in the middle of folds loses nothing durable, and the drive goes on.
#include <catch2/catch.hpp>
#include <sstream>

#include "cli_support.h"
#include "tlc_die.h"
#include "vcd_reader.h"

using namespace ssd::cli;

namespace {

// DiskSim: `count` sequential 128 KiB writes from sector `first`, 1 us apart from `at_ms`.
std::string sequential_writes(double at_ms, std::uint64_t first, int count) {
  std::ostringstream t;
  t.setf(std::ios::fixed);
  for (int i = 0; i < count; ++i) t << at_ms + i * 0.001 << " 0 " << first + std::uint64_t(i) * 256 << " 256 0\n";
  return t.str();
}

}  // namespace

TEST_CASE("SLC cache: idle folding starts between 1 and 1.25 idle times after the host's last work", "[cli][slc]") {
  // 128 writes of 128 KiB (16 MiB): 1,024 pages of 16 KiB striped over the 4 planes, 256 each,
  // which fill one SLC block a plane exactly; without a write buffer the last host completion
  // follows the last program. The fold starts (gc_running rises) once the clock has counted 20 ms
  // of idle.
  TempDir dir;
  write_text(dir.file("w.trace"), sequential_writes(0, 0, 128));
  const std::string vcd = dir.file("run.vcd"), report = dir.file("report.json");
  std::vector<std::string> args =
      one_tlc_die("page_mapping",
                  {"--trace", dir.file("w.trace"), "--trace-format", "disksim", "--set", "firmware.write_buffer=off",
                   "--set", "ftl.slc_idle_fold_ms=20", "--vcd", vcd, "-q", "-r", report});
  args.insert(args.begin(), "run");
  const Result run = run_ssdsim(args, dir);
  INFO(run.describe());
  REQUIRE(run.exit_code == 0);
  const json r = load_json(report);
  const json& f = r["ftl_metrics"];
  CHECK(f["slc_pages_written"] == 1024);
  CHECK(f["slc_blocks_opened"] == 4);
  CHECK(f["slc_idle_folds"] == 4);  // every closed SLC block: one fold of the die's four planes
  CHECK(f["slc_blocks_folded"] == 4);
  CHECK(f["slc_fold_copies"] == 1024);
  CHECK(f["slc_foreground_folds"] == 0);
  CHECK(r["integrity"]["mismatches"] == 0);

  const Vcd waves = read_vcd(vcd);
  const auto host = waves.changes("ssd.host.outstanding"), gc = waves.changes("ssd.firmware.gc_running");
  REQUIRE(!host.empty());
  REQUIRE(!gc.empty());
  REQUIRE(host.back().second == 0);
  std::uint64_t fold_start = 0;
  for (const auto& [t, v] : gc)
    if (v > 0) {
      fold_start = t;
      break;
    }
  const double idle_ms = double(fold_start - host.back().first) * 1e-8;  // 10 ps ticks
  INFO("the fold started " << idle_ms << " ms after the last host completion");
  CHECK(idle_ms >= 20.0 - 0.05);  // the completion's own way back to the host: microseconds
  CHECK(idle_ms <= 25.0);
}

TEST_CASE("SLC cache: a power cut during folds loses nothing durable, and the drive goes on", "[cli][slc][power_cut]") {
  const std::string ftl = GENERATE("page_mapping", "dftl", "cast");
  INFO(ftl);
  // Three SLC blocks a plane written (48 MiB: 0.26 s at the die's 197 MB/s in SLC mode), idle
  // folding from 20 ms after (each round of the die's planes about 0.25 s), the cut 0.4 s in:
  // folds copy into TLC word lines (a torn one-shot program takes its lower pages with it) while
  // their SLC sources wait for the copies to be programmed before their erase
  // (erase_after_copies). Then the workload goes on: another 16 MiB written and all 64 MiB read.
  TempDir dir;
  std::string trace = sequential_writes(0, 0, 384);
  trace += sequential_writes(2000, 384 * 256, 128);
  std::ostringstream reads;
  reads.setf(std::ios::fixed);
  for (int i = 0; i < 512; ++i) reads << 4000 + i * 0.001 << " 0 " << i * 256 << " 256 1\n";
  write_text(dir.file("w.trace"), trace + reads.str());
  const json r = successful_run(
      one_tlc_die(ftl, {"--trace", dir.file("w.trace"), "--trace-format", "disksim", "--set", "ftl.slc_idle_fold_ms=20",
                        "--power-cut-at", "0.4", "--after-recovery", "continue", "--no-vcd"}),
      dir);
  const json& p = r["power_cut"];
  CHECK(p["durability"]["verdict"] == "ok");
  CHECK(p["flash"]["torn_pages"].get<std::uint64_t>() > 0);  // the cut met programs under way
  const json& a = p["after_recovery"];
  CHECK(a["mismatches"] == 0);
  CHECK(a["mapping_check"] == "ok");
  CHECK(a["pages_checked"].get<std::uint64_t>() >= 512 * 8);
  CHECK(a["requests_completed"].get<std::uint64_t>() == 128 + 512);
}
