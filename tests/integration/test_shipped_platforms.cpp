// The platform files the project ships: each one validates with every FTL at its defaults, and
// platform files live in platforms/ only (issue 12: bench/ once held four of them).
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <sstream>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

std::vector<fs::path> yaml_files_under(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(folder))
    if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension() == ".yml")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("every shipped platform validates with every FTL", "[cli][config]") {
  TempDir dir;
  const std::vector<fs::path> platforms = yaml_files_under(source_path("platforms"));
  REQUIRE(platforms.size() >= 6);
  const std::vector<std::string> ftls = ftl_names(dir);
  REQUIRE(ftls.size() >= 8);
  for (const fs::path& p : platforms) {
    for (const std::string& ftl : ftls) {
      const Result r = run_ssdsim({"validate", p.string(), "--set", "ftl.name=" + ftl}, dir);
      INFO(r.describe());
      CHECK(r.exit_code == 0);
      CHECK(contains(r.out, "valid platform"));
      CHECK(!contains(r.out, "warning"));  // defaults are a sensible design on every platform
    }
  }
}

TEST_CASE("a hybrid block whose merges copy thousands of pages draws a warning naming the parameter",
          "[cli][config][hybrid]") {
  // default.yaml: 64 planes of 256-page blocks. Striped over all of them, a block is 16,384 pages.
  TempDir dir;
  const std::string platform = default_platform();
  for (const std::string ftl : {"bast", "last", "superblock"}) {
    const Result r = run_ssdsim({"validate", platform, "--set", "ftl.name=" + ftl, "--set", "ftl.segment_planes=64"}, dir);
    INFO(r.describe());
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "warning: " + platform + ": ftl.segment_planes = 64 makes every block 16384 pages"));
    const Result fine = run_ssdsim({"validate", platform, "--set", "ftl.name=" + ftl, "--set", "ftl.segment_planes=8"}, dir);
    CHECK(!contains(fine.out, "warning"));
  }
}

TEST_CASE("platform files live in platforms/, not among the benchmarks", "[cli][config]") {
  // bench/ holds scripts, sweep specs, the job files a spec runs, and results; a platform a
  // benchmark needs is shipped in platforms/. A sweep spec names its platform file; neither it
  // nor a job file defines platform sections.
  const std::regex platform_section(R"((^|\n)(geometry|nand|channel|core|host|dram|sram):)");
  const std::regex job_file(R"((^|\n)jobs:)");
  for (const fs::path& f : yaml_files_under(source_path("bench"))) {
    INFO(f.string());
    const std::string text = read_text(f);
    CHECK_FALSE(std::regex_search(text, platform_section));
    if (!std::regex_search(text, job_file)) CHECK_THAT(text, Catch::Contains("\nplatform: platforms/"));
  }
}

TEST_CASE("hybrid defaults: block-associative logs merge single blocks, shared logs stripe over the channels",
          "[cli][config][hybrid]") {
  // BAST binds every update to its logical block's log block, so on a full drive each scattered
  // page write that finds no log block of its own costs a full merge: about pages_per_block
  // programs per host page in closed form (the new page, logged then merged, plus the N - 1 it
  // joins). With the per-plane default that is N = 32 on tiny.yaml; a block striped over the
  // channels would double it. FAST, FASTer and LAST write every random update into one shared log
  // block at a time, which stripes over the channels so the log takes writes in parallel.
  TempDir dir;
  // Write-through, so that every host page reaches the FTL (the closed form is the FTL's).
  const std::vector<std::string> random_writes = {"-p", tiny_platform(), "--set", "firmware.write_buffer=off",
                                                  "--synthetic", "random", "--read-fraction", "0", "--request-bytes",
                                                  "4096", "--count", "3000"};
  auto run = [&](const std::string& ftl) {
    std::vector<std::string> args = random_writes;
    args.insert(args.end(), {"--ftl", ftl});
    return successful_run(args, dir, ftl + ".json");
  };
  const json bast = run("bast");
  const Geometry g = geometry_of(bast);
  CHECK(effective_number(bast, "ftl.segment_planes") == 1);
  const double waf = bast.at("ftl_metrics").at("waf").get<double>();
  CHECK(waf >= 0.8 * g.pages_per_block);
  CHECK(waf <= 1.1 * g.pages_per_block);
  CHECK(effective_number(run("superblock"), "ftl.segment_planes") == 1);
  // MCSplit and SubGroup are MNK's baselines: their blocks stripe as MNK's do (like for like).
  for (const std::string ftl : {"fast", "faster", "last", "adapt", "waftl", "mnk", "mcsplit", "subgroup"}) {
    const json r = run(ftl);
    INFO(ftl);
    CHECK(effective_number(r, "ftl.segment_planes") == g.channels);
  }
}
