// The greedy steady-state model and the page-mapping FTL's preload built on it: invariants, the
// closed-form FIFO bound, and agreement with the real FTL running the writes.
#include <catch2/catch.hpp>
#include <cmath>

#include "common/log_structured_model.h"
#include "fw/precondition/greedy_steady_state.h"
#include "fw/ftl/demand/demand_ftl.h"
#include "fw/ftl/page_mapping/page_mapping_ftl.h"
#include "fw_test_support.h"
#include "stimuli/synthetic_workload.h"

using namespace ssd;

namespace {

// A drive big enough for GC statistics, small enough for a unit test: 8 planes x 64 blocks x 32
// pages of 4 KiB, 15% over-provisioning, GC below 4 free blocks per plane.
platform::FunctionalDriveConfig gc_drive() {
  platform::FunctionalDriveConfig c = test::tiny_drive();
  c.geometry.blocks_per_plane = 64;
  c.geometry.pages_per_block = 32;
  c.firmware.ftl_options =
      fw::FtlOptions(std::map<std::string, std::string>{{"overprovisioning", "0.15"}, {"gc_threshold_blocks", "4"}});
  return c;
}

fw::GreedyDomainSpec plane_spec(const platform::FunctionalDriveConfig& c, std::uint64_t logical_pages) {
  fw::GreedyDomainSpec s;
  s.blocks = c.geometry.blocks_per_plane;
  s.pages_per_block = c.geometry.pages_per_block;
  s.valid_pages = logical_pages / c.geometry.total_planes();
  s.gc_threshold = 4;
  return s;
}

// Random whole-page writes; returns the write amplification they caused.
double random_page_writes(platform::FunctionalDrive& drive, stimuli::IntegrityOracle& oracle, std::uint64_t pages,
                          std::uint64_t seed) {
  MetricSet& ftl = drive.metrics().set("ftl");
  const std::uint64_t programmed0 = ftl.counter("flash_pages_programmed"), host0 = ftl.counter("host_pages_written");
  stimuli::SyntheticSpec s;
  s.pattern = stimuli::SyntheticSpec::Pattern::Random;
  s.request_bytes = drive.array().geometry().page_bytes;
  s.range_bytes = drive.capacity_sectors() * kSectorBytes;
  s.count = pages;
  s.seed = seed;
  stimuli::SyntheticWorkload w(s);
  platform::replay_functional(drive, w, oracle, 16);
  return double(ftl.counter("flash_pages_programmed") - programmed0) /
         double(ftl.counter("host_pages_written") - host0);
}

// Preloads the steady state as the preconditioner does (baseline tokens); returns what the FTL
// says it did.
std::string preload(platform::FunctionalDrive& drive, stimuli::IntegrityOracle& oracle, std::uint64_t seed) {
  fw::SteadyStatePreload* family = drive.firmware().ftl().steady_state_preload();
  REQUIRE(family != nullptr);
  oracle.begin_preconditioning();
  const std::string what = family->preload_random_steady_state(seed, [&](Lpn lpn) { return oracle.baseline(lpn); });
  oracle.end_preconditioning();
  return what;
}

}  // namespace

TEST_CASE("greedy steady state: counts conserved, free pool at the threshold, below the FIFO bound",
          "[precondition][gc]") {
  fw::GreedyDomainSpec s{256, 64, 256 * 64 * 85 / 100, 8};
  const fw::GreedyDomainState st = fw::simulate_greedy_steady_state(s, 3);
  CHECK(st.settled);
  CHECK(st.capacities >= 3);
  std::uint64_t valid = 0;
  int host_frontiers = 0, gc_frontiers = 0;
  for (const auto& b : st.used) {
    CHECK(b.valid <= b.programmed);
    CHECK(b.programmed <= s.pages_per_block);
    host_frontiers += b.role == fw::GreedyDomainState::Block::Role::HostFrontier;
    gc_frontiers += b.role == fw::GreedyDomainState::Block::Role::GcFrontier;
    valid += b.valid;
  }
  CHECK(valid == s.valid_pages);
  CHECK(host_frontiers == 1);
  CHECK(gc_frontiers <= 1);
  CHECK(st.used.size() + st.free_blocks == s.blocks);
  CHECK(st.free_blocks == s.gc_threshold);
  // Greedy reclaims the emptiest block, so it does at least as well as FIFO reclaim of the same
  // space, whose write amplification is 1/(1-u) with u = exp(-(1-u) P/U) (P: pages in use).
  const double p_over_u = double(s.blocks - s.gc_threshold) * s.pages_per_block / double(s.valid_pages);
  const double fifo = 1.0 / (1.0 - fifo_victim_valid_share(p_over_u));
  INFO("greedy WAF " << st.write_amplification << ", FIFO " << fifo);
  CHECK(st.write_amplification > 1.5);
  CHECK(st.write_amplification <= fifo * 1.01);
}

