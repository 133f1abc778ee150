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
  // dftl-abl: DFTL with CAST's allocation (several current blocks, ABL), the CAST reproduction's ablation.
  const std::string variant = GENERATE(as<std::string>{}, "dftl", "cast", "dftl-abl");
  const std::string ftl = variant == "dftl-abl" ? "dftl" : variant;
  const std::string segment_planes = GENERATE(as<std::string>{}, "8", "2", "1");
  const std::uint64_t seed = GENERATE(1, 2);
  std::map<std::string, std::string> options{{"overprovisioning", variant != "dftl" ? "0.4" : "0.35"},
                                             {"segment_planes", segment_planes},
                                             {"cmt_bytes", "256"},  // 32 DFTL entries, 28 CAST runs
                                             {"gc_policy", seed == 1 ? "greedy" : "cost_benefit"},
                                             {"gc_destination", seed == 1 ? "current" : "own"}};
  if (ftl == "cast") options["current_blocks"] = "3";
  if (variant == "dftl-abl") options["current_blocks"] = "3";
  platform::FunctionalDrive drive(demand_drive(ftl, options, seed));
  const Lpn logical_pages = drive.firmware().ftl().logical_pages();
  stimuli::IntegrityOracle oracle(logical_pages, 512);

  test::SequentialFill fill(drive.capacity_sectors(), 8);
  platform::replay_functional(drive, fill, oracle, 8);
  test::RandomMixed mixed(drive.capacity_sectors(), 5 * logical_pages, 0.3, 12, seed);
  platform::replay_functional(drive, mixed, oracle, 8);

  auto& m = drive.metrics().set("ftl");
  INFO(variant << " segment_planes " << segment_planes << " seed " << seed << ": " << oracle.first_mismatch());
  CHECK(oracle.mismatches() == 0);
  CHECK(oracle.pages_checked() > logical_pages);
  CHECK(platform::verify_drive(drive, oracle) == "");
  CHECK(m.counter("cmt_dirty_evictions") > 1000);
  // Evictions write back at once, or (at the GC reserve) through GC's next write-backs.
  CHECK(m.counter("translation_writes_host") + m.counter("deferred_write_backs") > 1000);
  CHECK(m.counter("translation_reads_host") > 1000);
  CHECK(m.counter("gc_runs_data") > 10);
  CHECK(m.counter("gc_runs_translation") > 0);
  CHECK(m.counter("gc_copies_data") > 0);
  CHECK(m.counter("flash_pages_programmed") == drive.array().pages_programmed());
  CHECK(m.counter("erases") == drive.array().blocks_erased());
}

namespace {

// Replays the given requests one at a time (queue depth 1), checked by the oracle.
struct Requests : stimuli::Workload {
  std::vector<stimuli::HostRequest> list;
  std::size_t at = 0;
  bool next(stimuli::HostRequest& r) override {
    if (at == list.size()) return false;
    r = list[at++];
    return true;
  }
  std::string describe() const override { return "request list"; }
};
stimuli::HostRequest page_request(bool write, Lpn first, std::uint32_t pages, std::uint32_t issuer = 0) {
  return stimuli::HostRequest{0, stimuli::HostRequest::read_or_write(write), false, std::uint64_t(first), pages, issuer};  // 512-byte pages: 1 sector
}
void replay(platform::FunctionalDrive& drive, stimuli::IntegrityOracle& oracle, std::vector<stimuli::HostRequest> list) {
  Requests w;
  w.list = std::move(list);
  platform::replay_functional(drive, w, oracle, 1);
}
fw::DemandFtl& demand(platform::FunctionalDrive& drive) { return dynamic_cast<fw::DemandFtl&>(drive.firmware().ftl()); }

}  // namespace

