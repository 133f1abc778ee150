#include <catch2/catch.hpp>

#include "fw/ftl/page_mapping/page_mapping_ftl.h"
#include "fw_test_support.h"

using namespace ssd;

TEST_CASE("Page mapping passes the integrity oracle through many GC rounds", "[ftl][page_mapping][oracle]") {
  const std::uint64_t seed = GENERATE(1, 2, 3);
  platform::FunctionalDrive drive(test::tiny_drive(seed));
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), drive.array().geometry().page_bytes);
  const std::uint64_t logical_pages = drive.firmware().ftl().logical_pages();

  test::SequentialFill fill(drive.capacity_sectors(), 64);
  platform::replay_functional(drive, fill, oracle, 8);
  // Random mixed traffic writing the drive over several times, unaligned (read-modify-write).
  test::RandomMixed mixed(drive.capacity_sectors(), 6 * logical_pages, 0.3, 24, seed);
  auto r = platform::replay_functional(drive, mixed, oracle, 8);

  auto& ftl = drive.metrics().set("ftl");
  INFO("first mismatch: " << oracle.first_mismatch());
  CHECK(oracle.mismatches() == 0);
  CHECK(oracle.pages_checked() > logical_pages);
  CHECK(r.reads > 0);
  CHECK(ftl.counter("gc_runs") > 10 * drive.array().geometry().total_planes());
  CHECK(ftl.counter("gc_copies") > 0);
  CHECK(drive.metrics().set("firmware").counter("partial_page_writes") > 0);
  CHECK(ftl.counter("flash_pages_programmed") == drive.array().pages_programmed());
  CHECK(ftl.counter("erases") == drive.array().blocks_erased());
  CHECK(platform::verify_drive(drive, oracle) == "");
}

namespace {
// The tiny drive under page mapping, filled by 32 KiB writes at QD4: the start of the tests
// that corrupt its state and expect the checks to notice.
struct FilledTinyDrive {
  FilledTinyDrive() {
    test::SequentialFill fill(drive.capacity_sectors(), 64);
    platform::replay_functional(drive, fill, oracle, 4);
  }
  platform::FunctionalDrive drive{test::tiny_drive()};
  fw::PageMappingFtl& ftl = dynamic_cast<fw::PageMappingFtl&>(drive.firmware().ftl());
  stimuli::IntegrityOracle oracle{ftl.logical_pages(), drive.array().geometry().page_bytes};
};
}  // namespace

TEST_CASE_METHOD(FilledTinyDrive, "A deliberately corrupted mapping is caught by the oracle and the OOB check",
                 "[ftl][page_mapping][oracle]") {
  REQUIRE(oracle.mismatches() == 0);
  REQUIRE(platform::verify_drive(drive, oracle) == "");

  ftl.corrupt_mapping_for_test(10, 11);
  test::SequentialFill read_all(drive.capacity_sectors(), 64);
  struct ReadAll : stimuli::Workload {
    std::uint64_t cap, at = 0;
    explicit ReadAll(std::uint64_t c) : cap(c) {}
    bool next(stimuli::HostRequest& r) override {
      if (at >= cap) return false;
      r = stimuli::HostRequest{0, HostOp::Read, false, at, 8, 0};
      at += 8;
      return true;
    }
    std::string describe() const override { return "read all"; }
  } reader(drive.capacity_sectors());
  platform::replay_functional(drive, reader, oracle, 4);
  CHECK(oracle.mismatches() == 1);
  CHECK_THAT(oracle.first_mismatch(), Catch::StartsWith("logical page 10 "));
  CHECK_THAT(platform::verify_drive(drive, oracle), Catch::Contains("logical page 10") && Catch::Contains("OOB names logical page 11"));
}

TEST_CASE("Page mapping exports capacity from the over-provisioning and rejects bad parameters", "[ftl][page_mapping]") {
  auto cfg = test::tiny_drive();
  platform::FunctionalDrive drive(cfg);
  const auto& g = drive.array().geometry();
  CHECK(drive.firmware().ftl().logical_pages() == Lpn(g.total_pages() * 0.75));

  cfg.firmware.ftl_options = fw::FtlOptions(std::map<std::string, std::string>{{"overprovisioning", "0.01"}});
  CHECK_THROWS_WITH(platform::FunctionalDrive(cfg), Catch::Contains("ftl.overprovisioning") && Catch::Contains("spare blocks per plane"));
  cfg.firmware.ftl_options = fw::FtlOptions(std::map<std::string, std::string>{{"overprovisioning", "1.5"}});
  CHECK_THROWS_WITH(platform::FunctionalDrive(cfg), Catch::Contains("ftl.overprovisioning") && Catch::Contains("[0, 0.9]"));
  cfg.firmware.ftl_options = fw::FtlOptions(std::map<std::string, std::string>{{"gc_victim", "greedy"}});
  CHECK_THROWS_WITH(platform::FunctionalDrive(cfg), Catch::Contains("unknown parameter(s) for FTL 'page_mapping': ftl.gc_victim"));
  cfg.firmware.ftl_options = fw::FtlOptions();
  cfg.firmware.ftl = "nope";
  CHECK_THROWS_WITH(platform::FunctionalDrive(cfg), Catch::Contains("unknown FTL 'nope'") && Catch::Contains("page_mapping"));
}

