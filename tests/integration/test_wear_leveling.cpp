// Wear leveling end to end (firmware.wear_leveling): every FTL keeps the data intact with it, and
// it narrows the erase counts' spread where the workload keeps one block set hot and the rest
// cold (4 KiB writes over 1 MiB of a filled tiny drive, written through).
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {
json hot_writes(const TempDir& dir, const std::string& ftl, const std::string& wl, const std::string& count,
                const std::string& name) {
  return successful_run({"-p", tiny_platform(), "--ftl", ftl, "--synthetic", "random", "--count", count,
                         "--read-fraction", "0", "--range-bytes", "1048576", "--request-bytes", "4096", "--precondition",
                         "fill", "--set", "firmware.write_buffer=off", "--set", "firmware.wear_leveling=" + wl, "--set",
                         "firmware.wear_leveling_spread=8"},
                        dir, name);
}
double spread(const json& r, const char* k) { return r["hardware"]["erase_count_spread"][k].get<double>(); }
}  // namespace

TEST_CASE("wear leveling: every FTL keeps the data intact with dynamic and static leveling", "[cli][integrity][wear]") {
  TempDir dir;
  for (const std::string& ftl : ftl_names(dir))
    for (const char* wl : {"dynamic", "static"}) {
      INFO("ftl " << ftl << ", wear leveling " << wl);
      const json r = hot_writes(dir, ftl, wl, "8000", "r.json");  // successful_run: the oracle and the mapping check
      CHECK(r["integrity"]["mapping_check"] == "ok");
    }
}

TEST_CASE("wear leveling: dynamic narrows the spread for a hybrid, static for page mapping", "[cli][wear]") {
  TempDir dir;
  // BAST merges its hot logical blocks over and over: without leveling the same free blocks come
  // back first (last freed, first taken); by lowest erase count the merges spread over the pool.
  const json bast_none = hot_writes(dir, "bast", "none", "40000", "bast-none.json");
  const json bast_dynamic = hot_writes(dir, "bast", "dynamic", "40000", "bast-dynamic.json");
  CHECK(spread(bast_dynamic, "max") < 0.5 * spread(bast_none, "max"));
  CHECK(spread(bast_dynamic, "mean") == spread(bast_none, "mean"));  // the same erases, spread differently
  // Page mapping keeps the cold fill's blocks untouched unless static leveling moves their data.
  const json pm_none = hot_writes(dir, "page_mapping", "none", "40000", "pm-none.json");
  const json pm_static = hot_writes(dir, "page_mapping", "static", "40000", "pm-static.json");
  CHECK(pm_static["ftl_metrics"]["wear_leveling_victims"].get<std::uint64_t>() > 0);
  CHECK(spread(pm_static, "stdev") < 0.7 * spread(pm_none, "stdev"));
  CHECK(spread(pm_static, "max") < spread(pm_none, "max"));
  // Moving cold data costs writes: the WAF rises above the 1.0 of hot rewrites alone.
  CHECK(pm_none["ftl_metrics"]["waf"].get<double>() == Approx(1.0));
  CHECK(pm_static["ftl_metrics"]["waf"].get<double>() > 1.05);
}
