// DiskSim, blkparse and SPC readers against the shared traces and hand-written files. Expected
// figures computed with awk directly from the files:
//   disksim/ascii.trace: awk '{n++; if ($5 % 2 == 1) r++; s+=$4; if ($2>m) m=$2}' ->
//     100000 requests, 79634 reads, 1016678 sectors, devices 0..30
//   blkparse/ycsb-ext4.txt: D events with R or W, no discard, nsect > 0, sane time ->
//     9886 requests, 9038 reads, 2537968 sectors; one more D event (the last) has a glitched
//     timestamp (1266874889 s) and is malformed
#include <catch2/catch.hpp>

#include "stimuli/blkparse_trace.h"
#include "stimuli/disksim_trace.h"
#include "stimuli/open_trace.h"
#include "stimuli/spc_trace.h"
#include "trace_test_support.h"

using namespace ssd::stimuli;

namespace {
const std::string kTraces = std::string(SSD_SHARED_TRACES) + "/";
}  // namespace

TEST_CASE("DiskSim reader: the shared ascii.trace", "[stimuli][disksim]") {
  SKIP_WITHOUT_SHARED_TRACES();
  auto w = open_trace(kTraces + "disksim/ascii.trace", "auto");  // detected: decimal ms times
  REQUIRE(w->describe().rfind("disksim:", 0) == 0);
  const ssd::test::TraceTotals t = ssd::test::totals(*w);
  CHECK(t.requests == 100000);
  CHECK(t.reads == 79634);
  CHECK(t.sectors == 1016678);
  CHECK(t.max_issuer == 30);
  CHECK(t.first.arrival_ns == 0);
  CHECK(t.first.lba == 0);
  CHECK(t.first.sectors == 5);
  CHECK_FALSE(t.first.is_write());
  CHECK(t.last.arrival_ns == 1532949045363ull - 13191135ull);  // (1532949.045363 - 13.191135) ms
  CHECK(t.monotonic);
}

TEST_CASE("blkparse reader: D events of the shared YCSB trace, a glitched time stops or is skipped",
          "[stimuli][blkparse]") {
  SKIP_WITHOUT_SHARED_TRACES();
  const std::string path = kTraces + "blkparse/ycsb-ext4.txt";
  {
    BlkparseTrace stop(path);
    CHECK_THROWS_WITH(ssd::test::totals(stop), Catch::Contains(path + ":29662: expected a time within a year"));
  }
  BlkparseTrace skip(path, MalformedLines::Skip);
  const ssd::test::TraceTotals t = ssd::test::totals(skip);
  CHECK(t.requests == 9886);
  CHECK(t.reads == 9038);
  CHECK(t.sectors == 2537968);
  CHECK(t.first.lba == 4938888);
  CHECK(t.first.sectors == 256);
  CHECK(t.first.issuer == 3645);
  CHECK(skip.skipped_lines() == 1);
  CHECK_THAT(skip.first_skipped(), Catch::Contains(":29662:"));
  CHECK(skip.ignored_lines() > 0);  // Q, I, C events
  CHECK(open_trace(path, "auto")->describe().rfind("blkparse:", 0) == 0);
}

TEST_CASE("SPC reader: fields, units and errors", "[stimuli][spc]") {
  const std::string path = ssd::test::write_temp_file("small.spc",
                                      "0,20941264,8192,W,0.551706\n"
                                      "1,100,4097,r,1.5,extra,fields\n"
                                      "\n"
                                      "0,5,512,R,1.25\n");
  auto w = open_trace(path, "auto");
  HostRequest r;
  REQUIRE(w->next(r));
  CHECK(r.is_write());
  CHECK(r.lba == 20941264);
  CHECK(r.sectors == 16);
  CHECK(r.arrival_ns == 0);
  REQUIRE(w->next(r));
  CHECK_FALSE(r.is_write());
  CHECK(r.sectors == 9);  // 4097 bytes touch 9 sectors
  CHECK(r.issuer == 1);
  CHECK(r.arrival_ns == 948294000);  // (1.5 - 0.551706) s
  REQUIRE(w->next(r));
  CHECK(r.arrival_ns == 948294000);  // 1.25 s went backwards: clamped
  CHECK_FALSE(w->next(r));

  for (const char* bad : {"0,1,512,X,0.1\n", "0,1,0,r,0.1\n", "0,1,512,r,-1\n", "0,1,512\n"}) {
    SpcTrace t(ssd::test::write_temp_file("bad.spc", bad));
    INFO(bad);
    CHECK_THROWS_WITH(ssd::test::totals(t), Catch::Contains("bad.spc:1: expected"));
  }
}

