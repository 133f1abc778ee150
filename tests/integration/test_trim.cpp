// TRIM (Dataset Management deallocate, common/host_op.h) end to end: every FTL under the
// integrity oracle, from job files and from blkparse discards, and what a trim buys garbage
// collection in closed form.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

// Random writes of one to four pages, reads and trims over the filled tiny drive: trims of
// whole and partial pages, of buffered pages, of pages a merge or GC is moving.
std::string trim_jobs(std::uint32_t count = 6000) {
  return "jobs:\n"
         "  - name: mixed\n    read_fraction: 0.3\n    block_size: [[4096, 0.6], [16384, 0.3], [6144, 0.1]]\n"
         "    align: 2048\n    count: " + std::to_string(count) + "\n    trim_share: 0.2\n    seed: 5\n";
}

// A blkparse trace: discards of [0, 64 MiB) in 1 MiB pieces (every logical page of the tiny drive,
// folded in), then `writes` random 4 KiB writes into its first 40 MiB, 10 us apart.
std::string trim_then_write(std::uint32_t writes, bool discards) {
  std::string text;
  std::uint64_t seq = 1;
  double t = 0.0;
  char line[128];
  if (discards)
    for (std::uint64_t sector = 0; sector < 131072; sector += 2048, t += 1e-5) {
      std::snprintf(line, sizeof line, "8,0 0 %llu %.6f 100 D D %llu + 2048 [fstrim]\n", (unsigned long long)seq++, t,
                    (unsigned long long)sector);
      text += line;
    }
  std::uint64_t x = 12345;
  for (std::uint32_t i = 0; i < writes; ++i, t += 1e-5) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t page = (x >> 33) % 10240;  // 40 MiB of 4 KiB pages
    std::snprintf(line, sizeof line, "8,0 0 %llu %.6f 200 D W %llu + 8 [app]\n", (unsigned long long)seq++, t,
                  (unsigned long long)(page * 8));
    text += line;
  }
  return text;
}

}  // namespace

TEST_CASE("trim: every FTL keeps the data intact through trims, with and without the write buffer", "[cli][trim]") {
  // Every read after a trim of its whole page returns "never written", a page trimmed in part
  // keeps its data, and the mapping matches the flash at the end (the oracle and the mapping
  // check); the FTL deallocated mapped pages (trimmed_pages) and the buffer dropped trimmed pages.
  // The sanitizer pass (SSD_POWER_CUTS_PER_FTL set) keeps the runs with the write buffer, at half
  // the requests.
  const bool fewer = std::getenv("SSD_POWER_CUTS_PER_FTL") != nullptr;
  const std::uint32_t requests = fewer ? 3000 : 6000;
  TempDir dir;
  write_text(dir.file("jobs.yaml"), trim_jobs(requests));
  for (const std::string& ftl : ftl_names(dir))
    for (const std::string buffer : {"block_lru", "off"}) {
      if (fewer && buffer == "off") continue;
      INFO(ftl << ", write buffer " << buffer);
      const json r = successful_run({"-p", tiny_platform(), "--ftl", ftl, "--jobs", dir.file("jobs.yaml"), "--set",
                                     "firmware.write_buffer=" + buffer, "--no-vcd"},
                                    dir, ftl + buffer + ".json");
      CHECK(r["integrity"]["mismatches"] == 0);
      CHECK(r["integrity"]["mapping_check"] == "ok");
      const std::uint64_t trims = u64(r["host"]["trims"]);
      CHECK(trims > requests / 6);
      CHECK(u64(r["host"]["requests"]) == requests);
      CHECK(u64(r["host"]["trimmed_pages"]) > 0);
      CHECK(u64(r["ftl_metrics"]["trimmed_pages"]) > 0);
      CHECK(u64(r["ftl_metrics"]["trimmed_pages"]) <= u64(r["host"]["trimmed_pages"]));
      CHECK(r["latency_breakdown"]["trim"]["requests"] == trims);
      if (buffer != "off") CHECK(u64(r["write_buffer"]["trim_drops"]) > 0);
    }
  // The firmware image on the ISS core handles trims alike (a fresh drive: the ISS preconditions
  // nothing). Not in the sanitizer pass, which leaves the image's long runs out.
  if (fewer) return;
  for (const std::string ftl : {"page_mapping", "bast"}) {
    INFO(ftl << " on the ISS core");
    const json r = successful_run({"-p", tiny_platform(), "--ftl", ftl, "--jobs", dir.file("jobs.yaml"), "--set",
                                   "core.model=iss", "--precondition", "none", "--no-vcd"},
                                  dir, ftl + "-iss.json");
    CHECK(r["integrity"]["mismatches"] == 0);
    CHECK(r["integrity"]["mapping_check"] == "ok");
    CHECK(u64(r["ftl_metrics"]["trimmed_pages"]) > 0);
  }
}

TEST_CASE("trim: DFTL and CAST carry trims through a small mapping cache into their translation pages", "[cli][trim]") {
  // A 512-byte cache: trimmed entries are evicted dirty and written back as unmapped, then loaded
  // again from their translation pages; the oracle and the mapping check (which compares the
  // translation pages with the flash) hold.
  TempDir dir;
  write_text(dir.file("jobs.yaml"), trim_jobs());
  for (const std::string ftl : {"dftl", "cast"}) {
    INFO(ftl);
    const json r = successful_run({"-p", tiny_platform(), "--ftl", ftl, "--jobs", dir.file("jobs.yaml"), "--set",
                                   "ftl.cmt_bytes=512", "--set", "firmware.write_buffer=off", "--no-vcd"},
                                  dir, ftl + ".json");
    CHECK(r["integrity"]["mismatches"] == 0);
    CHECK(r["integrity"]["mapping_check"] == "ok");
    CHECK(u64(r["ftl_metrics"]["trimmed_pages"]) > 500);
    CHECK(u64(r["ftl_metrics"]["cmt_dirty_evictions"]) > 500);
  }
}

