// DFTL's and CAST's SLC cache (fw/ftl/common/slc_cache.h, fw/ftl/demand/slc_cache.cpp) on the
// functional platform: the cache's size in closed form (static, and dynamic as the free segments
// allow) and idle folding (test_slc_cache.cpp checks the folds a full cache costs and the oracle
// for every FTL). The cache's unit is a segment: one block on each plane (segment_planes = all).
#include <catch2/catch.hpp>
#include <set>

#include "slc_test_support.h"

using namespace ssd;

// A namespace of its own, tests included, so that the helpers' names stay here in the sanitizer
// preset's unity build.
namespace demand_slc_test {

using namespace ssd::test::slc;

TEST_CASE("DFTL/CAST SLC cache: a static cache takes slc_blocks SLC segments, then host writes go native",
          "[ftl][dftl][cast][slc]") {
  const std::string ftl = GENERATE("dftl", "cast");
  INFO(ftl);
  platform::FunctionalDrive drive(drive_for(ftl, 4, {{"slc_cache", "static"}, {"slc_blocks", "3"}}));
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), 4096);
  write_sequentially(drive, oracle, 400);
  // 3 segments of 4 planes x 4 pages in SLC mode; every other page native; nothing folded (no
  // idle folding, native writes past the cache, no GC on a drive a fifth written).
  CHECK(counter(drive, "slc_pages_written") == 3 * 4 * kSlcPages);
  CHECK(counter(drive, "slc_blocks_opened") == 3);
  CHECK(counter(drive, "slc_blocks_folded") == 0);
  CHECK(counter(drive, "flash_pages_programmed") == 400);
  test::check_drive(drive, oracle);
}

TEST_CASE(
    "DFTL/CAST SLC cache: a dynamic cache grows while its segments beyond the floor stay under the share of "
    "the free ones",
    "[ftl][dftl][cast][slc]") {
  // F0 = 64 free segments, GC threshold 6, floor b = 2, share s = 0.5. The k-th SLC segment opens
  // while (k - 1) - b < s (F0 - (k - 1) - 6), i.e. k - 1 < (s (F0 - 6) + b) / (1 + s) = 31 / 1.5 =
  // 20.7: 21 segments of 16 pages. (The cache fills before any native write opens a segment.)
  const std::string ftl = GENERATE("dftl", "cast");
  INFO(ftl);
  platform::FunctionalDrive drive(
      drive_for(ftl, 4, {{"slc_cache", "dynamic"}, {"slc_blocks", "2"}, {"slc_free_share", "0.5"}}));
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), 4096);
  write_sequentially(drive, oracle, 800);
  CHECK(counter(drive, "slc_blocks_opened") == 21);
  CHECK(counter(drive, "slc_pages_written") == 21 * 4 * kSlcPages);
  test::check_drive(drive, oracle);

  // Share 0.25: k - 1 < (14.5 + 2) / 1.25 = 13.2: 14 segments.
  platform::FunctionalDrive smaller(
      drive_for(ftl, 4, {{"slc_cache", "dynamic"}, {"slc_blocks", "2"}, {"slc_free_share", "0.25"}}));
  stimuli::IntegrityOracle oracle2(smaller.firmware().ftl().logical_pages(), 4096);
  write_sequentially(smaller, oracle2, 800);
  CHECK(counter(smaller, "slc_blocks_opened") == 14);
}

