// The sequential fill laid out directly (Ftl::preload_sequential_fill) against the same fill
// written: a host writing every logical page once, one page at a time in logical order. The two
// drives must be in the same state -- every logical page's mapping, every physical page's OOB,
// data and validity, every block's write pointer, erase count and sequence, the FTL's counters
// -- and stay the same under the same random writes afterwards (which catches any allocation
// cursor, free pool or frontier the layout left elsewhere).
#include <catch2/catch.hpp>

#include "fw/ftl/page_mapping/page_mapping_ftl.h"
#include "fw/ftl/registry.h"
#include "fw_test_support.h"

using namespace ssd;

namespace {

struct FilledDrive {
  explicit FilledDrive(const platform::FunctionalDriveConfig& c)
      : drive(c), oracle(drive.firmware().ftl().logical_pages(), c.geometry.page_bytes) {}
  platform::FunctionalDrive drive;
  stimuli::IntegrityOracle oracle;
};

void replay_fill(FilledDrive& d) {
  d.oracle.begin_preconditioning();
  test::SequentialFill fill(d.drive.capacity_sectors(), d.drive.array().geometry().page_bytes / kSectorBytes);
  platform::replay_functional(d.drive, fill, d.oracle, 1);
  d.oracle.end_preconditioning();
}

bool preload_fill(FilledDrive& d) {
  d.oracle.begin_preconditioning();
  const bool done =
      d.drive.firmware().ftl().preload_sequential_fill([&](Lpn lpn) { return d.oracle.baseline(lpn); });
  d.oracle.end_preconditioning();
  return done;
}

// Every difference between the two drives' states, as text for the first few.
std::string state_differences(FilledDrive& a, FilledDrive& b) {
  std::string out;
  int found = 0;
  auto differ = [&](const std::string& what) {
    if (found++ < 5) out += what + "\n";
  };
  const fw::Ftl& fa = a.drive.firmware().ftl();
  const fw::Ftl& fb = b.drive.firmware().ftl();
  const hw::NandArray& na = a.drive.array();
  const hw::NandArray& nb = b.drive.array();
  for (Lpn lpn = 0; lpn < fa.logical_pages(); ++lpn)
    if (fa.locate(lpn) != fb.locate(lpn)) differ("logical page " + std::to_string(lpn) + " maps elsewhere");
  const FlashGeometry& g = na.geometry();
  for (Ppn ppn = 0; ppn < g.total_pages(); ++ppn) {
    const hw::PageContent ca = na.read(ppn), cb = nb.read(ppn);
    if (ca.lpn != cb.lpn || ca.token != cb.token || na.is_programmed(ppn) != nb.is_programmed(ppn))
      differ(na.describe(ppn) + " holds different contents");
    if (fa.holds_valid_page(ppn) != fb.holds_valid_page(ppn)) differ(na.describe(ppn) + " differs in validity");
  }
  for (BlockId blk = 0; blk < g.total_blocks(); ++blk)
    if (na.write_pointer(blk) != nb.write_pointer(blk) || na.erase_count(blk) != nb.erase_count(blk) ||
        na.block_sequence(blk) != nb.block_sequence(blk))
      differ("block " + std::to_string(blk) + " differs in write pointer, erase count or sequence");
  if (na.pages_programmed() != nb.pages_programmed() || na.blocks_erased() != nb.blocks_erased())
    differ("the arrays counted different programs or erases");
  const MetricSet& ma = a.drive.metrics().set("ftl");
  const MetricSet& mb = b.drive.metrics().set("ftl");
  for (const auto& [name, value] : ma.counters())
    if (mb.counters().count(name) == 0 || mb.counters().at(name) != value) differ("FTL counter " + name + " differs");
  return found ? out + std::to_string(found) + " differences" : "";
}

// Random page-sized and partial writes with reads, enough to run GC on the tiny drive.
void age(FilledDrive& d, std::uint64_t seed) {
  test::RandomMixed w(d.drive.capacity_sectors(), 3000, 0.3, 24, seed);
  platform::replay_functional(d.drive, w, d.oracle, 8);
}

void check_same_fill(const platform::FunctionalDriveConfig& c) {
  FilledDrive replayed(c), preloaded(c);
  replay_fill(replayed);
  REQUIRE(preload_fill(preloaded));
  CHECK(state_differences(replayed, preloaded) == "");
  CHECK(platform::verify_drive(preloaded.drive, preloaded.oracle) == "");
  age(replayed, 7);
  age(preloaded, 7);
  CHECK(state_differences(replayed, preloaded) == "");
  test::check_drive(preloaded.drive, preloaded.oracle);
}

platform::FunctionalDriveConfig with(platform::FunctionalDriveConfig c, const std::string& ftl,
                                     std::map<std::string, std::string> options) {
  c.firmware.ftl = ftl;
  c.firmware.ftl_options = fw::FtlOptions(std::move(options));
  return c;
}

}  // namespace

