// The page-mapping FTL's SLC cache (fw/ftl/common/slc_cache.h) on the functional platform:
// the cache's size in closed form (static, and dynamic as the free blocks allow), and for page
// mapping, DFTL and CAST the folds a full cache costs and the oracle through overwrites, GC, folds
// and idle folding (test_demand_slc_cache.cpp: DFTL's and CAST's cache sizes).
#include <catch2/catch.hpp>

#include "fw/ftl/page_mapping/page_mapping_ftl.h"
#include "slc_test_support.h"

using namespace ssd;

// A namespace of its own, tests included, so that the helpers' names stay here in the sanitizer
// preset's unity build.
namespace page_mapping_slc_test {

using namespace ssd::test::slc;

platform::FunctionalDriveConfig page_mapping_tlc_drive(std::uint32_t planes, std::map<std::string, std::string> options,
                                                       std::uint64_t seed = 0) {
  return drive_for("page_mapping", planes, std::move(options), seed);
}

TEST_CASE("SLC cache: a static cache takes slc_blocks SLC blocks a plane, then host writes go native",
          "[ftl][page_mapping][slc]") {
  platform::FunctionalDrive drive(page_mapping_tlc_drive(4, {{"slc_cache", "static"}, {"slc_blocks", "3"}}));
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), 4096);
  write_sequentially(drive, oracle, 400);
  // 4 planes x 3 blocks x 4 pages in SLC mode; every other page native; nothing folded (no idle
  // folding, native writes past the cache, no GC on a drive a fifth written).
  CHECK(counter(drive, "slc_pages_written") == 4 * 3 * kSlcPages);
  CHECK(counter(drive, "slc_blocks_opened") == 4 * 3);
  CHECK(counter(drive, "slc_blocks_folded") == 0);
  CHECK(counter(drive, "flash_pages_programmed") == 400);
  test::check_drive(drive, oracle);
}

TEST_CASE("SLC cache: a dynamic cache grows while its blocks beyond the floor stay under the share of the free ones",
          "[ftl][page_mapping][slc]") {
  // Per plane F0 = 64 free blocks, GC threshold 4, floor b = 2, share s = 0.5. The k-th SLC block
  // opens while (k - 1) - b < s (F0 - (k - 1) - 4), i.e. k - 1 < (s (F0 - 4) + b) / (1 + s) =
  // 32 / 1.5 = 21.3: 22 blocks, 88 pages a plane.
  platform::FunctionalDrive drive(
      page_mapping_tlc_drive(4, {{"slc_cache", "dynamic"}, {"slc_blocks", "2"}, {"slc_free_share", "0.5"}}));
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), 4096);
  write_sequentially(drive, oracle, 800);
  CHECK(counter(drive, "slc_blocks_opened") == 4 * 22);
  CHECK(counter(drive, "slc_pages_written") == 4 * 22 * kSlcPages);
  test::check_drive(drive, oracle);

  // A fuller drive has a smaller cache: with share 0.25 the same law gives k - 1 < (15 + 2) / 1.25
  // = 13.6: 14 blocks a plane.
  platform::FunctionalDrive smaller(
      page_mapping_tlc_drive(4, {{"slc_cache", "dynamic"}, {"slc_blocks", "2"}, {"slc_free_share", "0.25"}}));
  stimuli::IntegrityOracle oracle2(smaller.firmware().ftl().logical_pages(), 4096);
  write_sequentially(smaller, oracle2, 800);
  CHECK(counter(smaller, "slc_blocks_opened") == 4 * 14);
}

TEST_CASE("SLC cache: with slc_when_full = fold every page goes through SLC and each block past the cache is folded",
          "[ftl][page_mapping][dftl][cast][slc]") {
  // One plane (DFTL's and CAST's segments are single blocks), a static cache of 3 blocks, 40 pages
  // written once: 10 SLC blocks, the 4th to the 10th each needing a fold first; every folded block
  // is whole and valid (no overwrites; DFTL's and CAST's mappings all cached: no translation write).
  const std::string ftl = GENERATE("page_mapping", "dftl", "cast");
  INFO(ftl);
  platform::FunctionalDrive drive(
      drive_for(ftl, 1, {{"slc_cache", "static"}, {"slc_blocks", "3"}, {"slc_when_full", "fold"}}));
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), 4096);
  write_sequentially(drive, oracle, 10 * kSlcPages);
  CHECK(counter(drive, "slc_pages_written") == 10 * kSlcPages);
  CHECK(counter(drive, "slc_blocks_opened") == 10);
  CHECK(counter(drive, "slc_blocks_folded") == 10 - 3);
  CHECK(counter(drive, "slc_foreground_folds") == 10 - 3);
  CHECK(counter(drive, "slc_fold_copies") == (10 - 3) * kSlcPages);
  CHECK(counter(drive, "flash_pages_programmed") == 10 * kSlcPages + (10 - 3) * kSlcPages);
  CHECK(counter(drive, "erases") == 10 - 3);
  test::check_drive(drive, oracle);
}