TEST_CASE("DFTL: lazy and batch updates write a translation page only when a dirty entry leaves",
          "[ftl][dftl]") {
  // 32 bytes of CMT = 4 entries of 8 bytes; translation pages hold 128 entries (512-byte pages).
  platform::FunctionalDrive drive(demand_drive("dftl", {{"cmt_bytes", "32"}, {"overprovisioning", "0.3"}}));
  stimuli::IntegrityOracle oracle(drive.firmware().ftl().logical_pages(), 512);
  auto& m = drive.metrics().set("ftl");
  REQUIRE(demand(drive).cache().capacity() == 4);

  // Pages 0-3 (translation page 0): four dirty entries; nothing on flash yet, so no
  // translation-page I/O at all (the GTD says translation page 0 was never written).
  replay(drive, oracle, {page_request(true, 0, 1), page_request(true, 1, 1), page_request(true, 2, 1),
                         page_request(true, 3, 1)});
  CHECK(m.counter("cmt_write_misses") == 4);
  CHECK(m.counter("translation_reads_host") == 0);
  CHECK(m.counter("translation_writes_host") == 0);

  // Page 128 (translation page 1) evicts page 0, dirty: one write of translation page 0 that
  // carries all four dirty entries (batch update), no merge read (no old version).
  replay(drive, oracle, {page_request(true, 128, 1)});
  CHECK(m.counter("cmt_dirty_evictions") == 1);
  CHECK(m.counter("translation_writes_host") == 1);
  CHECK(m.counter("translation_reads_host") == 0);

  // Pages 129 and 130 evict pages 1 and 2, which the batch made clean: no more writes.
  replay(drive, oracle, {page_request(true, 129, 1), page_request(true, 130, 1)});
  CHECK(m.counter("cmt_evictions") == 3);
  CHECK(m.counter("translation_writes_host") == 1);

  // Reading page 0 misses: one translation-page read, then the data read. Again: a hit.
  const std::uint64_t data_reads_before = drive.metrics().set("firmware.ops").counter("reads_issued");
  replay(drive, oracle, {page_request(false, 0, 1)});
  CHECK(m.counter("cmt_read_misses") == 1);
  CHECK(m.counter("translation_reads_host") == 1);
  CHECK(drive.metrics().set("firmware.ops").counter("reads_issued") == data_reads_before + 2);
  replay(drive, oracle, {page_request(false, 0, 1)});
  CHECK(m.counter("cmt_read_hits") == 1);
  CHECK(m.counter("translation_reads_host") == 1);
  CHECK(oracle.mismatches() == 0);
  CHECK(platform::verify_drive(drive, oracle) == "");
}

TEST_CASE("DFTL vs CAST: a 16-page write is 16 CMT entries but one CAMT run", "[ftl][dftl][cast]") {
  // DFTL, 4 entries: the 16 entries stream through the CMT in LRU order. Evicting page 0 writes
  // translation page 0 with pages 0-4 (batch); pages 1-4 then leave clean; evicting page 5 (dirty
  // since) writes 5-9 after reading the old version; page 10 likewise with 10-14: 3 writes,
  // 2 merge reads. Write misses after the first write-back load translation page 0: page 5's
  // read is shared by 6-9, page 10's (the page was rewritten meanwhile) by 11-14, page 15 reads
  // again: 3 loads, 8 shared.
  platform::FunctionalDrive dftl(demand_drive("dftl", {{"cmt_bytes", "32"}, {"overprovisioning", "0.3"}}));
  stimuli::IntegrityOracle oracle(dftl.firmware().ftl().logical_pages(), 512);
  replay(dftl, oracle, {page_request(true, 0, 16)});
  auto& d = dftl.metrics().set("ftl");
  CHECK(d.counter("cmt_evictions") == 12);
  CHECK(d.counter("cmt_dirty_evictions") == 3);
  CHECK(d.counter("translation_writes_host") == 3);
  CHECK(d.counter("translation_reads_host") == 2 + 3);
  CHECK(d.counter("translation_reads_shared") == 8);
  CHECK(demand(dftl).cache().entries() == 4);

  // CAST, 36 bytes = 4 runs of 72 bits: the 16 pages went to consecutive segment pages of one
  // current block, so they are one run; reading them back is 16 hits and no flash lookups.
  platform::FunctionalDrive cast(demand_drive("cast", {{"cmt_bytes", "36"}, {"overprovisioning", "0.45"}}));
  stimuli::IntegrityOracle cast_oracle(cast.firmware().ftl().logical_pages(), 512);
  replay(cast, cast_oracle, {page_request(true, 0, 16), page_request(false, 0, 16)});
  auto& c = cast.metrics().set("ftl");
  CHECK(demand(cast).cache().capacity() == 4);
  CHECK(demand(cast).cache().entries() == 1);
  CHECK(demand(cast).cache().covered_pages() == 16);
  CHECK(c.counter("cmt_read_hits") == 16);
  CHECK(c.counter("cmt_evictions") == 0);
  CHECK(c.counter("translation_reads_host") + c.counter("translation_writes_host") == 0);
  CHECK(cast_oracle.mismatches() == 0);

  // With 4-bit run lengths a run holds at most 16 pages: 20 pages are two runs.
  platform::FunctionalDrive short_runs(
      demand_drive("cast", {{"cmt_bytes", "36"}, {"overprovisioning", "0.45"}, {"run_length_bits", "4"}}));
  stimuli::IntegrityOracle short_oracle(short_runs.firmware().ftl().logical_pages(), 512);
  replay(short_runs, short_oracle, {page_request(true, 0, 20)});
  CHECK(demand(short_runs).cache().entries() == 2);
  CHECK(demand(short_runs).cache().covered_pages() == 20);
}