TEST_CASE("DFTL/CAST SLC cache: idle folding finishes a paced reclaim first and folds every closed SLC segment",
          "[ftl][dftl][cast][slc]") {
  const std::string ftl = GENERATE("dftl", "cast");
  INFO(ftl);
  platform::FunctionalDrive drive(drive_for(ftl, 4, {{"slc_cache", "dynamic"}, {"slc_idle_fold_ms", "100"}}));
  const std::uint64_t logical_pages = drive.firmware().ftl().logical_pages();
  stimuli::IntegrityOracle oracle(logical_pages, 4096);
  write_sequentially(drive, oracle, logical_pages, 4);
  write_sequentially(drive, oracle, logical_pages / 2, 4);
  CHECK(counter(drive, "gc_runs") * 4 == counter(drive, "erases"));  // no reclaim left half done
  CHECK(counter(drive, "slc_blocks_opened") > 1);
  CHECK(counter(drive, "slc_blocks_folded") >= counter(drive, "slc_blocks_opened") - 1);  // all but the open one
  test::check_drive(drive, oracle);
}

// Given write requests, in order.
class Writes : public stimuli::Workload {
 public:
  explicit Writes(std::vector<stimuli::HostRequest> requests) : requests_(std::move(requests)) {}
  bool next(stimuli::HostRequest& r) override {
    if (next_ == requests_.size()) return false;
    r = requests_[next_++];
    return true;
  }
  std::string describe() const override { return "writes"; }

 private:
  std::vector<stimuli::HostRequest> requests_;
  std::size_t next_ = 0;
};

TEST_CASE("CAST SLC cache: folds place pages by address (ABL), as host writes would be", "[ftl][cast][slc]") {
  // Two address ranges 1,000 pages apart, written alternately 4 pages at a time through the
  // cache (an unused current block counts as 100 pages away): folded, each range settles in
  // current blocks of its own. (Folds record their pages' addresses; without, no block has any
  // and the first is always the nearest.)
  platform::FunctionalDrive drive(drive_for("cast", 4,
                                            {{"slc_cache", "static"},
                                             {"slc_blocks", "2"},
                                             {"slc_when_full", "fold"},
                                             {"slc_idle_fold_ms", "100"},
                                             {"abl_new_block_distance", "100"}}));
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), 4096);
  std::vector<stimuli::HostRequest> requests;
  for (std::uint64_t i = 0; i < 20; ++i)
    for (std::uint64_t base : {0, 1000}) {
      stimuli::HostRequest r;
      r.op = HostOp::Write;
      r.lba = (base + 4 * i) * kSectorsPerPage;
      r.sectors = 4 * kSectorsPerPage;
      requests.push_back(r);
    }
  Writes writes(requests);
  platform::replay_functional(drive, writes, oracle, 1);
  REQUIRE(counter(drive, "slc_fold_copies") >= 120);  // most of the 160 pages folded
  const fw::SegmentSpace& space = *drive.firmware().ftl().segment_space();
  std::set<std::uint32_t> near, far;
  for (Lpn lpn = 0; lpn < 80; ++lpn)
    for (Lpn base : {Lpn(0), Lpn(1000)}) {
      const std::uint32_t s = space.segment_of(space.to_spn(drive.firmware().ftl().locate(base + lpn)));
      if (space.kind(s) == 0) (base == 0 ? near : far).insert(s);  // a native data segment
    }
  CHECK(!near.empty());
  CHECK(!far.empty());
  for (std::uint32_t s : near) CHECK(far.count(s) == 0);
  test::check_drive(drive, oracle);
}

TEST_CASE("DFTL/CAST SLC cache: impossible configurations name the parameter", "[ftl][dftl][cast][slc]") {
  const std::string ftl = GENERATE("dftl", "cast");
  platform::FunctionalDriveConfig slc_part = drive_for(ftl, 4, {{"slc_cache", "dynamic"}});
  slc_part.firmware.word_line_pages = 1;
  CHECK_THROWS_WITH(platform::FunctionalDrive(slc_part),
                    Catch::Contains("ftl.slc_cache = dynamic needs a part of several bits a cell"));
  CHECK_THROWS_WITH(platform::FunctionalDrive(drive_for(ftl, 4, {{"slc_cache", "static"}, {"slc_blocks", "20"}})),
                    Catch::Contains("ftl.overprovisioning") && Catch::Contains("SLC cache"));
}

}  // namespace demand_slc_test
