// The platform files the project ships: each one validates with every FTL at its defaults, and
// platform files live in platforms/ only (issue 12: bench/ once held four of them).
#include <catch2/catch.hpp>

#include <algorithm>
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

std::vector<std::string> ftl_names(const TempDir& dir) {
  const Result r = run_ssdsim({"ftls"}, dir);
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> names;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line[0] != ' ') names.push_back(line.substr(0, line.find(' ')));
  return names;
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
  // bench/ holds scripts and results; a platform a benchmark needs is shipped in platforms/.
  for (const fs::path& f : yaml_files_under(source_path("bench"))) {
    INFO(f.string());
    CHECK(false);
  }
}
