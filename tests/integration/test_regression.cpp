// Regression: a small fixed scenario on the tiny platform whose complete report (minus the fields
// that vary between runs and machines, see volatile_report_fields()) must equal the golden file
// tests/regression/tiny_random.json. Any change in the model's results shows up here; when the
// change is intended, regenerate the golden with tools/update-golden.sh and explain it in the
// commit. Also: the same scenario run twice gives identical reports (determinism).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

// The scenario: 3000 random 4 KiB requests, half reads, at QD 8 on the tiny drive after a
// sequential fill and half a capacity of random page writes (so the drive is in GC steady state
// and the measured part runs garbage collection). tools/update-golden.sh regenerates the golden
// file through this very test (with SSD_UPDATE_GOLDEN=1), so the command and the filtering
// cannot drift apart.
// One golden file per FTL: page mapping (tiny_random.json), DFTL and CAST (with a 16 KiB
// mapping cache, so evictions, translation-page I/O and translation GC are in the report).
std::vector<std::string> scenario_args(const std::string& ftl = "page_mapping") {
  std::vector<std::string> args{"-p",      tiny_platform(), "--synthetic", "random", "--read-fraction", "0.5",
                                "--request-bytes", "4096", "--count", "3000", "--seed", "7", "--qd", "8",
                                "--precondition", "fill+random:0.5"};
  if (ftl != "page_mapping")
    for (const std::string& a : {std::string("--set"), "ftl.name=" + ftl, std::string("--set"),
                                 std::string("ftl.cmt_bytes=16384")})
      args.push_back(a);
  return args;
}

std::string golden_relative(const std::string& ftl) {
  return "tests/regression/tiny_random" + (ftl == "page_mapping" ? std::string() : "_" + ftl) + ".json";
}

// Floating-point fields may differ by this much (relative) from the golden: last-bit differences
// between compilers and math libraries, nothing a model change could hide behind.
constexpr double kGoldenRelTol = 1e-9;

json run_scenario(const TempDir& dir, const std::string& ftl = "page_mapping") {
  RunReport rr = run_report(scenario_args(ftl), dir);
  INFO(rr.result.describe());
  REQUIRE(rr.result.exited());
  REQUIRE(rr.result.exit_code == 0);
  REQUIRE(rr.has_report);
  return filter_report(rr.report, dir.path().string());
}

std::string first_difference_message(const std::vector<std::string>& diffs, const std::string& what) {
  std::ostringstream s;
  s << what << ": " << diffs.size() << (diffs.size() >= 20 ? "+" : "") << " difference(s); first at\n  " << diffs[0]
    << "\n";
  if (diffs.size() > 1) {
    s << "further differences:\n";
    for (std::size_t i = 1; i < diffs.size(); ++i) s << "  " << diffs[i] << "\n";
  }
  return s.str();
}

void check_golden(const std::string& ftl) {
  TempDir dir;
  const json actual = run_scenario(dir, ftl);
  const std::string golden_path = source_path(golden_relative(ftl));
  if (const char* update = std::getenv("SSD_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    write_text(golden_path, actual.dump(2) + "\n");
    std::cout << "regression: wrote " << golden_path << "\n";
    SUCCEED("golden file rewritten");
    return;
  }

  INFO("golden file: " << golden_path);
  REQUIRE(fs::exists(golden_path));
  const json golden = load_json(golden_path);
  const std::vector<std::string> diffs = json_differences(golden, actual, kGoldenRelTol);
  if (!diffs.empty()) {
    FAIL(first_difference_message(diffs, "report differs from the golden file (expected = golden)") +
         "If the change is intended, run tools/update-golden.sh and explain the change in the commit.");
  }
  // The filter did its job: nothing machine specific is left in what is compared.
  const std::string text = actual.dump();
  CHECK_FALSE(contains(text, source_dir()));
  CHECK_FALSE(contains(text, dir.path().string()));
}

}  // namespace

TEST_CASE("regression: tiny random matches the golden report (page_mapping)", "[cli][regression]") {
  check_golden("page_mapping");
}
TEST_CASE("regression: tiny random matches the golden report (dftl)", "[cli][regression]") { check_golden("dftl"); }
TEST_CASE("regression: tiny random matches the golden report (cast)", "[cli][regression]") { check_golden("cast"); }

TEST_CASE("regression: the scenario is deterministic", "[cli][regression]") {
  for (const std::string ftl : {"page_mapping", "dftl", "cast"}) {
    INFO("FTL " << ftl);
    TempDir a, b;
    const json first = run_scenario(a, ftl);
    const json second = run_scenario(b, ftl);
    const std::vector<std::string> diffs = json_differences(first, second, 0.0);
    if (!diffs.empty()) FAIL(first_difference_message(diffs, "two runs of the same scenario differ (expected = first)"));
    // The comparison is not vacuous.
    CHECK(first.at("host").at("requests") == 3000);
    CHECK(first.at("integrity").at("mismatches") == 0);
    CHECK(first.at("ftl_metrics").at("gc_runs").get<std::uint64_t>() > 0);  // the scenario covers GC
  }
}

TEST_CASE("regression: the report comparison finds and locates differences", "[cli][regression]") {
  // The checker itself: a changed value deep in the report is reported with its JSON pointer.
  const json golden = json::parse(R"({"a": {"b": [1, 2.5, "x"], "c": true}, "d": 3})");
  CHECK(json_differences(golden, golden).empty());
  json changed = golden;
  changed["a"]["b"][1] = 2.5000001;
  auto diffs = json_differences(golden, changed, 1e-9);
  REQUIRE(diffs.size() == 1);
  CHECK(diffs[0].rfind("/a/b/1: expected 2.5, got 2.5000001", 0) == 0);
  changed = golden;
  changed["a"]["b"][1] = 2.5 * (1 + 1e-12);  // within the tolerance
  CHECK(json_differences(golden, changed, 1e-9).empty());
  changed = golden;
  changed["d"] = 4;
  diffs = json_differences(golden, changed, 1e-9);
  REQUIRE(diffs.size() == 1);
  CHECK(diffs[0] == "/d: expected 3, got 4");
  changed = golden;
  changed["a"].erase("c");
  changed["e"] = 1;
  diffs = json_differences(golden, changed, 1e-9);
  REQUIRE(diffs.size() == 2);
  CHECK(diffs[0].rfind("/a/c: expected true, got nothing", 0) == 0);
  CHECK(diffs[1].rfind("/e: expected nothing, got 1", 0) == 0);
  // The filter removes the volatile fields and only those.
  json report = json::parse(R"({"simulation": {"wall_seconds": 1.5, "delta_cycles": 7, "vcd": "/x"},
                                "platform": {"file": "/p/tiny.yaml", "name": "tiny"}})");
  const json filtered = filter_report(report);
  CHECK(filtered == json::parse(R"({"simulation": {"delta_cycles": 7}, "platform": {"name": "tiny"}})"));
}