TEST_CASE("A partial-page write reads the old page before programming it", "[ftl][page_mapping]") {
  platform::FunctionalDrive drive(test::tiny_drive());
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), 4096);
  struct Script : stimuli::Workload {
    std::vector<stimuli::HostRequest> reqs;
    std::size_t i = 0;
    bool next(stimuli::HostRequest& r) override {
      if (i == reqs.size()) return false;
      r = reqs[i++];
      return true;
    }
    std::string describe() const override { return "script"; }
  } s;
  s.reqs = {{0, HostOp::Write, false, 0, 8, 0}, {0, HostOp::Write, false, 2, 3, 0}, {0, HostOp::Read, false, 0, 8, 0}};  // full page, then sectors 2-4 of it
  platform::replay_functional(drive, s, oracle, 1);
  CHECK(oracle.mismatches() == 0);
  auto& ops = drive.metrics().set("firmware.ops");
  CHECK(ops.counter("reads_issued") == 2);  // the RMW read and the host read
  CHECK(ops.counter("programs_issued") == 2);
  CHECK(oracle.expected(0) == merge_tokens(write_token(0, 1), write_token(0, 2)));
}

TEST_CASE("The data buffer bounds the host pages in flight, commands wait their turn", "[firmware][buffer]") {
  auto cfg = test::tiny_drive(3);
  cfg.firmware.buffer_slots = 4;
  platform::FunctionalDrive drive(cfg);
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), 4096);
  test::RandomMixed mixed(drive.capacity_sectors(), 4000, 0.4, 16, 9);  // up to 3 pages per request
  platform::replay_functional(drive, mixed, oracle, 16);
  auto& fw = drive.metrics().set("firmware");
  CHECK(oracle.mismatches() == 0);
  CHECK(fw.counter("buffer_waits") > 0);
  CHECK(fw.counter("buffer_pages_high_water") <= 4);
  CHECK(fw.counter("host_commands") == 4000);

  struct Big : stimuli::Workload {
    bool done = false;
    bool next(stimuli::HostRequest& r) override {
      if (done) return false;
      done = true;
      r = stimuli::HostRequest{0, HostOp::Write, false, 0, 5 * 8, 0};  // 5 pages
      return true;
    }
    std::string describe() const override { return "big"; }
  } big;
  CHECK_THROWS_WITH(platform::replay_functional(drive, big, oracle, 1),
                    Catch::Contains("more than the whole data buffer (firmware.buffer_slots = 4)"));
}

TEST_CASE("Page mapping keeps integrity across geometries and over-provisioning", "[ftl][page_mapping][oracle]") {
  std::mt19937_64 rng(2026);
  for (int trial = 0; trial < 60; ++trial) {
    platform::FunctionalDriveConfig c;
    c.geometry.channels = 1 + rng() % 3;
    c.geometry.ways = 1 + rng() % 3;
    c.geometry.dies_per_way = 1 + rng() % 2;
    c.geometry.planes_per_die = 1 + rng() % 4;
    c.geometry.blocks_per_plane = 12 + rng() % 24;
    c.geometry.pages_per_block = 4u << (rng() % 4);  // 4..32
    c.geometry.page_bytes = 2048u << (rng() % 3);    // 2, 4 or 8 KiB
    c.completion_seed = 1 + rng() % 1000;
    // At least gc_threshold_blocks + 2 spare blocks per plane (the FTL rejects less), plus one.
    const double op = std::max(0.15 + double(rng() % 20) / 100.0, 6.5 / c.geometry.blocks_per_plane);
    c.firmware.ftl_options = fw::FtlOptions(std::map<std::string, std::string>{
        {"overprovisioning", std::to_string(op)}, {"gc_threshold_blocks", "3"}});
    c.firmware.buffer_slots = 8 + rng() % 64;
    INFO("trial " << trial << ": " << c.geometry.channels << "x" << c.geometry.ways << "x" << c.geometry.dies_per_way
                  << "x" << c.geometry.planes_per_die << " planes, " << c.geometry.blocks_per_plane << " blocks of "
                  << c.geometry.pages_per_block << " x " << c.geometry.page_bytes << " B, op " << op);
    platform::FunctionalDrive drive(c);
    stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), c.geometry.page_bytes);
    const std::uint32_t page_sectors = c.geometry.page_bytes / 512;
    test::RandomMixed mixed(drive.capacity_sectors(), 4 * drive.firmware().ftl().logical_pages(), 0.25,
                            std::min<std::uint32_t>(3 * page_sectors, 8 * page_sectors), rng());
    platform::replay_functional(drive, mixed, oracle, 1 + rng() % 16);
    CHECK(oracle.mismatches() == 0);
    CHECK(drive.metrics().set("ftl").counter("gc_runs") > 0);
    CHECK(platform::verify_drive(drive, oracle) == "");
  }
}

TEST_CASE_METHOD(FilledTinyDrive, "A stale page counted as live is caught by the whole-drive check",
                 "[ftl][page_mapping][oracle]") {
  const Ppn old = ftl.locate(5);
  struct RewritePage5 : stimuli::Workload {
    bool done = false;
    bool next(stimuli::HostRequest& r) override {
      if (done) return false;
      r = stimuli::HostRequest{0, HostOp::Write, false, 5 * 8, 8, 0};
      return done = true;
    }
    std::string describe() const override { return "rewrite page 5"; }
  } rewrite;
  platform::replay_functional(drive, rewrite, oracle, 1);
  REQUIRE(ftl.locate(5) != old);
  REQUIRE(platform::verify_drive(drive, oracle) == "");
  ftl.revalidate_for_test(old);
  CHECK_THAT(platform::verify_drive(drive, oracle),
             Catch::Contains("is counted as valid") && Catch::Contains("names logical page 5"));
}
