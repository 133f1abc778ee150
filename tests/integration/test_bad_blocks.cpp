// Bad blocks end to end (failures.*, fw/firmware/bad_block_handler.h): with factory bad blocks and
// programs and erases failing, every FTL keeps every page it was given (the oracle), leaves no
// valid data in a failed block (the mapping check) and accounts for every page it programmed;
// one failed program and failed erases give the exact rewrites, moves and retirements; a drive
// out of spare blocks turns read-only and refuses writes without losing data.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

// One factory bad block on each of tiny's planes 0 to 5 (64 blocks a plane).
const char* const kFactoryBad = "failures.factory_bad_blocks=[3,70,135,200,263,330]";

// The flash's operation counts, summed over every die.
struct DieCounts {
  std::uint64_t programs = 0, erases = 0;
};
DieCounts die_counts(const json& r) {
  DieCounts d;
  for (const auto& ch : r["hardware"]["channels"])
    for (const auto& die : ch["dies"]) {
      d.programs += u64(die["programs"]);
      d.erases += u64(die["erases"]);
    }
  return d;
}

// What holds whatever the FTL when every N-th program and every M-th erase fail: nothing lost or
// wrong, nothing valid left in a failed block, and the failures exactly the injected ones.
void check_failures(const json& r, std::uint64_t every_program, std::uint64_t every_erase) {
  const json& in = r.at("integrity");
  CHECK(u64(in["mismatches"]) == 0);
  CHECK(in["mapping_check"] == "ok");
  const json& b = r.at("bad_blocks");
  const DieCounts d = die_counts(r);
  CHECK(u64(b["program_failures"]) == (every_program ? d.programs / every_program : 0));
  CHECK(u64(b["erase_failures"]) == (every_erase ? d.erases / every_erase : 0));
  // Each failed program's page is written again, unless a newer write superseded it first.
  CHECK(u64(b["failed_page_rewrites"]) <= u64(b["program_failures"]));
  CHECK(u64(b["blocks_emptied"]) <= u64(b["program_failures"]));
  const json& f = r["ftl_metrics"];
  CHECK(u64(f["flash_pages_programmed"]) == accounted_programs(f));
}

}  // namespace

TEST_CASE("bad blocks: every FTL keeps its data through factory bad blocks and failed programs and erases",
          "[cli][integrity][bad_blocks]") {
  TempDir dir;
  for (const std::string& ftl : ftl_names(dir)) {
    INFO("ftl " << ftl);
    // Six blocks bad from the factory (one on each of planes 0 to 5: page mapping keeps 58 of a
    // plane's 64 blocks plus a margin of 4), every 2,999th program and 397th erase failing: a few
    // to a few dozen failures depending on the FTL's write amplification.
    const json r = successful_run({"-p", tiny_platform(), "--ftl", ftl, "--synthetic", "random", "--count", "6000",
                                   "--read-fraction", "0.3", "--request-bytes", "6144", "--seed", "3", "--set",
                                   kFactoryBad, "--set", "failures.fail_program=2999", "--set",
                                   "failures.fail_erase=397"},
                                  dir);
    INFO("bad_blocks: " << r["bad_blocks"].dump());
    INFO("integrity: " << r["integrity"].dump());
    check_failures(r, 2999, 397);
    CHECK(u64(r["bad_blocks"]["factory_bad_blocks"]) > 0);
    CHECK(u64(r["bad_blocks"]["program_failures"]) > 0);
  }
}

TEST_CASE("bad blocks: the firmware image on the ISS retires bad blocks as the host-compiled one does",
          "[cli][integrity][bad_blocks][iss]") {
  TempDir dir;
  for (const std::string ftl : {"page_mapping", "dftl", "bast"}) {
    INFO("ftl " << ftl);
    const json r = successful_run({"-p", tiny_platform(), "--ftl", ftl, "--set", "core.model=iss", "--precondition",
                                   "none", "--synthetic", "random", "--count", "2500", "--read-fraction", "0.3",
                                   "--request-bytes", "6144", "--seed", "3", "--set", kFactoryBad,
                                   "--set", "failures.fail_program=997", "--set", "failures.fail_erase=53"},
                                  dir);
    INFO("bad_blocks: " << r["bad_blocks"].dump());
    check_failures(r, 997, 53);
    // The image read the factory's markers through the controller's registers.
    CHECK(u64(r["bad_blocks"]["retired_segments"]) >= 1);
  }
}