TEST_CASE("CAST placement: address-based and issuer-based current blocks", "[ftl][cast]") {
  auto segment_of = [](platform::FunctionalDrive& drive, Lpn lpn) {
    const auto& space = demand(drive).space();
    return space.segment_of(space.to_spn(drive.firmware().ftl().locate(lpn)));
  };
  // ABL, 2 blocks, an unused block counts as 100 pages away: requests near each other share a
  // block, a request more than 100 pages from every recorded start opens the other one.
  platform::FunctionalDrive abl(demand_drive(
      "cast", {{"current_blocks", "2"}, {"abl_new_block_distance", "100"}, {"overprovisioning", "0.35"}}));
  stimuli::IntegrityOracle abl_oracle(abl.firmware().ftl().logical_pages(), 512);
  replay(abl, abl_oracle,
         {page_request(true, 0, 2), page_request(true, 1000, 2), page_request(true, 50, 2), page_request(true, 1020, 2)});
  CHECK(segment_of(abl, 0) == segment_of(abl, 1));    // the pages of one request
  CHECK(segment_of(abl, 0) == segment_of(abl, 50));   // 50 pages from 0
  CHECK(segment_of(abl, 1000) == segment_of(abl, 1020));
  CHECK(segment_of(abl, 0) != segment_of(abl, 1000));  // 1000 pages from 0: the unused block

  // IBL: each issuer keeps its block; with one current block everything shares it (DFTL).
  for (const std::string blocks : {"2", "1"}) {
    platform::FunctionalDrive ibl(demand_drive(
        "cast", {{"current_blocks", blocks}, {"placement", "ibl"}, {"overprovisioning", "0.35"}}));
    stimuli::IntegrityOracle ibl_oracle(ibl.firmware().ftl().logical_pages(), 512);
    replay(ibl, ibl_oracle,
           {page_request(true, 0, 1, 7), page_request(true, 1, 1, 9), page_request(true, 2, 1, 7),
            page_request(true, 3, 1, 9)});
    INFO("current_blocks " << blocks);
    CHECK(segment_of(ibl, 0) == segment_of(ibl, 2));
    CHECK(segment_of(ibl, 1) == segment_of(ibl, 3));
    CHECK((segment_of(ibl, 0) != segment_of(ibl, 1)) == (blocks == "2"));
  }
}

TEST_CASE("DFTL and CAST reject bad parameters by name", "[ftl][dftl][cast]") {
  auto fails = [](const std::string& ftl, std::map<std::string, std::string> o, const std::string& text) {
    INFO(ftl << ": " << text);
    o.emplace("overprovisioning", "0.45");
    CHECK_THROWS_WITH(platform::FunctionalDrive(demand_drive(ftl, std::move(o))), Catch::Contains(text));
  };
  fails("dftl", {{"placement", "abl"}}, "unknown parameter(s) for FTL 'dftl': ftl.placement");  // one block: no choice
  fails("dftl", {{"segment_planes", "3"}}, "ftl.segment_planes = 3 must divide the 8 planes");
  fails("dftl", {{"cmt_bytes", "16"}}, "holds 2 entries; at least 4 are needed");
  fails("dftl", {{"cmt_bytes", "100000000"}}, "does not fit in the controller's SRAM");
  fails("cast", {{"run_length_bits", "5"}}, "ftl.run_length_bits");
  fails("cast", {{"placement", "lru"}}, "ftl.placement");
  fails("cast", {{"overprovisioning", "0.05"}}, "ftl.overprovisioning = 0.05 leaves");
}

