// The annotated core, with the firmware costs the ISS measured (platforms/tiny.yaml's
// firmware_cycles, written by tools/calibrate.py), against the firmware image on the ISS core:
// the same workloads give the same IOPS, mean latency and core busy share within 5%. What
// this checks is the calibration's claim: that the annotated model, charging one measured cost
// per unit of work, stands for the instructions the firmware really executes. A stale
// calibration (the firmware changed, the costs did not) fails it: rerun tools/calibrate.py.
//
// Hidden ([.]: not run by ctest) until it passes. With the costs tools/calibrate.py measures on
// tiny today (every FTL's calibration runs charged within 1% of the ISS's cycles in total), it
// passes for page mapping's reads (55.5 k IOPS annotated against 57.2 k on the ISS) and BAST's
// writes, and fails for DFTL's reads (51.5 k against 59.8 k: a fresh drive's lookups find
// nothing, cheaper than the pooled lookup cost), BAST's reads (8%) and the 50/50 mixes (5-8%): one
// cost per kind and FTL, pooled over workloads, cannot follow a kind whose cost depends on what
// the workload makes it do. The shipped platforms keep their costs until it passes (issue 33).
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

struct Figures {
  double iops, mean_latency_us, core_busy;
};

Figures run(const std::string& ftl, const std::string& read_fraction, const std::string& model, const TempDir& dir) {
  const json r = successful_run({"-p", tiny_platform(), "--ftl", ftl, "--set", "core.model=" + model, "--synthetic",
                                 "random", "--read-fraction", read_fraction, "--request-bytes", "4096", "--count",
                                 "4000", "--range-bytes", "16777216", "--seed", "3", "--qd", "16", "--precondition",
                                 "none"},
                                dir, model + ".json");
  return {r["host"]["iops"].get<double>(), r["host"]["latency_us"]["mean"].get<double>(),
          r["hardware"]["cores"]["utilization"].get<double>()};
}

}  // namespace

TEST_CASE("iss agreement: the calibrated annotated core matches the ISS core within 5 percent",
          "[.][cli][iss][calibration]") {
  const std::string ftl = GENERATE(as<std::string>{}, "page_mapping", "dftl", "bast");
  const std::string read_fraction = GENERATE(as<std::string>{}, "1", "0", "0.5");
  TempDir dir;
  const Figures annotated = run(ftl, read_fraction, "annotated", dir), iss = run(ftl, read_fraction, "iss", dir);
  INFO(ftl << ", read fraction " << read_fraction << ": annotated " << annotated.iops << " IOPS, "
           << annotated.mean_latency_us << " us, core " << annotated.core_busy << "; ISS " << iss.iops << " IOPS, "
           << iss.mean_latency_us << " us, core " << iss.core_busy);
  CHECK(annotated.iops == Approx(iss.iops).epsilon(0.05));
  CHECK(annotated.mean_latency_us == Approx(iss.mean_latency_us).epsilon(0.05));
  CHECK(annotated.core_busy == Approx(iss.core_busy).epsilon(0.05));
}