namespace {
// One plane of 64 blocks of 32 pages, written through (no write buffer), one request at a time,
// from a fresh drive: the k-th program is the k-th write's.
std::vector<std::string> one_plane(std::vector<std::string> more) {
  std::vector<std::string> a{"-p",           tiny_platform(), "--set", "geometry.channels=1", "--set",
                             "geometry.ways=1", "--set", "geometry.planes_per_die=1", "--set",
                             "firmware.write_buffer=off", "--precondition", "none", "--qd", "1"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}
}  // namespace

TEST_CASE("bad blocks: one failed program is written again and its block's other valid pages moved",
          "[cli][integrity][bad_blocks]") {
  TempDir dir;
  // 20 sequential 4 KiB writes over 8 logical pages: pages 0..19 of block 0 hold logical pages 0..7,
  // 0..7, 0..3. The 20th program (page 19, logical page 3) fails: it is written again from the
  // buffer, and the block's other valid pages -- 12..18, logical pages 4..7 and 0..2 -- moved, 7 in
  // all, after reading pages 0..20 (20 programmed, then an erased one). 20 + 1 + 7 = 28 programs,
  // fewer than 40, so no second one fails.
  const json r = successful_run(one_plane({"--synthetic", "sequential", "--count", "20", "--range-bytes", "32768",
                                           "--request-bytes", "4096", "--read-fraction", "0", "--set",
                                           "failures.fail_program=20"}),
                                dir);
  const json& b = r["bad_blocks"];
  const json& f = r["ftl_metrics"];
  INFO("bad_blocks: " << b.dump());
  CHECK(r["integrity"]["mapping_check"] == "ok");
  CHECK(u64(b["program_failures"]) == 1);
  CHECK(u64(b["erase_failures"]) == 0);
  CHECK(u64(b["failed_page_rewrites"]) == 1);
  CHECK(u64(b["blocks_emptied"]) == 1);
  CHECK(u64(f["bad_block_reads"]) == 21);
  CHECK(u64(b["pages_moved"]) == 7);
  CHECK(u64(f["flash_pages_programmed"]) == 28);
  CHECK(die_counts(r).programs == 28);
  // Block 0 is empty but not yet reclaimed (no GC ran): lost to the drive, not yet retired.
  CHECK(u64(b["retired_segments"]) == 0);
  CHECK(u64(b["usable_segments"]) == 63);
  CHECK_FALSE(b["read_only"].get<bool>());
}

TEST_CASE("bad blocks: a block whose erase failed is retired and never written again", "[cli][integrity][bad_blocks]") {
  TempDir dir;
  // 3,000 writes over 8 logical pages fill 94 blocks' worth of pages, so GC reclaims blocks with
  // nothing valid in them; every 5th erase fails. Each failure retires its one-block segment (the
  // array refuses a program of a block erased after it failed, so reuse would stop the run).
  const json r = successful_run(one_plane({"--synthetic", "sequential", "--count", "3000", "--range-bytes", "32768",
                                           "--request-bytes", "4096", "--read-fraction", "0", "--set",
                                           "failures.fail_erase=5"}),
                                dir);
  const json& b = r["bad_blocks"];
  INFO("bad_blocks: " << b.dump());
  const DieCounts d = die_counts(r);
  REQUIRE(d.erases >= 10);
  CHECK(u64(b["erase_failures"]) == d.erases / 5);
  CHECK(u64(b["program_failures"]) == 0);
  CHECK(u64(b["retired_segments"]) == d.erases / 5);
  CHECK(u64(b["usable_segments"]) == 64 - d.erases / 5);
  CHECK(u64(b["pages_moved"]) == 0);
  CHECK(r["integrity"]["mapping_check"] == "ok");
}

TEST_CASE("bad blocks: a multi-plane segment whose block fails takes a spare or is retired and gives its blocks",
          "[cli][integrity][bad_blocks]") {
  TempDir dir;
  // DFTL's segments stripe over tiny's 8 planes. Block 0 (plane 0) is factory bad: the last slot is
  // retired and its 7 good blocks are spares of planes 1..7. After a sequential fill, every 13th
  // erase fails (more than a segment's 8 erases apart, so one per reclaim): a failed block on
  // planes 1..7 takes a spare (one fewer), one on plane 0 retires its segment, whose 7 good blocks
  // become spares.
  const json r = successful_run({"-p", tiny_platform(), "--ftl", "dftl", "--synthetic", "random", "--count", "6000", "--read-fraction", "0", "--request-bytes", "4096",
                                 "--range-bytes", "1048576", "--seed", "4", "--set", "failures.factory_bad_blocks=[0]",
                                 "--set", "failures.fail_erase=13", "--set", "firmware.write_buffer=off"},
                                dir);
  const json& b = r["bad_blocks"];
  INFO("bad_blocks: " << b.dump());
  const std::uint64_t failures = u64(b["erase_failures"]);
  REQUIRE(failures >= 2);
  CHECK(failures == die_counts(r).erases / 13);
  const std::uint64_t replaced = u64(b["blocks_replaced_by_spares"]), retired = u64(b["retired_segments"]) - 1;
  CHECK(replaced + retired == failures);
  CHECK(u64(b["spare_blocks"]) == 7 - replaced + 7 * retired);
  CHECK(u64(b["usable_segments"]) == 64 - 1 - retired);
  CHECK(r["integrity"]["mapping_check"] == "ok");
}

TEST_CASE("bad blocks: a drive out of spare blocks turns read-only and refuses writes and keeps its data",
          "[cli][integrity][bad_blocks]") {
  TempDir dir;
  // Page mapping on one plane of 64 blocks needs ceil(1638 / 32) = 52 for its data (80% of 2,048
  // pages), the 4 free blocks its GC works at and its 2 frontiers: 58, plus the margin of 4. With
  // 2 blocks bad from the factory 62 are usable; the first failed erase leaves 61 and the drive
  // read-only.
  const json r = successful_run(one_plane({"--synthetic", "random", "--count", "4000", "--range-bytes", "1048576",
                                           "--request-bytes", "4096", "--read-fraction", "0.5", "--seed", "9", "--set",
                                           "failures.factory_bad_blocks=[1,2]", "--set",
                                           "failures.fail_erase=3"}),
                                dir);
  const json& b = r["bad_blocks"];
  const json& h = r["host"];
  INFO("bad_blocks: " << b.dump());
  CHECK(u64(b["factory_bad_blocks"]) == 2);
  REQUIRE(b["read_only"].get<bool>());
  CHECK(b["read_only_since_s"].get<double>() > 0);
  CHECK(u64(b["erase_failures"]) >= 1);
  CHECK(u64(b["usable_segments"]) == 64 - 2 - u64(b["erase_failures"]));
  CHECK(u64(h["rejected_writes"]) > 0);
  CHECK(u64(h["requests"]) == 4000);
  CHECK(u64(h["requests"]) == u64(h["reads"]) + u64(h["writes"]) + u64(h["rejected_writes"]));
  // The refused writes wrote nothing: the oracle still expects what was there, and finds it.
  CHECK(u64(r["integrity"]["mismatches"]) == 0);
  CHECK(r["integrity"]["mapping_check"] == "ok");
}

TEST_CASE("bad blocks: bad settings are named", "[cli][bad_blocks]") {
  TempDir dir;
  Result r = run_ssdsim({"run", "-p", tiny_platform(), "--synthetic", "random", "--count", "10", "--no-vcd", "--set",
                         "failures.factory_bad_blocks=[512]"},
                        dir);
  CHECK(r.exit_code == 2);  // bad input
  CHECK_THAT(r.err, Catch::Contains("failures.factory_bad_blocks") && Catch::Contains("512"));
  // So many factory bad blocks that the FTL cannot hold its capacity.
  r = run_ssdsim({"run", "-p", tiny_platform(), "--synthetic", "random", "--count", "10", "--no-vcd", "--set",
                  "failures.factory_bad_share=0.4"},
                 dir);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("failures.factory_bad_share"));
  // Enough for the data but not for the margin as well: a drive read-only from the start is refused.
  std::vector<std::string> args = one_plane({"--synthetic", "random", "--count", "10", "--no-vcd", "--set",
                                             "failures.factory_bad_blocks=[1,2,3,4,5,6]"});
  args.insert(args.begin(), "run");
  r = run_ssdsim(args, dir);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("firmware.read_only_margin") && Catch::Contains("58 usable"));
}

