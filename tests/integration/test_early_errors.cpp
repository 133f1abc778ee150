// Bad workloads are refused before anything is simulated: the whole workload is read through
// once (stimuli/request_admission.h) before preconditioning, which on a large drive takes minutes.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

TEST_CASE("early errors: a request beyond the drive stops the run before preconditioning", "[cli][input]") {
  TempDir dir;
  const std::string trace = dir.file("beyond.csv");
  // The default platform holds 128 GiB; the third request lies at 1 TiB.
  write_text(trace,
             "128166372000000000,host,0,Write,0,4096,100\n"
             "128166372010000000,host,0,Read,0,4096,100\n"
             "128166372020000000,host,0,Write,1099511627776,4096,100\n");
  // Preconditioning this drive to steady state by running writes takes minutes: an answer within
  // the timeout shows the check came first.
  RunReport rr = run_report({"--trace", trace, "--precondition", "fill+steady:run"}, dir, "report.json", 60);
  INFO(rr.result.describe());
  REQUIRE(rr.result.exited());
  CHECK(rr.result.exit_code == 2);
  CHECK(contains(rr.result.err, "beyond.csv:3"));
  CHECK(contains(rr.result.err, "beyond the drive"));
}

TEST_CASE("early errors: a workload with no request is refused", "[cli][input]") {
  TempDir dir;
  const std::string trace = dir.file("empty.csv");
  write_text(trace, "\n\n");
  RunReport rr = run_report({"-p", tiny_platform(), "--trace", trace}, dir);
  INFO(rr.result.describe());
  CHECK(rr.result.exit_code == 2);
  CHECK(contains(rr.result.err, "no request"));
  CHECK_FALSE(rr.has_report);
  // A time window that selects nothing empties the workload too.
  write_text(trace, "128166372000000000,host,0,Write,0,4096,100\n");
  RunReport window = run_report({"-p", tiny_platform(), "--trace", trace, "--window-start-s", "5"}, dir, "w.json");
  CHECK(window.result.exit_code == 2);
  CHECK(contains(window.result.err, "no request"));
}
