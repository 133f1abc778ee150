// A key that is not a plain name ("? [a, b]: 1", "? {x: 1}: 2": valid YAML) in a job or platform
// file is bad input naming the file and line; it used to escape as a yaml-cpp bad conversion
// (exit 3, "simulation stopped"). The fuzz input is fuzz/regressions/job_file/map-as-key.yaml.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

TEST_CASE("config files: a list or map as a key is bad input naming file and line", "[cli][config]") {
  TempDir dir;
  SECTION("job file") {
    const std::string jobs = dir.file("jobs.yaml");
    write_text(jobs, "jobs:\n  - name: a\n    count: 10\n    ? [block_size]: 4096\n");
    const Result r = run_ssdsim({"run", "-p", tiny_platform(), "--jobs", jobs, "--no-vcd", "-r", dir.file("r.json")}, dir);
    INFO(r.describe());
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output(), jobs + ":4"));
    CHECK(contains(r.output(), "plain name as a key"));
  }
  SECTION("platform file") {
    const std::string platform = dir.file("p.yaml");
    write_text(platform, "geometry:\n  channels: 2\n  ? {ways: 2}: 1\n");
    const Result r = run_ssdsim({"validate", platform}, dir);
    INFO(r.describe());
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output(), platform + ":3"));
    CHECK(contains(r.output(), "plain name as a key"));
  }
}
