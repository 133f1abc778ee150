// The product stands alone and writes where it is run: defaults are resolved at run time (the
// shipped platform and bundled trace from the data folder; outputs relative to the current
// directory), and a run never writes into the source tree unless told to.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "cli_support.h"

using namespace ssd::cli;

TEST_CASE("standalone: with no arguments, the bundled trace on the shipped platform, outputs under ./results",
          "[cli][standalone]") {
  TempDir dir;
  const fs::path vcd_in_source = source_path("waves/run.vcd");
  std::error_code ec;
  const bool existed = fs::exists(vcd_in_source, ec);
  const auto before = existed ? fs::last_write_time(vcd_in_source, ec) : fs::file_time_type{};
  // A small drive keeps this quick: only the platform is given.
  const Result r = run_ssdsim({"run", "-p", tiny_platform(), "--fold", "-q"}, dir);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  CHECK(fs::exists(fs::path(dir.file("results")) / "report.json"));
  CHECK(fs::exists(fs::path(dir.file("results")) / "run.vcd"));
  const json report = load_json(fs::path(dir.file("results")) / "report.json");
  CHECK(contains(report["workload"]["description"].get<std::string>(), "workloads/traces/hm_0.csv"));
  CHECK(report["host"]["requests"].get<std::uint64_t>() == 7016);
  // Nothing written into the source checkout.
  CHECK(fs::exists(vcd_in_source, ec) == existed);
  if (existed) CHECK(fs::last_write_time(vcd_in_source, ec) == before);
}

TEST_CASE("standalone: --out names the folder of the default outputs", "[cli][standalone]") {
  TempDir dir;
  const Result r = run_ssdsim({"run", "-p", tiny_platform(), "--synthetic", "random", "--count", "100",
                               "--precondition", "none", "--out", "here/there", "-q"},
                              dir);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  CHECK(fs::exists(fs::path(dir.file("here")) / "there" / "report.json"));
  CHECK(fs::exists(fs::path(dir.file("here")) / "there" / "run.vcd"));
}

TEST_CASE("standalone: the data folder is found at run time (SSDSIM_DATA_DIR)", "[cli][standalone]") {
  TempDir dir;
  // A data folder of our own: its default platform is tiny, its bundled trace three requests.
  const fs::path data = dir.file("data");
  fs::create_directories(data / "platforms");
  fs::create_directories(data / "workloads" / "traces");
  fs::copy_file(tiny_platform(), data / "platforms" / "default.yaml");
  write_text(data / "workloads" / "traces" / "hm_0.csv",
             "128166372000000000,host,0,Write,0,4096,100\n"
             "128166372000100000,host,0,Read,0,4096,100\n"
             "128166372000200000,host,0,Write,4096,4096,100\n");
  ::setenv("SSDSIM_DATA_DIR", data.c_str(), 1);
  const Result r = run_ssdsim({"run", "-q", "--no-vcd"}, dir);
  ::unsetenv("SSDSIM_DATA_DIR");
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  const json report = load_json(fs::path(dir.file("results")) / "report.json");
  CHECK(report["platform"]["name"] == "tiny");
  CHECK(report["host"]["requests"].get<std::uint64_t>() == 3);
}
