// MqsimTrace against the shared MQSim traces and hand-written malformed files. Expected figures
// were computed with awk directly from the files:
//   awk '{n++; if ($5==1) r++; s+=$4; if ($2>m) m=$2} END {print n, r, s, m}' FILE
//   tpcc-small: 6999 requests, 4381 reads, 116638 sectors, devices 0..15
//   wsrch-small: 24783 requests, 24779 reads, 746324 sectors, devices 0..5, arrivals non-decreasing
#include <catch2/catch.hpp>

#include "stimuli/mqsim_trace.h"
#include "stimuli/open_trace.h"
#include "trace_test_support.h"

using namespace ssd::stimuli;


TEST_CASE("MQSim trace reader: the shared TPC-C and WebSearch excerpts", "[stimuli][mqsim]") {
  SKIP_WITHOUT_SHARED_TRACES();
  const std::string dir = std::string(SSD_SHARED_TRACES) + "/mqsim/";
  MqsimTrace tpcc(dir + "tpcc-small.trace");
  const ssd::test::TraceTotals t = ssd::test::totals(tpcc);
  CHECK(t.requests == 6999);
  CHECK(t.reads == 4381);
  CHECK(t.sectors == 116638);
  CHECK(t.max_issuer == 15);
  CHECK(t.first.arrival_ns == 0);
  CHECK(t.first.lba == 264719034);
  CHECK(t.first.sectors == 16);
  CHECK(t.first.is_write());
  CHECK(t.last.arrival_ns == 1075002000ull - 938513000ull);
  CHECK(t.monotonic);

  auto wsrch = open_trace(dir + "wsrch-small.trace", "auto");  // detected from the content
  const ssd::test::TraceTotals w = ssd::test::totals(*wsrch);
  CHECK(w.requests == 24783);
  CHECK(w.reads == 24779);
  CHECK(w.sectors == 746324);
  CHECK(w.max_issuer == 5);
  CHECK(w.monotonic);
  CHECK(dynamic_cast<MqsimTrace&>(*wsrch).clamped_arrivals() == 0);
}

TEST_CASE("MQSim trace reader: malformed lines name the file and line", "[stimuli][mqsim]") {
  HostRequest r;
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {Case{"10 0 5 8 0\n\n20 0 5 8\n", ":3: expected 5 blank-separated fields"},
                        Case{"10 0 5 8 2\n", ":1: expected Type (field 5) 0 (write) or 1 (read)"},
                        Case{"10 0 5 0 1\n", ":1: expected SizeInSectors (field 4)"},
                        Case{"10 0 -5 8 1\n", ":1: expected StartLBA (field 3)"},
                        Case{"x 0 5 8 1\n", ":1: expected ArrivalTime (field 1)"}}) {
    const std::string path = ssd::test::write_temp_file("mqsim_bad.trace", c.text);
    MqsimTrace t(path);
    INFO(c.text);
    CHECK_THROWS_WITH(([&] { while (t.next(r)) {} })(), Catch::Contains(path + c.message));
  }
  CHECK_THROWS_WITH(MqsimTrace("/nonexistent/x.trace"), Catch::Contains("cannot open trace file"));
  const std::string odd = ssd::test::write_temp_file("odd.trace", "a,b,c\n");
  CHECK_THROWS_WITH(open_trace(odd, "auto"), Catch::Contains("cannot tell the format") && Catch::Contains(odd));
  CHECK_THROWS_WITH(open_trace(odd, "fio"), Catch::Contains("unknown trace format 'fio'"));
}