TEST_CASE("page mapping: the sequential fill laid out directly equals the fill written page by page",
          "[precondition][page_mapping]") {
  const char* allocation = GENERATE("adaptive", "channel_first", "plane_first");
  const std::uint32_t planes_per_die = GENERATE(1u, 2u, 4u);
  INFO(allocation << ", " << planes_per_die << " planes per die");
  platform::FunctionalDriveConfig c = test::tiny_drive();
  c.geometry.planes_per_die = planes_per_die;
  c.geometry.dies_per_way = 2;
  // 0.23: a logical page count no plane count divides, so the planes end unevenly.
  check_same_fill(with(c, "page_mapping",
                       {{"overprovisioning", "0.23"}, {"gc_threshold_blocks", "3"}, {"allocation", allocation}}));
}

TEST_CASE("every FTL that lays out the sequential fill directly lays it out as written",
          "[precondition]") {
  for (const fw::FtlInfo& info : fw::ftl_registry()) {
    INFO(info.name);
    platform::FunctionalDriveConfig c = test::tiny_drive();
    c.geometry.blocks_per_plane = 512;  // room for every FTL's defaults
    c.firmware.ftl = info.name;
    c.firmware.ftl_options = fw::FtlOptions{};
    FilledDrive probe(c);
    if (!preload_fill(probe)) continue;  // it replays the fill instead
    check_same_fill(c);
  }
}

TEST_CASE("the direct sequential fill refuses a written drive", "[precondition]") {
  FilledDrive d(test::tiny_drive());
  REQUIRE(preload_fill(d));
  CHECK_THROWS_WITH(preload_fill(d), Catch::Contains("needs a fresh drive"));
}

TEST_CASE("DFTL and CAST: the sequential fill laid out directly equals the fill written page by page",
          "[precondition][demand]") {
  // Small caches, so runs are evicted and translation pages written back all through the fill;
  // every placement and replacement the engine offers.
  using Options = std::map<std::string, std::string>;
  const auto [ftl, options] = GENERATE(
      std::pair<std::string, Options>{"dftl", {{"cmt_bytes", "8192"}}},  // capacity = entries per page
      std::pair<std::string, Options>{"dftl", {{"cmt_bytes", "12000"}, {"cmt_policy", "lru"}}},
      std::pair<std::string, Options>{"dftl", {{"cmt_bytes", "16384"}, {"current_blocks", "3"}}},
      std::pair<std::string, Options>{"cast", {{"cmt_bytes", "9216"}}},
      std::pair<std::string, Options>{"cast", {{"cmt_bytes", "9216"}, {"run_length_bits", "4"}}},
      std::pair<std::string, Options>{"cast", {{"cmt_bytes", "9216"}, {"placement", "ibl"}}},
      std::pair<std::string, Options>{"cast", {{"cmt_bytes", "9216"}, {"abl_new_block_distance", "100"}}},
      std::pair<std::string, Options>{"cast", {{"cmt_bytes", "9216"}, {"segment_planes", "2"}}});
  Options o = options;
  o["overprovisioning"] = "0.23";
  std::string described = ftl;
  for (const auto& [k, v] : o) described += " " + k + "=" + v;
  INFO(described);
  platform::FunctionalDriveConfig c = test::tiny_drive();
  c.geometry.blocks_per_plane = 128;
  check_same_fill(with(c, ftl, o));
}

TEST_CASE("DFTL declines the direct sequential fill when its cache cannot hold a translation page's entries",
          "[precondition][demand]") {
  // 4 KiB translation pages hold 1,024 entries; a cache of 1,023 would write some pages twice.
  platform::FunctionalDriveConfig c = with(test::tiny_drive(), "dftl", {{"cmt_bytes", "8184"}});
  c.geometry.blocks_per_plane = 128;
  FilledDrive d(c);
  CHECK_FALSE(preload_fill(d));
  CHECK(d.drive.array().pages_programmed() == 0);
}

TEST_CASE("ADAPT: the sequential fill laid out directly leaves the request history and interval of the written one",
          "[precondition][adapt]") {
  // A HAT holding every request of the fill, so the merges after it give second chances by
  // what the fill recorded; short intervals, so where the fill left the interval moves every
  // adjustment after it.
  const char* interval = GENERATE("7", "13", "4000");
  INFO("interval_writes=" << interval);
  platform::FunctionalDriveConfig c = test::tiny_drive();
  c.geometry.blocks_per_plane = 128;
  check_same_fill(with(c, "adapt", {{"overprovisioning", "0.23"}, {"hat_bytes", "600000"}, {"interval_writes", interval}}));
}