TEST_CASE("SLC cache: the oracle holds through overwrites, GC, translation write-backs, foreground and idle folds",
          "[ftl][page_mapping][dftl][cast][slc][oracle]") {
  const std::string ftl = GENERATE("page_mapping", "dftl", "cast");
  const std::string when_full = GENERATE("native", "fold");
  const std::string idle_ms = GENERATE("0", "100");
  const std::uint64_t seed = GENERATE(1, 2);
  INFO(ftl << ", slc_when_full = " << when_full << ", slc_idle_fold_ms = " << idle_ms << ", seed " << seed);
  std::map<std::string, std::string> options = {
      {"slc_cache", "dynamic"}, {"slc_when_full", when_full}, {"slc_idle_fold_ms", idle_ms}};
  const bool demand = ftl != "page_mapping";
  if (demand) options["cmt_bytes"] = "640";  // 80 entries: most lookups miss, evictions write translation pages
  platform::FunctionalDrive drive(drive_for(ftl, 4, options, seed));
  const std::uint64_t logical_pages = drive.firmware().ftl().logical_pages();
  stimuli::IntegrityOracle oracle(logical_pages, 4096);
  write_sequentially(drive, oracle, logical_pages, 4);
  test::RandomMixed mixed(drive.capacity_sectors(), 4 * logical_pages, 0.3, 24, seed);
  platform::replay_functional(drive, mixed, oracle, 8);
  CHECK(counter(drive, "slc_blocks_folded") > 0);
  CHECK(counter(drive, "gc_copies") >= counter(drive, "slc_fold_copies"));
  CHECK(counter(drive, "gc_runs") > counter(drive, "slc_blocks_folded"));  // native victims too
  if (demand) CHECK(counter(drive, "translation_writes_host") + counter(drive, "translation_writes_gc") > 0);
  // The untimed platform's timers complete at once: its idle clock runs out whenever no command
  // comes in four ticks, which a closed loop with completions in between still sees.
  if (idle_ms == "0") CHECK(counter(drive, "slc_idle_folds") == 0);
  test::check_drive(drive, oracle);
}

TEST_CASE("SLC cache: impossible configurations name the parameter", "[ftl][page_mapping][slc]") {
  platform::FunctionalDriveConfig slc_part = page_mapping_tlc_drive(4, {{"slc_cache", "dynamic"}});
  slc_part.firmware.word_line_pages = 1;
  CHECK_THROWS_WITH(platform::FunctionalDrive(slc_part),
                    Catch::Contains("ftl.slc_cache = dynamic needs a part of several bits a cell"));
  CHECK_THROWS_WITH(
      platform::FunctionalDrive(page_mapping_tlc_drive(4, {{"slc_cache", "static"}, {"slc_blocks", "60"}})),
      Catch::Contains("ftl.slc_blocks = 60") && Catch::Contains("spare blocks"));
  CHECK_THROWS_WITH(platform::FunctionalDrive(page_mapping_tlc_drive(4, {{"slc_cache", "sometimes"}})),
                    Catch::Contains("slc_cache"));
}

TEST_CASE("SLC cache: idle folding finishes a paced reclaim first and folds every closed SLC block of a full drive",
          "[ftl][page_mapping][slc]") {
  // A full drive overwritten in part: GC runs paced, in step with host writes, and one reclaim
  // a plane is left waiting for writes that never come. Idle, the drive finishes it, and then
  // folds every SLC block but the open one a plane (the untimed platform's clock runs out at once).
  platform::FunctionalDrive drive(page_mapping_tlc_drive(4, {{"slc_cache", "dynamic"}, {"slc_idle_fold_ms", "100"}}));
  const std::uint64_t logical_pages = drive.firmware().ftl().logical_pages();
  stimuli::IntegrityOracle oracle(logical_pages, 4096);
  write_sequentially(drive, oracle, logical_pages, 4);
  write_sequentially(drive, oracle, logical_pages / 2, 4);
  CHECK(counter(drive, "gc_runs") == counter(drive, "erases"));  // no reclaim left half done
  CHECK(counter(drive, "slc_blocks_opened") > 4);
  CHECK(counter(drive, "slc_blocks_folded") >= counter(drive, "slc_blocks_opened") - 4);
  test::check_drive(drive, oracle);
}

}  // namespace page_mapping_slc_test