TEST_CASE("trim: with the whole drive trimmed, overwriting part of it costs page mapping no GC copy", "[cli][trim]") {
  // After the fill every page is valid; blkparse discards deallocate all of them, so every block
  // of the fill holds only invalid pages. 8,000 random page writes (fewer than the fill's blocks
  // hold) then need GC to reclaim only fill blocks, which greedy GC takes first (no valid page):
  // not one copy, WAF exactly 1. Without the discards the same writes pay copies.
  TempDir dir;
  write_text(dir.file("trimmed.blk"), trim_then_write(8000, true));
  write_text(dir.file("plain.blk"), trim_then_write(8000, false));
  auto run = [&dir](const std::string& trace, const std::string& ftl) {
    return successful_run({"-p", tiny_platform(), "--ftl", ftl, "--trace", dir.file(trace), "--fold",
                           "--set", "firmware.write_buffer=off", "--no-vcd"},
                          dir, ftl + trace + ".json");
  };
  const json trimmed = run("trimmed.blk", "page_mapping");
  const json plain = run("plain.blk", "page_mapping");
  CHECK(trimmed["integrity"]["mismatches"] == 0);
  CHECK(u64(trimmed["host"]["trims"]) == 64);
  CHECK(u64(trimmed["ftl_metrics"]["gc_runs"]) > 0);
  CHECK(u64(trimmed["ftl_metrics"]["gc_copies"]) == 0);
  CHECK(trimmed["ftl_metrics"]["waf"].get<double>() == 1.0);
  CHECK(u64(plain["ftl_metrics"]["gc_copies"]) > 1000);
  // SUPERBLOCK's GC stays inside each superblock and picks its block with the fewest valid pages:
  // the fill's blocks, empty after the trim, go first there too.
  const json superblock = run("trimmed.blk", "superblock");
  CHECK(superblock["integrity"]["mismatches"] == 0);
  CHECK(u64(superblock["ftl_metrics"]["gc_copies"]) == 0);
}

TEST_CASE("trim: each FTL family deallocates what the steady state of writes and trims predicts", "[cli][trim]") {
  // Random 4 KiB requests over L = 4,096 pages of the filled drive, a share T = 0.25 of them trims:
  // before request n a page is unmapped with probability u_n = T (1 - (1 - 1/L)^n) (trims unmap at
  // T (1 - u), writes map at (1 - T) u), so the trims find E = T N - T^2 (N - L (1 - (1 - 1/L)^N))
  // mapped pages over N requests. An FTL that maps a trimmed page again behind the host's back (a
  // hybrid's merge padding it as data) finds more.
  const double t = 0.25, l = 4096, n = 16000;
  const double expected = t * n - t * t * (n - l * (1 - std::pow(1 - 1 / l, n)));
  TempDir dir;
  write_text(dir.file("steady.yaml"), "jobs:\n  - name: steady\n    read_fraction: 0\n    block_size: 4096\n"
                                      "    count: 16000\n    range_bytes: 16777216\n    trim_share: 0.25\n    seed: 9\n");
  for (const std::string ftl : {"page_mapping", "dftl", "bast", "superblock"}) {
    INFO(ftl << ": expected " << expected << " pages deallocated");
    const json r = successful_run({"-p", tiny_platform(), "--ftl", ftl, "--jobs", dir.file("steady.yaml"), "--set",
                                   "firmware.write_buffer=off", "--no-vcd"},
                                  dir, ftl + "-steady.json");
    CHECK(r["integrity"]["mismatches"] == 0);
    CHECK(u64(r["ftl_metrics"]["trimmed_pages"]) == Approx(expected).epsilon(0.05));
  }
}

TEST_CASE("trim: bad trim input is refused with its file, line or option named", "[cli][trim][errors]") {
  TempDir dir;
  write_text(dir.file("share.yaml"), "jobs:\n  - name: a\n    trim_share: 1.5\n");
  require_bad_input(run_ssdsim({"run", "-p", tiny_platform(), "--jobs", dir.file("share.yaml"), "--no-vcd"}, dir),
                    {"share.yaml:3", "trim_share"});
  // A discard beyond the drive, without --fold, names its line.
  write_text(dir.file("far.blk"), "8,0 0 1 0.000001 100 D D 1000000000 + 2048 [fstrim]\n");
  require_bad_input(run_ssdsim({"run", "-p", tiny_platform(), "--trace", dir.file("far.blk"), "--no-vcd"}, dir),
                    {"far.blk:1", "beyond the drive"});
  // Trims with a power cut are not modelled: refused, saying so.
  write_text(dir.file("cut.yaml"), "jobs:\n  - name: a\n    count: 2000\n    trim_share: 0.3\n");
  require_bad_input(run_ssdsim({"run", "-p", tiny_platform(), "--jobs", dir.file("cut.yaml"), "--power-cut-after",
                                "1000", "--no-vcd"},
                               dir),
                    {"trim", "power cut"});
}
