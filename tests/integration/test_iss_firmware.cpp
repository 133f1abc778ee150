// The firmware image on the ISS core (core.model = iss): every FTL keeps the data intact when it
// runs as a Cortex-R5F binary behind the controller's registers, through reclamation (GC or
// merges run: erases happen), checked by the integrity oracle on every read and by the
// end-of-run mapping check, which asks the image itself through its debug entry points. And the
// image's start-up, registers and limits fail with clear errors.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

// Page-level FTLs need the drive overwritten before GC runs (tiny: 13,107 logical pages of
// 16,384); hybrids merge from the first log blocks on.
bool page_level(const std::string& ftl) {
  return ftl == "page_mapping" || ftl == "dftl" || ftl == "cast" || ftl == "superblock" || ftl == "subgroup";
}

// One FTL's run on the ISS core: 4 KiB random requests from a fresh drive, long enough for
// reclamation, checked as the header says.
void check_intact_on_iss(const std::string& ftl) {
  TempDir dir;
  const std::string count = page_level(ftl) ? "24000" : "5000";
  // A generous time limit: the sanitizer build runs the ISS several times slower.
  const RunReport rr = run_report({"-p", tiny_platform(), "--ftl", ftl, "--set", "core.model=iss", "--synthetic",
                                   "random", "--read-fraction", page_level(ftl) ? "0.1" : "0.3", "--request-bytes",
                                   "4096", "--count", count, "--seed", "5", "--qd", "16", "--precondition", "none"},
                                  dir, "report.json", 900);
  INFO(rr.result.describe());
  REQUIRE(rr.result.exited());
  REQUIRE(rr.result.exit_code == 0);
  REQUIRE(rr.has_report);
  const json& r = rr.report;
  INFO(ftl << ": " << r["ftl_metrics"].dump() << " " << r["integrity"].dump());
  CHECK(u64(r["host"]["requests"]) == std::stoull(count));
  CHECK(u64(r["integrity"]["mismatches"]) == 0);
  CHECK(r["integrity"]["mapping_check"] == "ok");
  CHECK(u64(r["integrity"]["pages_checked"]) > 0);
  CHECK(u64(r["ftl_metrics"]["erases"]) > 0);  // reclamation ran
  // The work was the image's: it executed instructions, and the annotated charges stayed empty.
  REQUIRE(r.contains("firmware_iss"));
  CHECK(u64(r["firmware_iss"]["instructions"]) > 0);
  CHECK(r["firmware_profile"].empty());
  // Cycles are the issue cycles plus the stalls (closed form of the section).
  double stalls = 0;
  for (const auto& [memory, c] : r["firmware_iss"]["stall_cycles"].items()) stalls += c.get<double>();
  CHECK(r["firmware_iss"]["cycles"].get<double>() ==
        Approx(r["firmware_iss"]["issue_cycles"].get<double>() + stalls).epsilon(1e-9));
  // The image carries no latency trails; the platform keeps them for it, and a request's stages
  // still add up to its latency.
  for (const char* op : {"all", "read", "write"}) {
    if (!r["latency_breakdown"].contains(op)) continue;
    const json& b = r["latency_breakdown"][op];
    double stages = 0;
    for (const auto& [stage, figures] : b["stages"].items()) stages += figures["mean_us"].get<double>();
    INFO(op << " latency " << b["mean_latency_us"] << " us, its stages " << stages << " us");
    CHECK(stages == Approx(b["mean_latency_us"].get<double>()).epsilon(1e-6));
    CHECK(b["stages"]["firmware"]["mean_us"].get<double>() > 0);
  }
}

}  // namespace

// One test per FTL family, so ctest runs them side by side.
TEST_CASE("iss: page-level FTLs keep the data intact as a firmware image on the ISS core", "[cli][iss][integrity]") {
  check_intact_on_iss(GENERATE(as<std::string>{}, "page_mapping", "dftl", "cast"));
}
TEST_CASE("iss: superblock FTLs keep the data intact as a firmware image on the ISS core", "[cli][iss][integrity]") {
  check_intact_on_iss(GENERATE(as<std::string>{}, "superblock", "subgroup", "mcsplit"));
}
TEST_CASE("iss: log-block FTLs keep the data intact as a firmware image on the ISS core", "[cli][iss][integrity]") {
  check_intact_on_iss(GENERATE(as<std::string>{}, "bast", "fast", "faster"));
}
TEST_CASE("iss: adaptive log-block FTLs keep the data intact as a firmware image on the ISS core",
          "[cli][iss][integrity]") {
  check_intact_on_iss(GENERATE(as<std::string>{}, "last", "adapt", "waftl", "mnk"));
}

TEST_CASE("iss: impossible ISS configurations are refused naming the parameter", "[cli][iss][errors]") {
  TempDir dir;
  const auto several = run_ssdsim({"run", "-p", tiny_platform(), "--set", "core.model=iss", "--set", "core.count=2",
                                   "--synthetic", "random", "--count", "10", "--precondition", "none", "--no-vcd"},
                                  dir);
  CHECK(several.exit_code != 0);
  CHECK_THAT(several.err, Catch::Contains("core.count = 2"));
  const auto fill = run_ssdsim({"run", "-p", tiny_platform(), "--set", "core.model=iss", "--synthetic", "random",
                                "--count", "10", "--precondition", "fill", "--no-vcd"},
                               dir);
  CHECK(fill.exit_code != 0);
  CHECK_THAT(fill.err, Catch::Contains("core.model = iss starts from a fresh drive"));
  const auto missing = run_ssdsim({"run", "-p", tiny_platform(), "--set", "core.model=iss", "--set",
                                   "core.image=/nonexistent/firmware.elf", "--synthetic", "random", "--count", "10",
                                   "--precondition", "none", "--no-vcd"},
                                  dir);
  CHECK(missing.exit_code != 0);
  CHECK_THAT(missing.err, Catch::Contains("/nonexistent/firmware.elf"));
  const auto not_elf = run_ssdsim({"run", "-p", tiny_platform(), "--set", "core.model=iss", "--set",
                                   "core.image=" + tiny_platform(), "--synthetic", "random", "--count", "10",
                                   "--precondition", "none", "--no-vcd"},
                                  dir);
  CHECK(not_elf.exit_code != 0);
  CHECK_THAT(not_elf.err, Catch::Contains("not an ELF file"));
}

TEST_CASE("iss: the waveform shows the function the core runs, named by a filter from the image's symbols",
          "[cli][iss][waveform]") {
  TempDir dir;
  const auto r = run_ssdsim({"run", "-p", tiny_platform(), "--set", "core.model=iss", "--synthetic", "random",
                             "--count", "300", "--precondition", "none", "-q", "-r", dir.file("r.json"), "--vcd",
                             dir.file("run.vcd")},
                            dir, 600);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  const std::string vcd = read_text(dir.file("run.vcd")), view = read_text(dir.file("run.gtkw")),
                    filter = read_text(dir.file("firmware_functions.filter"));
  CHECK_THAT(vcd, Catch::Contains("core0_function"));
  CHECK_THAT(vcd, Catch::Contains("core0_instructions"));
  CHECK_THAT(view, Catch::Contains("^3 " + dir.file("firmware_functions.filter")));
  CHECK_THAT(view, Catch::Contains("ssd.cores.core0_function"));
  // The filter names the image's functions, demangled: the firmware's own among them.
  CHECK_THAT(filter, Catch::Contains("ssd::fw::OpScheduler::issue"));
  CHECK_THAT(filter, Catch::Contains("main"));
}
