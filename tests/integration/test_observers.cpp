// Observers never perturb: waveform tracing, the progress line and CSV output only read the
// model, so the same run with any of them on gives a report identical, bit for bit, to the run
// with all of them off (all but the `simulation` section: wall time and the output paths; even
// the kernel's delta cycles must be equal). Every FTL, on two cores so the order in which cores
// take jobs matters, with a mixed workload on a filled drive so garbage collection or merges run
// while it is observed.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

std::vector<std::string> workload_args(const std::string& ftl) {
  return {"run",          "-p",     tiny_platform(),   "--ftl", ftl,   "--set",           "core.count=2",
          "--synthetic",  "random", "--read-fraction", "0.3",   "--request-bytes", "16384", "--count",
          "3000",         "--qd",   "16",              "--mode", "closed", "--precondition",  "fill"};
}

// Runs the workload with `observers` added to the command line; returns the report without the
// simulation section (wall-clock figures and the waveform path) and the platform file, but with
// the kernel's delta cycles: an observer must not add kernel activity either (no wake-ups).
json observed_run(const std::string& ftl, const TempDir& dir, const std::string& name,
                  const std::vector<std::string>& observers, Result* result = nullptr) {
  std::vector<std::string> args = workload_args(ftl);
  args.insert(args.end(), observers.begin(), observers.end());
  const std::string report = dir.file(name + ".json");
  args.insert(args.end(), {"-r", report});
  Result r = run_ssdsim(args, dir, 300);
  INFO(r.describe());
  REQUIRE(r.exited());
  REQUIRE(r.exit_code == 0);
  json j = load_json(report);
  const json delta_cycles = j.at("simulation").at("delta_cycles");
  j.erase("simulation");
  j["delta_cycles"] = delta_cycles;
  j["platform"].erase("file");
  if (result) *result = r;
  return j;
}

void check_identical(const json& quiet, const json& observed, const std::string& observer) {
  const std::vector<std::string> diffs = json_differences(quiet, observed, 0.0);
  std::string message = observer + " changed " + std::to_string(diffs.size()) +
                        (diffs.size() >= 20 ? "+" : "") + " report figure(s) (expected = unobserved run):\n";
  for (const auto& d : diffs) message += "  " + d + "\n";
  INFO(message);
  CHECK(diffs.empty());
}

void check_observers_do_not_perturb(const std::string& ftl) {
  TempDir dir;
  const json quiet = observed_run(ftl, dir, "quiet", {"--no-vcd", "--progress", "never", "-q"});
  // The comparison is not vacuous: the workload ran and relocated data while being observed.
  REQUIRE(quiet.at("host").at("requests") == 3000);
  CHECK(quiet.at("integrity").at("mismatches") == 0);
  const json& m = quiet.at("ftl_metrics");
  CHECK(m.value("gc_runs", std::uint64_t(0)) + m.value("full_merges", std::uint64_t(0)) +
            m.value("partial_merges", std::uint64_t(0)) >
        0);

  const std::string vcd = dir.file("run.vcd");
  check_identical(quiet, observed_run(ftl, dir, "vcd", {"--vcd", vcd, "--progress", "never", "-q"}), "--vcd");
  CHECK(fs::file_size(vcd) > 0);

  const std::string csv = dir.file("runs.csv");
  check_identical(quiet, observed_run(ftl, dir, "csv", {"--no-vcd", "--csv", csv, "--progress", "never", "-q"}),
                  "--csv");
  CHECK(lines_of(read_text(csv)).size() == 2);  // header and the run's row

  Result shown;
  check_identical(quiet, observed_run(ftl, dir, "progress", {"--no-vcd", "--progress", "always"}, &shown),
                  "--progress always");
  CHECK(contains(shown.err, "simulated"));  // the progress line was really written

  // Everything at once.
  check_identical(quiet,
                  observed_run(ftl, dir, "all", {"--vcd", vcd, "--csv", csv, "--progress", "always"}),
                  "--vcd --csv --progress always");
}

}  // namespace

TEST_CASE("observers do not perturb: page_mapping", "[cli][observers]") { check_observers_do_not_perturb("page_mapping"); }
TEST_CASE("observers do not perturb: dftl", "[cli][observers]") { check_observers_do_not_perturb("dftl"); }
TEST_CASE("observers do not perturb: cast", "[cli][observers]") { check_observers_do_not_perturb("cast"); }
TEST_CASE("observers do not perturb: bast", "[cli][observers]") { check_observers_do_not_perturb("bast"); }
TEST_CASE("observers do not perturb: fast", "[cli][observers]") { check_observers_do_not_perturb("fast"); }
TEST_CASE("observers do not perturb: faster", "[cli][observers]") { check_observers_do_not_perturb("faster"); }
TEST_CASE("observers do not perturb: last", "[cli][observers]") { check_observers_do_not_perturb("last"); }
TEST_CASE("observers do not perturb: adapt", "[cli][observers]") { check_observers_do_not_perturb("adapt"); }
TEST_CASE("observers do not perturb: waftl", "[cli][observers]") { check_observers_do_not_perturb("waftl"); }
TEST_CASE("observers do not perturb: mnk", "[cli][observers]") { check_observers_do_not_perturb("mnk"); }
TEST_CASE("observers do not perturb: mcsplit", "[cli][observers]") { check_observers_do_not_perturb("mcsplit"); }
TEST_CASE("observers do not perturb: subgroup", "[cli][observers]") { check_observers_do_not_perturb("subgroup"); }
TEST_CASE("observers do not perturb: superblock", "[cli][observers]") { check_observers_do_not_perturb("superblock"); }

TEST_CASE("every FTL is covered by the observer test", "[cli][observers]") {
  // A new FTL must be added above: `ssdsim ftls` lists them (name first on unindented lines).
  TempDir dir;
  Result r = run_ssdsim({"ftls"}, dir);
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> names;
  for (const auto& line : lines_of(r.out))
    if (!line.empty() && line[0] != ' ') names.push_back(line.substr(0, line.find(' ')));
  CHECK(names == std::vector<std::string>{"page_mapping", "dftl", "cast", "bast", "fast", "faster", "last",
                                          "adapt", "waftl", "mnk", "mcsplit", "subgroup", "superblock"});
}