TEST_CASE("DFTL and CAST under reserve pressure: read misses never take the blocks GC needs",
          "[ftl][dftl][cast][oracle]") {
  // The ADAPT paper's configuration in small: 7% over-provisioning, a mapping cache of a few
  // entries, mostly reads of single random pages over the whole drive. Every read miss loads a
  // translation page and evicts a dirty entry, whose write-back once took a translation page
  // from the blocks only GC may use while host writes waited at the reserve; GC then had no block
  // for its copies ("GC has no free block to relocate into", a TPC-C stand-in on the chip).
  const std::string ftl = GENERATE(as<std::string>{}, "dftl", "cast");
  const std::string pacing = GENERATE(as<std::string>{}, "paced", "threshold");
  const std::uint64_t seed = GENERATE(1, 2, 3);
  INFO(ftl << " gc_pacing " << pacing << " seed " << seed);
  platform::FunctionalDrive drive(demand_drive(
      ftl, {{"overprovisioning", "0.07"}, {"cmt_bytes", "64"}, {"gc_pacing", pacing}, {"segment_planes", "1"}}, seed));
  const Lpn logical_pages = drive.firmware().ftl().logical_pages();
  stimuli::IntegrityOracle oracle(logical_pages, 512);
  test::SequentialFill fill(drive.capacity_sectors(), 8);
  platform::replay_functional(drive, fill, oracle, 8);
  test::RandomMixed mixed(drive.capacity_sectors(), 12 * logical_pages, 0.6, 1, seed);
  platform::replay_functional(drive, mixed, oracle, 16);
  test::check_drive(drive, oracle);
  CHECK(oracle.pages_checked() > logical_pages);
}

TEST_CASE("DFTL and CAST move translation pages out of failed blocks and keep every mapping",
          "[ftl][dftl][cast][oracle][bad_blocks]") {
  // As above (constant translation traffic), with every 97th program and 53rd erase failing: the
  // failed translation pages are written again by the FTL itself (Ftl::relocate_metadata), and a
  // failed block's other translation pages moved with its data.
  const std::string ftl = GENERATE(as<std::string>{}, "dftl", "cast");
  platform::FunctionalDriveConfig c =
      demand_drive(ftl, {{"overprovisioning", "0.4"}, {"segment_planes", "2"}, {"cmt_bytes", "256"}}, 1);
  c.failures.fail_program = 97;
  c.failures.fail_erase = 53;
  c.firmware.bad_blocks = true;
  platform::FunctionalDrive drive(c);
  const Lpn logical_pages = drive.firmware().ftl().logical_pages();
  stimuli::IntegrityOracle oracle(logical_pages, 512);
  test::SequentialFill fill(drive.capacity_sectors(), 8);
  platform::replay_functional(drive, fill, oracle, 8);
  test::RandomMixed mixed(drive.capacity_sectors(), 3 * logical_pages, 0.3, 12, 1);
  platform::replay_functional(drive, mixed, oracle, 8);

  auto& m = drive.metrics().set("ftl");
  INFO(ftl << ": " << oracle.first_mismatch());
  CHECK(oracle.mismatches() == 0);
  CHECK(platform::verify_drive(drive, oracle) == "");  // nothing valid left in a failed block
  CHECK(m.counter("program_failures") == drive.array().pages_programmed() / 97);
  CHECK(m.counter("erase_failures") == drive.array().blocks_erased() / 53);
  // (CAST's compact runs write far fewer translation pages: none of its failures hits one here.)
  if (ftl == "dftl") CHECK(m.counter("failed_metadata_rewrites") + m.counter("bad_block_metadata_writes") > 0);
  CHECK(m.counter("failed_page_rewrites") > 0);
}
