// Host ordering (issue 13): NVMe does not order outstanding commands, so only a request that
// overlaps one in flight waits for it; the requests behind it go on. A write of page 0, a read
// of page 0 and three reads elsewhere, all at time 0 on a fresh default drive: the overlapping
// read waits for the program (tPROG 600-750 us) and is counted as held; the other three are
// served in about a read's time (tR 50 us + transfers), not behind the held one.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

TEST_CASE("host ordering: only the overlapping request waits, the ones behind it go on", "[cli][host][ordering]") {
  TempDir dir;
  const std::string trace = dir.file("t.csv");
  write_text(trace,
             "128166372000000000,host,0,Write,0,8192,100\n"
             "128166372000000000,host,0,Read,0,8192,100\n"
             "128166372000000000,host,0,Read,1048576,8192,100\n"
             "128166372000000000,host,0,Read,2097152,8192,100\n"
             "128166372000000000,host,0,Read,3145728,8192,100\n");
  const std::string report = dir.file("r.json");
  const Result r = run_ssdsim({"run", "-p", default_platform(), "--set", "firmware.write_buffer=off", "--trace", trace, "--precondition", "fill", "--no-vcd",
                               "-q", "-r", report},
                              dir);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  const json h = load_json(report)["host"];
  CHECK(h["held_for_ordering"] == 1);
  CHECK(h["reads"] == 4);
  const json& reads = h["read_latency_us"];
  // The held read: after the program.
  CHECK(reads["max"].get<double>() > 600);
  // The other three: a read's time, not the program's.
  CHECK(reads["p50"].get<double>() < 200);
}
