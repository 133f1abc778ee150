#include <catch2/catch.hpp>

#include "fw_test_support.h"

using namespace ssd;

namespace {

platform::FunctionalDriveConfig hybrid_drive(const std::string& ftl, std::map<std::string, std::string> options,
                                             std::uint64_t seed = 0) {
  platform::FunctionalDriveConfig c = test::tiny_drive(seed);
  c.firmware.ftl = ftl;
  c.firmware.ftl_options = fw::FtlOptions(std::move(options));
  return c;
}

}  // namespace

TEST_CASE("Hybrid FTLs pass the integrity oracle through every kind of merge", "[ftl][hybrid][oracle]") {
  const std::string ftl = GENERATE(as<std::string>{}, "bast", "fast", "faster");
  const std::string segment_planes = GENERATE(as<std::string>{}, "1", "2", "8");
  const std::uint64_t seed = GENERATE(1, 2);
  // 1 plane: 256 blocks of 16 pages, 8 log blocks; 8 planes: 32 blocks of 128 pages, 3 log blocks.
  std::map<std::string, std::string> options{{"segment_planes", segment_planes}};
  if (segment_planes == "8") {
    options["log_share"] = "0.1";
    options["overprovisioning"] = "0.3";
  }
  INFO(ftl << " segment_planes " << segment_planes << " seed " << seed);
  platform::FunctionalDrive drive(hybrid_drive(ftl, options, seed));
  const Lpn logical_pages = drive.firmware().ftl().logical_pages();
  stimuli::IntegrityOracle oracle(logical_pages, 4096);

  // Half sequential (switch and partial merges), then random mixed unaligned traffic (full
  // merges), then sequential again over a random-written drive.
  test::SequentialFill fill(drive.capacity_sectors() / 2, 64);
  platform::replay_functional(drive, fill, oracle, 8);
  test::RandomMixed mixed(drive.capacity_sectors(), 3 * logical_pages, 0.3, 24, seed);
  platform::replay_functional(drive, mixed, oracle, 8);
  test::SequentialFill refill(drive.capacity_sectors(), 64);
  platform::replay_functional(drive, refill, oracle, 8);

  auto& m = drive.metrics().set("ftl");
  INFO(oracle.first_mismatch());
  CHECK(oracle.mismatches() == 0);
  CHECK(oracle.pages_checked() > logical_pages);
  CHECK(platform::verify_drive(drive, oracle) == "");
  CHECK(m.counter("full_merges") > 10);
  CHECK(m.counter("switch_merges") + m.counter("partial_merges") > 0);
  CHECK(m.counter("flash_pages_programmed") == drive.array().pages_programmed());
  CHECK(m.counter("erases") == drive.array().blocks_erased());
  if (ftl == "faster") CHECK(m.counter("second_chance_copies") > 0);
}
