#include <catch2/catch.hpp>

#include "stimuli/mqsim_trace.h"
#include "stimuli/msr_trace.h"
#include "stimuli/trace_selection.h"
#include "trace_test_support.h"

using namespace ssd::stimuli;

namespace {
const std::string kTraces = std::string(SSD_SHARED_TRACES) + "/";
}

TEST_CASE("Trace selection: one device, devices side by side, a time window", "[stimuli][selection]") {
  SKIP_WITHOUT_SHARED_TRACES();
  // awk '$2==4' tpcc-small.trace | wc -l -> 453
  TraceSelectionSpec one;
  one.device = 4;
  TraceSelection device4(std::make_unique<MqsimTrace>(kTraces + "mqsim/tpcc-small.trace"), one);
  const auto t = ssd::test::totals(device4);
  CHECK(t.requests == 453);
  CHECK(t.max_issuer == 4);
  CHECK(device4.left_out() == 6999 - 453);

  // Merged with a per-device offset: device d's addresses move up by d x offset.
  TraceSelectionSpec merged;
  merged.device_offset_sectors = 1000;
  TraceSelection side_by_side(std::make_unique<MqsimTrace>(kTraces + "mqsim/tpcc-small.trace"), merged);
  MqsimTrace plain(kTraces + "mqsim/tpcc-small.trace");
  HostRequest a, b;
  for (int i = 0; i < 100; ++i) {
    REQUIRE(side_by_side.next(a));
    REQUIRE(plain.next(b));
    CHECK(a.lba == b.lba + 1000 * std::uint64_t(b.issuer));
  }

  // hm_0 between 10 s and 20 s of trace time: 45 requests (python over the CSV), arrivals from 0.
  TraceSelectionSpec window;
  window.start_ns = 10'000'000'000ull;
  window.end_ns = 20'000'000'000ull;
  TraceSelection part(std::make_unique<MsrTrace>(kTraces + "msr/hm_0.csv"), window);
  const auto w = ssd::test::totals(part);
  CHECK(w.requests == 45);
  CHECK(w.last.arrival_ns < 10'000'000'000ull);
  CHECK(w.monotonic);

  window.end_ns = window.start_ns;
  CHECK_THROWS_WITH(TraceSelection(std::make_unique<MsrTrace>(kTraces + "msr/hm_0.csv"), window),
                    Catch::Contains("ends") && Catch::Contains("before it starts"));
}
