#include <catch2/catch.hpp>

#include "fw/ftl/demand/demand_ftl.h"
#include "fw_test_support.h"

using namespace ssd;

namespace {

// 2 ch x 2 ways x 2 planes x 32 blocks x 16 pages of 512 bytes: translation pages hold 128
// entries, so the 3,000-odd logical pages need ~24 of them and translation GC is frequent.
platform::FunctionalDriveConfig demand_drive(const std::string& ftl, std::map<std::string, std::string> options,
                                             std::uint64_t seed = 0) {
  platform::FunctionalDriveConfig c = test::tiny_drive(seed);
  c.geometry.page_bytes = 512;
  c.firmware.ftl = ftl;
  c.firmware.ftl_options = fw::FtlOptions(std::move(options));
  return c;
}

struct Run {
  std::string verify;
  std::uint64_t mismatches = 0;
};

}  // namespace

TEST_CASE("DFTL and CAST pass the integrity oracle with constant eviction and translation GC",
          "[ftl][dftl][cast][oracle]") {
  const std::string ftl = GENERATE(as<std::string>{}, "dftl", "cast");
  const std::string segment_planes = GENERATE(as<std::string>{}, "8", "2", "1");
  const std::uint64_t seed = GENERATE(1, 2);
  std::map<std::string, std::string> options{{"overprovisioning", "0.35"},
                                             {"segment_planes", segment_planes},
                                             {"cmt_bytes", "256"},  // 32 DFTL entries, 28 CAST runs
                                             {"gc_policy", seed == 1 ? "greedy" : "cost_benefit"}};
  if (ftl == "cast") options["current_blocks"] = "3";
  platform::FunctionalDrive drive(demand_drive(ftl, options, seed));
  const Lpn logical_pages = drive.firmware().ftl().logical_pages();
  stimuli::IntegrityOracle oracle(logical_pages, 512);

  test::SequentialFill fill(drive.capacity_sectors(), 8);
  platform::replay_functional(drive, fill, oracle, 8);
  test::RandomMixed mixed(drive.capacity_sectors(), 5 * logical_pages, 0.3, 12, seed);
  platform::replay_functional(drive, mixed, oracle, 8);

  auto& m = drive.metrics().set("ftl");
  INFO(ftl << " segment_planes " << segment_planes << " seed " << seed << ": " << oracle.first_mismatch());
  CHECK(oracle.mismatches() == 0);
  CHECK(oracle.pages_checked() > logical_pages);
  CHECK(platform::verify_drive(drive, oracle) == "");
  CHECK(m.counter("cmt_dirty_evictions") > 1000);
  CHECK(m.counter("translation_writes_host") > 1000);
  CHECK(m.counter("translation_reads_host") > 1000);
  CHECK(m.counter("gc_runs_data") > 10);
  CHECK(m.counter("gc_runs_translation") > 0);
  CHECK(m.counter("gc_copies_data") > 0);
  CHECK(m.counter("flash_pages_programmed") == drive.array().pages_programmed());
  CHECK(m.counter("erases") == drive.array().blocks_erased());
}
