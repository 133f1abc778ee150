#include <catch2/catch.hpp>

#include "stimuli/repeated_workload.h"
#include "stimuli/synthetic_workload.h"

using namespace ssd::stimuli;

TEST_CASE("A repeated workload replays its passes back to back at the trace's rate", "[stimuli][repeat]") {
  SyntheticSpec spec;
  spec.pattern = SyntheticSpec::Pattern::Sequential;
  spec.count = 3;
  spec.range_bytes = 1 << 20;
  spec.interarrival_ns = 10;
  RepeatedWorkload w([&] { return std::make_unique<SyntheticWorkload>(spec); }, 3);
  std::vector<std::uint64_t> arrivals, lbas;
  HostRequest r;
  while (w.next(r)) {
    arrivals.push_back(r.arrival_ns);
    lbas.push_back(r.lba);
  }
  // Pass 1 at 0, 10, 20; the next pass starts one mean gap (20 / 3 requests = 6 ns) after the
  // last arrival, and so on; each pass repeats the same addresses.
  CHECK(arrivals == std::vector<std::uint64_t>{0, 10, 20, 26, 36, 46, 52, 62, 72});
  CHECK(lbas == std::vector<std::uint64_t>{0, 8, 16, 0, 8, 16, 0, 8, 16});
  CHECK(w.describe() == SyntheticWorkload(spec).describe() + " x3");
  CHECK_THROWS_WITH(RepeatedWorkload([&] { return std::make_unique<SyntheticWorkload>(spec); }, 0),
                    Catch::Contains("at least once"));
}
