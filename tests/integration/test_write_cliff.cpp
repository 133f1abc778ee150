// The write cliff in closed form, for every FTL with an SLC cache (page mapping, DFTL, CAST): on
// one die of the TLC consumer platform, sequential writes run at the die's SLC-mode rate until
// the host has written the dynamic cache's closed-form size, then at its native TLC rate.
//
// The die (tlc_die.h): 4 planes of 64 blocks of 768 pages (256 one-shot word lines of 3) of 16
// KiB. A program takes its pages from DRAM over the system bus once the die takes it up (16 B x
// 400 MHz: 2.56 us a page; hw/channel/channel_controller.cpp, Phase::DmaIn), moves them over the
// channel (800 MT/s, 8 bits: 20.48 us a page) and runs the array. A multi-plane SLC program: 4 x (2.56 + 20.48) +
// 250 us: 65,536 B / 342.2 us = 191.5 MB/s. A multi-plane one-shot TLC word line: three such
// 4-page programs, of 10, 10 and 2,680 us array time (the lower pages load the latches, the upper
// runs the word line): 196,608 B / 2,976.5 us = 66.1 MB/s.
// The cache (fw/ftl/common/slc_cache.h): the k-th SLC block (segment) of a plane (plane group)
// opens while (k - 1) - floor < share x (free - (k - 1) - threshold), free = 64, floor 2, share 0.5
// (the mapping cache holds every mapping written: no translation segment opens to take one).
// Without a write buffer and word-line padding (both would move the host's view off the flash's),
// the host's throughput is the flash's; the cliff is where it first falls below half the first
// interval's (as bench/write_cliff.py finds it).
#include <catch2/catch.hpp>
#include <sstream>

#include "cli_support.h"
#include "tlc_die.h"

using namespace ssd::cli;

namespace write_cliff_test {

constexpr double kPageUs = 16384 / 6400.0 + 16384 / 800.0;        // DMA in and channel transfer
constexpr double kSlcRate = 65536.0 / (4 * kPageUs + 250) * 1e6;  // bytes/s
constexpr double kTlcRate = 196608.0 / (12 * kPageUs + 2680 + 20) * 1e6;
constexpr std::uint64_t kSlcBlockBytes = 256 * 16384, kPlanes = 4;

// The cache's blocks a plane (segments) in closed form: the largest k with k - 1 < X.
std::uint64_t cache_blocks(double threshold) {
  const double x = (0.5 * (64 - threshold) + 2) / 1.5;
  return static_cast<std::uint64_t>(x) + 1;
}

TEST_CASE("Write cliff: SLC speed for the closed-form cache size, then native TLC speed", "[cli][slc][cliff]") {
  const std::string ftl = GENERATE("page_mapping", "dftl", "cast");
  INFO(ftl);
  const std::uint64_t cache_bytes = cache_blocks(tlc_die_gc_threshold(ftl)) * kPlanes * kSlcBlockBytes;
  const std::uint64_t requests = cache_bytes * 3 / 2 / (128 * 1024);  // 1.5 x the cache in 128 KiB writes
  TempDir dir;
  std::ostringstream trace;
  trace.setf(std::ios::fixed);
  for (std::uint64_t i = 0; i < requests; ++i) trace << i * 0.001 << " 0 " << i * 256 << " 256 0\n";
  write_text(dir.file("w.trace"), trace.str());
  std::vector<std::string> args = {"--trace", dir.file("w.trace"), "--trace-format", "disksim", "--no-vcd"};
  for (const char* setting : {"ftl.slc_free_share=0.5", "ftl.slc_idle_fold_ms=0", "firmware.write_buffer=off",
                              "firmware.word_line_safety=false"})
    args.insert(args.end(), {"--set", setting});
  if (ftl != "page_mapping") args.insert(args.end(), {"--set", "ftl.cmt_bytes=524288"});  // 64 Ki entries
  const json r = successful_run(one_tlc_die(ftl, args), dir);
  const json& f = r["ftl_metrics"];
  CHECK(u64(f["slc_pages_written"]) * 16384 == cache_bytes);
  CHECK(f["slc_blocks_folded"] == 0);  // no idle, no GC on a drive a quarter written
  CHECK(f["gc_runs"] == 0);

  const json& o = r["host"]["over_time"];
  const double dt = o["interval_s"].get<double>();
  std::vector<double> rates;  // bytes/s per interval
  for (const json& p : o["points"]) rates.push_back(p["mb_per_s"].get<double>() * 1e6);
  REQUIRE(rates.size() > 20);
  std::size_t cliff = 0;
  double written = 0;
  for (; cliff < rates.size() && rates[cliff] >= rates[0] / 2; ++cliff) written += rates[cliff] * dt;
  REQUIRE(cliff + 5 < rates.size());
  INFO("cliff after " << written / 1e6 << " MB (cache " << cache_bytes / 1e6 << " MB), interval " << dt * 1e3 << " ms");
  // Within the interval the cliff falls in (its writes partly at SLC speed) and 1%.
  CHECK(written == Approx(double(cache_bytes)).margin(kSlcRate * dt + 0.01 * double(cache_bytes)));
  // The rates on either side, whole intervals away from the start and the cliff.
  double slc = 0, tlc = 0;
  for (std::size_t i = 1; i + 1 < cliff; ++i) slc += rates[i] / double(cliff - 2);
  const std::size_t last = rates.size() - 1;  // the last interval is partial
  for (std::size_t i = cliff + 2; i < last; ++i) tlc += rates[i] / double(last - cliff - 2);
  INFO("SLC " << slc / 1e6 << " MB/s (closed form " << kSlcRate / 1e6 << "), TLC " << tlc / 1e6 << " MB/s (closed form "
              << kTlcRate / 1e6 << ")");
  CHECK(slc == Approx(kSlcRate).epsilon(0.03));
  CHECK(tlc == Approx(kTlcRate).epsilon(0.03));
}

}  // namespace write_cliff_test