TEST_CASE("greedy steady state: rejects a domain that cannot hold its pages", "[precondition][gc]") {
  CHECK_THROWS_AS(fw::simulate_greedy_steady_state({16, 32, 16 * 32, 2}, 1), std::invalid_argument);
  CHECK_THROWS_AS(fw::simulate_greedy_steady_state({16, 32, 100, 15}, 1), std::invalid_argument);
  // The tightest domain the page-mapping FTL accepts (spare = threshold + 2 blocks) still works.
  CHECK_THROWS_AS(fw::simulate_greedy_steady_state({64, 32, 58 * 32 + 1, 4}, 1), std::invalid_argument);
  const fw::GreedyDomainState tight = fw::simulate_greedy_steady_state({64, 32, 58 * 32, 4}, 1);
  std::uint64_t valid = 0;
  for (const auto& b : tight.used) valid += b.valid;
  CHECK(valid == 58 * 32);
}

TEST_CASE("greedy steady state predicts the page-mapping FTL's settled write amplification", "[precondition][gc]") {
  // The real FTL, sequential fill then 8 capacities of random page writes: the last 2 are settled.
  const platform::FunctionalDriveConfig c = gc_drive();
  platform::FunctionalDrive drive(c);
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), c.geometry.page_bytes);
  const std::uint64_t logical = drive.firmware().ftl().logical_pages();
  test::SequentialFill fill(drive.capacity_sectors(), 64);
  platform::replay_functional(drive, fill, oracle, 16);
  random_page_writes(drive, oracle, 6 * logical, 11);
  const double measured = random_page_writes(drive, oracle, 2 * logical, 12);
  const fw::GreedyDomainState model = fw::simulate_greedy_steady_state(plane_spec(c, logical), 5);
  INFO("FTL " << measured << ", model " << model.write_amplification);
  CHECK(model.write_amplification == Approx(measured).epsilon(0.05));
  CHECK(oracle.mismatches() == 0);
}

TEST_CASE("page-mapping preload: a consistent drive in steady state, GC from the first writes", "[precondition][gc]") {
  const platform::FunctionalDriveConfig c = gc_drive();
  platform::FunctionalDrive drive(c);
  const auto& ftl = dynamic_cast<const fw::PageMappingFtl&>(drive.firmware().ftl());
  const std::uint64_t logical = ftl.logical_pages();
  stimuli::IntegrityOracle oracle(logical, c.geometry.page_bytes);
  const std::string what = preload(drive, oracle, 9);
  INFO(what);
  REQUIRE_FALSE(what.empty());

  // Every logical page mapped to a page holding its baseline data; every valid page accounted.
  CHECK(platform::verify_drive(drive, oracle) == "");
  // Free blocks at the GC threshold on every plane, every other block written.
  for (std::uint32_t p = 0; p < c.geometry.total_planes(); ++p) CHECK(ftl.blocks().free_segments_in_group(p) == 4);

  // The next writes reclaim blocks at once, at the model's write amplification (1% chunks are
  // noisy on a drive this small: compare 30% of a capacity).
  MetricSet& m = drive.metrics().set("ftl");
  random_page_writes(drive, oracle, logical / 100, 21);
  CHECK(m.counter("erases") > 0);
  const double measured = random_page_writes(drive, oracle, logical * 3 / 10, 22);
  CHECK(oracle.mismatches() == 0);
  CHECK(platform::verify_drive(drive, oracle) == "");
  // ... at the write amplification the FTL settles at when it writes its own way there (6 more
  // capacities, then 2 measured, as in the test above). Against the FTL itself, not the model:
  // the model is 2-3% above this FTL's settled WAF (paced GC; checked within 5% above), and that
  // bias plus window noise left a model comparison at 5-6% with no room for a placement policy
  // (channel_first 4.90-5.00, adaptive 4.88-4.95 over seeds 22-26, model 5.195).
  random_page_writes(drive, oracle, 6 * logical, 23);
  const double settled = random_page_writes(drive, oracle, 2 * logical, 24);
  INFO("after preload: WAF " << measured << ", settled " << settled);
  CHECK(measured == Approx(settled).epsilon(0.04));
  CHECK(oracle.mismatches() == 0);

  // Only a fresh drive can be preloaded.
  CHECK_THROWS_AS(drive.firmware().ftl().steady_state_preload()->preload_random_steady_state(
                      1, [](Lpn) { return Token(1); }),
                  std::logic_error);
}