TEST_CASE("bad blocks: an aged drive starts with the blocks its wear made bad and works around them",
          "[cli][integrity][bad_blocks]") {
  TempDir dir;
  // Every block at the rated 3,000 cycles: each has gone bad with chance grown_bad_share
  // (3000 / 3000)^(k + 1) = 0.1, so about 51 of tiny's 512 (standard deviation 6.8). Page mapping's
  // one-block segments retire exactly those, and the sequential fill goes around them.
  const json r = successful_run({"-p", tiny_platform(), "--precondition", "fill+pe:3000", "--synthetic", "random",
                                 "--count", "2000", "--read-fraction", "0.5", "--seed", "2", "--set", "failures.grown=true",
                                 "--set", "failures.grown_bad_share=0.1", "--set", "failures.rated_pe_cycles=3000"},
                                dir);
  const json& b = r["bad_blocks"];
  INFO("bad_blocks: " << b.dump());
  const std::uint64_t worn = u64(b["worn_out_before_run"]);
  CHECK(worn >= 51 - 5 * 7);
  CHECK(worn <= 51 + 5 * 7);
  CHECK(u64(b["retired_segments"]) >= worn);
  CHECK(u64(b["retired_segments"]) <= worn + u64(b["erase_failures"]));
  CHECK(u64(r["integrity"]["mismatches"]) == 0);
  CHECK(r["integrity"]["mapping_check"] == "ok");
}