TEST_CASE("Malformed lines: stop at the first, or skip and count them", "[stimuli][disksim]") {
  const std::string path = ssd::test::write_temp_file("mixed.trace", "1.0 0 10 8 0\n2.0 0 x 8 0\n3.0 0 30 8 1\n4.0 0\n");
  DisksimTrace stop(path);
  HostRequest r;
  REQUIRE(stop.next(r));
  CHECK_THROWS_WITH(stop.next(r), Catch::Contains("mixed.trace:2: expected blkno (field 3)"));
  DisksimTrace skip(path, MalformedLines::Skip);
  const ssd::test::TraceTotals t = ssd::test::totals(skip);
  CHECK(t.requests == 2);
  CHECK(skip.skipped_lines() == 2);
  CHECK_THAT(skip.first_skipped(), Catch::Contains("mixed.trace:2:"));
}

TEST_CASE("blkparse reader: a time too large for nanoseconds is a malformed line, not a wrapped arrival",
          "[stimuli][blkparse]") {
  // 9.5e9 s x 1e9 is beyond the signed 64-bit nanoseconds llround returns (9.2e18).
  const std::string path = ssd::test::write_temp_file(
      "huge_time.txt", "  8,0    3        1     0.000000000  3645  D   W 4938888 + 256 [java]\n"
                       "  8,0    3        2 9500000000.000000000  3645  D   W 4938888 + 256 [java]\n");
  BlkparseTrace t(path);
  CHECK_THROWS_WITH(ssd::test::totals(t), Catch::Contains(":2: expected the time (field 4) in seconds"));
}

TEST_CASE("blkparse reader: flushes, preflushes, FUA writes and discards from the kernel's RWBS letters",
          "[stimuli][blkparse]") {
  // blk_fill_rwbs: [F preflush] operation [F FUA] [A] [S] [M]. A discard is a trim of its range;
  // empty non-flush events are not requests.
  const std::string path = ssd::test::write_temp_file(
      "flush.txt", "  8,0 0 1 0.001 10 D FN [jbd2]\n"            // an empty preflush: a flush
                   "  8,0 0 2 0.002 11 D WFS 800 + 8 [app]\n"     // FUA write
                   "  8,0 0 3 0.003 12 D FWFS 808 + 16 [app]\n"   // preflush, then a FUA write
                   "  8,0 0 4 0.004 13 D FWS 0 + 0 [jbd2]\n"      // preflush without data: a flush
                   "  8,0 0 5 0.005 14 D D 900 + 8 [fstrim]\n"    // discard: a trim
                   "  8,0 0 9 0.0055 14 D DS 0 + 0 [fstrim]\n"    // an empty discard: not a request
                   "  8,0 0 6 0.006 15 D F [kworker]\n"           // the flush operation
                   "  8,0 0 7 0.007 16 D RS 40 + 8 [app]\n"       // a plain read
                   "  8,0 0 8 0.008 17 D FR 48 + 8 [app]\n");     // preflush, then a read
  BlkparseTrace t(path);
  std::vector<HostRequest> got;
  HostRequest r;
  while (t.next(r)) got.push_back(r);
  REQUIRE(got.size() == 10);
  const auto is = [&](std::size_t i, ssd::HostOp op, bool fua, std::uint64_t lba, std::uint32_t sectors,
                      std::uint32_t pid) {
    INFO("request " << i);
    CHECK(got[i].op == op);
    CHECK(got[i].fua == fua);
    CHECK(got[i].lba == lba);
    CHECK(got[i].sectors == sectors);
    CHECK(got[i].issuer == pid);
  };
  using ssd::HostOp;
  is(0, HostOp::Flush, false, 0, 0, 10);
  is(1, HostOp::Write, true, 800, 8, 11);
  is(2, HostOp::Flush, false, 0, 0, 12);
  is(3, HostOp::Write, true, 808, 16, 12);
  CHECK(got[2].arrival_ns == got[3].arrival_ns);
  is(4, HostOp::Flush, false, 0, 0, 13);
  is(5, HostOp::Trim, false, 900, 8, 14);
  is(6, HostOp::Flush, false, 0, 0, 15);
  is(7, HostOp::Read, false, 40, 8, 16);
  is(8, HostOp::Flush, false, 0, 0, 17);
  is(9, HostOp::Read, false, 48, 8, 17);
  CHECK(t.ignored_lines() == 1);
  // Sorted by time, a line's flush still goes before its request.
  auto sorted = open_trace(path, "blkparse", MalformedLines::Stop, TimeOrder::Sort);
  std::vector<HostRequest> in_order;
  while (sorted->next(r)) in_order.push_back(r);
  REQUIRE(in_order.size() == 10);
  for (std::size_t i = 0; i < 10; ++i) CHECK(in_order[i].op == got[i].op);
  CHECK(in_order[5].sectors == 8);  // the trim keeps its range through the sort
  CHECK(in_order[3].fua);
}

TEST_CASE("blkparse reader: a preflushed request is checked like any other", "[stimuli][blkparse]") {
  // The flush that goes first must not let its request skip the readers' address check.
  const std::string path = ssd::test::write_temp_file(
      "preflush_wrap.txt", "  8,0 0 1 0.001 10 D FWS 18446744073709551615 + 8 [app]\n");
  BlkparseTrace t(path);
  CHECK_THROWS_WITH(ssd::test::totals(t), Catch::Contains(":1: expected a request that ends below sector 2^64"));
}