TEST_CASE("FIFO steady state in closed form: exact total, decaying with age, victim at u", "[precondition][gc]") {
  const fw::GreedyDomainSpec s{200, 4096, 200ull * 4096 * 85 / 100, 4};
  const fw::GreedyDomainState st = fw::fifo_steady_state(s);
  REQUIRE(st.used.size() == s.blocks - s.gc_threshold);
  std::uint64_t valid = 0;
  for (std::size_t i = 0; i < st.used.size(); ++i) {
    valid += st.used[i].valid;
    if (i > 0) CHECK(st.used[i].valid <= st.used[i - 1].valid);  // older, fewer live pages
  }
  CHECK(valid == s.valid_pages);
  const double u = fifo_victim_valid_share(double(st.used.size()) * s.pages_per_block / double(s.valid_pages));
  CHECK(double(st.used.back().valid) / s.pages_per_block == Approx(u).epsilon(0.01));
  CHECK(double(st.used.front().valid) / s.pages_per_block > 0.99);
  CHECK(st.write_amplification == Approx(1.0 / (1.0 - u)));
  CHECK(st.free_blocks == s.gc_threshold);
  // Blocks of up to 1,024 pages are simulated, larger ones laid out in closed form.
  CHECK(fw::random_write_steady_state(s, 1).used.size() == st.used.size());
}

TEST_CASE("DFTL and CAST preload: consistent drive and translation pages, GC from the first writes",
          "[precondition][gc][dftl][cast]") {
  const std::string ftl = GENERATE(as<std::string>{}, "dftl", "cast");
  const std::string segment_planes = GENERATE(as<std::string>{}, "8", "1");
  platform::FunctionalDriveConfig c = test::tiny_drive();
  c.geometry.blocks_per_plane = 64;
  c.geometry.pages_per_block = 32;
  c.geometry.page_bytes = 512;  // 128 entries per translation page: about 100 of them
  c.firmware.ftl = ftl;
  std::map<std::string, std::string> options{{"overprovisioning", "0.25"}, {"segment_planes", segment_planes}};
  if (ftl == "cast") options["current_blocks"] = "2";
  c.firmware.ftl_options = fw::FtlOptions(options);
  platform::FunctionalDrive drive(c);
  const auto& demand = dynamic_cast<const fw::DemandFtl&>(drive.firmware().ftl());
  const std::uint64_t logical = demand.logical_pages();
  stimuli::IntegrityOracle oracle(logical, c.geometry.page_bytes);
  const std::string what = preload(drive, oracle, 4);
  INFO(ftl << " segment_planes " << segment_planes << ": " << what);
  REQUIRE_FALSE(what.empty());
  // Every page and every translation page where the FTL says, holding what it should.
  CHECK(platform::verify_drive(drive, oracle) == "");
  CHECK(demand.space().free_segments() == demand.params().gc_threshold_segments);
  for (std::uint32_t vpn = 0; vpn < demand.directory().pages(); ++vpn)
    REQUIRE(demand.directory().peek_location(vpn) != fw::kNoSpn);

  MetricSet& m = drive.metrics().set("ftl");
  random_page_writes(drive, oracle, logical / 20, 31);
  CHECK(m.counter("erases") > 0);
  random_page_writes(drive, oracle, logical, 32);
  CHECK(oracle.mismatches() == 0);
  CHECK(platform::verify_drive(drive, oracle) == "");
  // After a capacity of writes the only open segments are those the FTL writes on: its current
  // data blocks and translation block (GC copies into the current data blocks by default, so a
  // preloaded GC block left open would never be written or reclaimed again).
  std::uint32_t open = 0;
  for (std::uint32_t s = 0; s < demand.space().segments(); ++s)
    open += demand.space().state(s) == fw::SegmentState::Open;
  CHECK(open <= demand.params().current_blocks + 1);
}

TEST_CASE("Steady-state preload is offered by the program-order families only", "[precondition]") {
  // Page mapping and the demand FTLs place writes in program order and preload; the hybrids
  // offer nothing, so the preconditioner writes their steady state instead.
  const std::string ftl = GENERATE(as<std::string>{}, "page_mapping", "dftl", "cast", "bast", "fast", "faster",
                                   "last", "superblock");
  platform::FunctionalDriveConfig c = test::tiny_drive();
  c.geometry.blocks_per_plane = 64;
  c.geometry.pages_per_block = 32;
  c.geometry.page_bytes = 512;
  c.firmware.ftl = ftl;
  c.firmware.ftl_options = fw::FtlOptions(std::map<std::string, std::string>{{"overprovisioning", "0.25"}});
  platform::FunctionalDrive drive(c);
  fw::SteadyStatePreload* family = drive.firmware().ftl().steady_state_preload();
  const bool program_order = ftl == "page_mapping" || ftl == "dftl" || ftl == "cast";
  INFO(ftl);
  CHECK((family != nullptr) == program_order);
  if (family) CHECK(family->pages_before_gc() > drive.firmware().ftl().logical_pages());
}
