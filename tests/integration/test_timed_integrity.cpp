// End-to-end data integrity of the timed model: random mixed workloads on the tiny platform,
// long enough that the whole logical space is overwritten several times (so garbage collection
// runs on every plane), checked by the integrity oracle on every read and by the end-of-run
// mapping check; and the counters in the report checked against identities that hold by
// construction (not against numbers seen in earlier runs).
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

std::uint64_t counter_or_zero(const json& f, const char* key) { return f.contains(key) ? u64(f[key]) : 0; }

// The tiny platform's geometry, from a one-request run's report.
Geometry tiny_geometry(const TempDir& dir) {
  RunReport rr = run_report({"-p", tiny_platform(), "--synthetic", "random", "--count", "1", "--precondition", "none"},
                            dir, "probe.json");
  INFO(rr.result.describe());
  REQUIRE(rr.result.exited());
  REQUIRE(rr.result.exit_code == 0);
  REQUIRE(rr.has_report);
  return geometry_of(rr.report);
}

// Checks that hold for every run; returns nothing, records failures.
void check_common_identities(const json& r, const Geometry& g, std::uint64_t count, std::uint64_t request_bytes) {
  const json& h = r.at("host");
  const json& f = r.at("ftl_metrics");
  const json& in = r.at("integrity");

  // Every request completed, each exactly once, with its size.
  CHECK(u64(h["requests"]) == count);
  CHECK(u64(h["reads"]) + u64(h["writes"]) == count);
  CHECK(u64(h["read_bytes"]) == u64(h["reads"]) * request_bytes);
  CHECK(u64(h["write_bytes"]) == u64(h["writes"]) * request_bytes);
  CHECK(u64(h["latency_us"]["count"]) == count);
  CHECK(u64(h["read_latency_us"]["count"]) == u64(h["reads"]));
  CHECK(u64(h["write_latency_us"]["count"]) == u64(h["writes"]));
  CHECK(u64(h["folded_requests"]) == 0);

  // Data integrity: every read returned the last data written, and the mapping agrees with the
  // flash (OOB) for the whole drive.
  CHECK(u64(in["mismatches"]) == 0);
  CHECK(in["first_mismatch"] == "");
  CHECK(in["mapping_check"] == "ok");
  CHECK(u64(in["pages_checked"]) > 0);

  // Flash pages: the kinds the FTL counts, nothing else (closed form).
  const std::uint64_t programmed = u64(f["flash_pages_programmed"]);
  const std::uint64_t host_pages = u64(f["host_pages_written"]);
  CHECK(programmed == accounted_programs(f));
  REQUIRE(host_pages > 0);
  CHECK(f["waf"].get<double>() == Approx(double(programmed) / double(host_pages)).epsilon(1e-12));

  // The firmware's operations are the ones the hardware executed.
  const json& ops = f["operations"];
  CHECK(u64(ops["programs_issued"]) == programmed);
  CHECK(u64(ops["erases_issued"]) == u64(f["erases"]));
  CHECK(u64(ops["host_dma_in_issued"]) == u64(h["writes"]));
  CHECK(u64(ops["host_dma_out_issued"]) == u64(h["reads"]));
  std::uint64_t die_programs = 0, die_reads = 0, die_erases = 0, dies = 0;
  const double sim_s = r["hardware"]["simulated_seconds"].get<double>();
  CHECK(sim_s >= h["simulated_seconds"].get<double>());
  const double t_read = effective_number(r, "nand.t_read_us") * 1e-6,
               t_prog = effective_number(r, "nand.t_prog_us") * 1e-6,
               t_erase = effective_number(r, "nand.t_erase_us") * 1e-6;
  const bool multiplane = r["platform"]["effective"]["nand.multiplane"] == true;
  for (const auto& ch : r["hardware"]["channels"]) {
    CHECK(ch["busy_fraction"].get<double>() >= 0.0);
    CHECK(ch["busy_fraction"].get<double>() <= 1.0 + 1e-9);
    for (const auto& d : ch["dies"]) {
      ++dies;
      die_programs += u64(d["programs"]);
      die_reads += u64(d["reads"]);
      die_erases += u64(d["erases"]);
      CHECK(d["busy_fraction"].get<double>() >= 0.0);
      CHECK(d["busy_fraction"].get<double>() <= 1.0 + 1e-9);
      // Without multi-plane operations a die runs one array operation at a time: its array
      // time (at the fastest page type) fits in the simulated time.
      if (!multiplane) {
        const double array_s = u64(d["reads"]) * t_read + u64(d["programs"]) * t_prog + u64(d["erases"]) * t_erase;
        CHECK(array_s <= sim_s * (1 + 1e-9));
      }
    }
  }
  CHECK(dies == g.dies());
  CHECK(die_programs == programmed);
  CHECK(die_erases == u64(f["erases"]));
  CHECK(die_reads == u64(ops["reads_issued"]));

  // NAND: a page is programmed once per erase. The drive starts erased, so every program beyond
  // the raw page count needs an erase (closed-form lower bound on erases).
  CHECK(programmed <= g.total_pages() + u64(f["erases"]) * g.pages_per_block);

  // NVMe: one 64-byte submission entry per command down, one 16-byte completion up.
  const json& hi = r["hardware"]["host_interface"];
  CHECK(u64(hi["commands"]) == count);
  CHECK(u64(hi["bytes_to_device"]) == u64(h["write_bytes"]) + 64 * count);
  CHECK(u64(hi["bytes_to_host"]) == u64(h["read_bytes"]) + 16 * count);
}

// A random synthetic run on the tiny platform that must succeed; checks the common identities
// (with the report's FTL counters and integrity section attached to any failure).
json random_run(const TempDir& dir, const Geometry& g, const std::string& read_fraction, std::uint64_t request_bytes,
                std::uint64_t count, const std::string& seed, const std::string& qd, const std::string& precondition,
                const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"-p", tiny_platform(), "--synthetic", "random", "--read-fraction", read_fraction,
                                "--request-bytes", std::to_string(request_bytes), "--count", std::to_string(count),
                                "--seed", seed, "--qd", qd, "--precondition", precondition};
  args.insert(args.end(), extra.begin(), extra.end());
  const json r = successful_run(args, dir);
  INFO("ftl_metrics: " << r["ftl_metrics"].dump());
  INFO("integrity: " << r["integrity"].dump());
  check_common_identities(r, g, count, request_bytes);
  return r;
}

}  // namespace

TEST_CASE("timed integrity: random mixed 4 KiB workload overwriting the drive 3 times", "[cli][integrity]") {
  TempDir dir;
  const Geometry g = tiny_geometry(dir);
  REQUIRE(g.planes() == 8);  // tiny: 2 channels x 2 ways x 1 die x 2 planes

  const double read_fraction = 0.3;
  const std::uint64_t request_bytes = g.page_bytes;  // one page per request, page aligned
  // Expected writes = count x 0.7; 10 % margin so that the write count stays above 3 capacities
  // for any seed (the binomial spread is ~0.5 %).
  const std::uint64_t count =
      static_cast<std::uint64_t>(std::ceil(3.0 * double(g.logical_pages()) / (1.0 - read_fraction) * 1.1));

  // Write-through: the FTL sees every host page (the write buffer's own test is below).
  const json r = random_run(dir, g, "0.3", request_bytes, count, "11", "16", "none", {"--set", "firmware.write_buffer=off"});
  INFO("ftl_metrics: " << r["ftl_metrics"].dump());
  INFO("integrity: " << r["integrity"].dump());

  const json& h = r["host"];
  const json& f = r["ftl_metrics"];
  // The logical space was written at least 3 times over.
  CHECK(u64(f["host_pages_written"]) >= 3 * g.logical_pages());
  // Page-sized, page-aligned requests: one page each, never a read-modify-write.
  CHECK(u64(f["host_pages_written"]) == u64(h["writes"]));
  CHECK(u64(f["host_pages_read"]) == u64(h["reads"]));
  CHECK(u64(f["partial_page_writes"]) == 0);
  // Every page returned to the host was checked by the oracle.
  CHECK(u64(r["integrity"]["pages_checked"]) == u64(h["reads"]));

  // Garbage collection did real work on every plane: writing 3 capacities into a drive with
  // (1 - op) of its raw space visible needs far more erases than the 8 planes have blocks free.
  CHECK(u64(f["gc_runs"]) >= 4 * g.planes());
  CHECK(u64(f["gc_copies"]) > 0);
  CHECK(u64(f["erases"]) > 0);
  CHECK(f["waf"].get<double>() > 1.0);
  // More host data than the raw flash holds: the erase bound forces at least this many erases.
  const std::uint64_t min_erases = (u64(f["flash_pages_programmed"]) - g.total_pages()) / g.pages_per_block;
  CHECK(u64(f["erases"]) >= min_erases);
  CHECK(min_erases >= 2 * g.planes() * g.blocks_per_plane / 2);  // at least one full turnover of the drive
  // Erases on every die (GC ran everywhere, not on one plane only).
  for (const auto& ch : r["hardware"]["channels"])
    for (const auto& d : ch["dies"]) CHECK(u64(d["erases"]) >= 2 * g.planes_per_die);
}

TEST_CASE("timed integrity: unaligned 1536-byte requests (read-modify-write)", "[cli][integrity]") {
  TempDir dir;
  const Geometry g = tiny_geometry(dir);
  const std::uint64_t request_bytes = 1536;  // 3 sectors, not a divisor or multiple of the page
  REQUIRE(g.page_bytes % request_bytes != 0);
  REQUIRE(g.page_bytes > request_bytes);

  // About 1.5 logical capacities of page writes (each write touches 1 or 2 pages).
  const std::uint64_t count = 2 * g.logical_pages() + g.logical_pages() / 2;
  const json r = random_run(dir, g, "0.3", request_bytes, count, "5", "16", "none", {"--set", "firmware.write_buffer=off"});
  INFO("ftl_metrics: " << r["ftl_metrics"].dump());
  INFO("integrity: " << r["integrity"].dump());

  const json& h = r["host"];
  const json& f = r["ftl_metrics"];
  // A 1536-byte request covers no page completely, so every page it writes is a partial-page
  // (read-modify-write) update; it touches one page or, crossing a boundary, two.
  const std::uint64_t writes = u64(h["writes"]), pages = u64(f["host_pages_written"]);
  CHECK(u64(f["partial_page_writes"]) > 0);
  CHECK(u64(f["partial_page_writes"]) == pages);
  CHECK(pages >= writes);
  CHECK(pages <= 2 * writes);
  CHECK(pages > writes);  // with offsets every 1536 bytes, some requests cross a page boundary
  // The old data for the merges is read once per partial page (counted apart from host reads).
  CHECK(u64(f["partial_write_reads"]) == u64(f["partial_page_writes"]));
  CHECK(u64(f["host_pages_read"]) <= u64(h["reads"]) * 2);  // a read touches one page or two
  CHECK(u64(r["integrity"]["pages_checked"]) >= u64(h["reads"]));
  CHECK(u64(f["gc_runs"]) > 0);
}

TEST_CASE("timed integrity: the write buffer absorbs rewrites, serves reads and evicts, under every policy",
          "[cli][integrity][write_buffer]") {
  // Unaligned 1536-byte requests over a quarter of the drive (rewrites find their pages in the
  // buffer; read-modify-writes merge in DRAM or read the flash), a buffer of 256 pages.
  TempDir dir;
  const Geometry g = tiny_geometry(dir);
  const std::uint64_t count = 4 * g.logical_pages();
  for (const char* policy : {"fifo", "page_lru", "block_lru"}) {
    INFO(policy);
    const json r = random_run(dir, g, "0.3", 1536, count, "7", "16", "fill",
                              {"--set", std::string("firmware.write_buffer=") + policy, "--set",
                               "firmware.write_buffer_dram_share=0.015625", "--set", "firmware.buffer_slots=64",
                               "--range-bytes", std::to_string(g.logical_pages() * g.page_bytes / 4)});
    const json& h = r["host"];
    const json& f = r["ftl_metrics"];
    const json& w = r["write_buffer"];
    CHECK(w["policy"] == policy);
    CHECK(u64(w["capacity_pages"]) == 256);
    CHECK(u64(w["pages_high_water"]) <= 256);
    // Every page written is absorbed, evicted or still buffered; only evictions reach the FTL.
    const std::uint64_t written = u64(w["host_pages_written"]);
    CHECK(written >= u64(h["writes"]));
    CHECK(written == u64(w["absorbed_writes"]) + u64(w["evictions"]) + std::uint64_t(w["pages_at_end"].get<double>()));
    CHECK(u64(f["host_pages_written"]) == u64(w["evictions"]));
    CHECK(u64(w["absorbed_writes"]) > 0);
    CHECK(u64(w["read_hits"]) > 0);
    CHECK(u64(w["evictions"]) > 0);
    CHECK(u64(f["partial_page_writes"]) == written);  // 1536-byte requests cover no page whole
    CHECK(f["drive_waf"].get<double>() < f["waf"].get<double>());  // absorbed rewrites never reach the flash
    CHECK(u64(f["gc_runs"]) > 0);
    CHECK(u64(r["integrity"]["mismatches"]) == 0);
    CHECK(r["integrity"]["mapping_check"] == "ok");
  }
}

TEST_CASE("timed integrity: preconditioned drive, mixed workload", "[cli][integrity]") {
  // After a sequential fill every read hits mapped data; GC starts almost at once.
  TempDir dir;
  const Geometry g = tiny_geometry(dir);
  const std::uint64_t count = g.logical_pages();
  const json r = random_run(dir, g, "0.5", g.page_bytes, count, "3", "32", "fill");
  INFO("ftl_metrics: " << r["ftl_metrics"].dump());
  INFO("integrity: " << r["integrity"].dump());
  CHECK(u64(r["ftl_metrics"]["unmapped_reads"]) == 0);  // the fill wrote every logical page
  CHECK(u64(r["ftl_metrics"]["gc_runs"]) > 0);
  CHECK(u64(r["integrity"]["pages_checked"]) == u64(r["host"]["reads"]));
}

TEST_CASE("timed integrity: DFTL and CAST with a small mapping cache under GC", "[cli][integrity][dftl][cast]") {
  // 1.5-page unaligned requests (read-modify-write, runs of 2-3 pages) from 3 interleaved issuers,
  // after a fill; a 2 KiB cache (256 DFTL entries) forces evictions all the time, and writing the
  // logical space twice over runs GC of data and translation blocks while host I/O is in flight.
  TempDir dir;
  const Geometry g = tiny_geometry(dir);
  const std::uint64_t request_bytes = g.page_bytes * 3 / 2;
  const std::uint64_t count = 2 * g.logical_pages() * 10 / 7;  // ~2 capacities of page writes
  const std::vector<std::vector<std::string>> configs = {
      {"--set", "ftl.name=dftl"},
      {"--set", "ftl.name=dftl", "--set", "ftl.cmt_policy=lru", "--set", "ftl.write_miss_waits=false"},
      {"--set", "ftl.name=cast", "--set", "ftl.placement=abl", "--set", "ftl.current_blocks=3"},
      {"--set", "ftl.name=cast", "--set", "ftl.placement=ibl", "--set", "ftl.segment_planes=2", "--set",
       "ftl.run_length_bits=4"},
      // GC's mapping updates still in the buffer while later victims are copied and erased
      {"--set", "ftl.name=dftl", "--set", "ftl.gc_write_back=paced"},
      {"--set", "ftl.name=cast", "--set", "ftl.gc_write_back=paced", "--set", "ftl.segment_planes=2"},
      // host work passing GC's copies and write-backs in the die queues
      {"--set", "ftl.name=dftl", "--set", "channel.scheduler=host_first", "--set", "channel.gc_max_wait_us=200"},
  };
  for (const auto& config : configs) {
    std::vector<std::string> extra = config;
    for (const char* a : {"--set", "ftl.cmt_bytes=2048", "--issuers", "3"}) extra.push_back(a);
    std::string joined;
    for (const auto& a : extra) joined += a + " ";
    INFO("options: " << joined);
    const json r = random_run(dir, g, "0.3", request_bytes, count, "7", "16", "fill", extra);
    INFO("ftl_metrics: " << r["ftl_metrics"].dump());
    const json& f = r["ftl_metrics"];
    CHECK(u64(f["cmt_dirty_evictions"]) > 100);
    CHECK(u64(f["translation_writes_host"]) > 100);
    CHECK(u64(f["gc_runs_data"]) > 0);
    CHECK(u64(f["gc_buffer_hits"]) + u64(f["translation_reads_gc"]) > 0);
    CHECK(u64(f["cmt_read_hits"]) + u64(f["cmt_read_misses"]) + u64(f["gc_buffer_hits"]) >= u64(f["host_pages_read"]));
  }
}

TEST_CASE("timed integrity: hybrid log-block FTLs with merges while host I/O is in flight",
          "[cli][integrity][hybrid]") {
  // 1.5-page unaligned requests at QD 16 after a fill, writing about 1.5 capacities: every
  // scheme merges (or, SUPERBLOCK, reclaims) throughout, striped and on single blocks.
  TempDir dir;
  const Geometry g = tiny_geometry(dir);
  const std::uint64_t request_bytes = g.page_bytes * 3 / 2;
  for (const char* ftl : {"bast", "fast", "faster", "last", "adapt", "waftl", "mnk", "mcsplit", "subgroup", "superblock"}) {
    for (const char* planes : {"1", "8"}) {
      const std::vector<std::string> extra{"--set", std::string("ftl.name=") + ftl, "--set",
                                           std::string("ftl.segment_planes=") + planes, "--set",
                                           "ftl.overprovisioning=0.25"};
      INFO(ftl << " segment_planes " << planes);
      // ftl.overprovisioning 0.25 leaves a quarter of the raw pages hidden, whatever the scheme.
      const std::uint64_t count = 1 * g.total_pages() / 2;
      const json r = random_run(dir, g, "0.3", request_bytes, count, "9", "16", "fill", extra);
      const json& f = r["ftl_metrics"];
      CHECK(counter_or_zero(f, "switch_merges") + counter_or_zero(f, "partial_merges") +
                counter_or_zero(f, "full_merges") + counter_or_zero(f, "dead_block_erases") >
            0);
      CHECK(u64(f["erases"]) > 0);
    }
  }
}

TEST_CASE("preconditioning to steady state: GC runs from the first measured writes", "[cli][precondition]") {
  // After a sequential fill the over-provisioned blocks are still free, so writing 2% of the
  // capacity erases nothing; after fill+steady the free pool sits at the GC threshold and the
  // same writes erase blocks at once, at the write amplification preconditioning settled at.
  // Four ways there: page mapping and CAST preload the steady state, fill+steady:fill writes a
  // steady-state fill, and fill+steady:run writes random pages from the sequential fill.
  TempDir dir;
  const Geometry g = tiny_geometry(dir);
  const std::uint64_t count = g.logical_pages() / 50 * 10 / 7;  // 30% reads: ~2% of the capacity written
  const json filled = random_run(dir, g, "0.3", g.page_bytes, count, "3", "8", "fill", {"--set", "firmware.write_buffer=off"});
  CHECK(u64(filled["ftl_metrics"]["erases"]) == 0);
  CHECK_FALSE(filled["preconditioning"]["steady_reached"].get<bool>());

  struct Way {
    std::string precondition, ftl, how;
  };
  for (const Way& way : {Way{"fill+steady", "page_mapping", "steady-state preload"},
                         Way{"fill+steady", "cast", "steady-state preload"},
                         Way{"fill+steady:fill", "dftl", "steady-state fill"},
                         Way{"fill+steady:run", "page_mapping", "sequential fill"}}) {
    DYNAMIC_SECTION(way.precondition << " with " << way.ftl) {
      const json first = random_run(dir, g, "0.3", g.page_bytes, count, "3", "8", way.precondition,
                                    {"--ftl", way.ftl, "--set", "firmware.write_buffer=off"});
      CHECK(u64(first["ftl_metrics"]["erases"]) > 0);
      // The WAF over 20% of the capacity: GC reclaims whole segments, so 2% is a handful of them.
      const json steady =
          random_run(dir, g, "0.3", g.page_bytes, count * 10, "3", "8", way.precondition,
                                    {"--ftl", way.ftl, "--set", "firmware.write_buffer=off"});
      const std::string what = steady["workload"]["precondition"].get<std::string>();
      INFO("precondition: " << what);
      CHECK_THAT(what, Catch::StartsWith(way.how));
      CHECK_THAT(what, Catch::Contains("steady state (reached"));
      const json& p = steady["preconditioning"];
      CHECK(p["steady_reached"].get<bool>());
      CHECK(u64(p["settling_page_writes"]) > 0);
      CHECK(p["chunk_waf"].size() >= 9);
      // The measured writes run at the settled write amplification (within 25% on a drive this small).
      CHECK(steady["ftl_metrics"]["waf"].get<double>() == Approx(p["settled_waf"].get<double>()).epsilon(0.25));
    }
  }
}

TEST_CASE("preconditioning ends with a flush: reads after it write no translation page", "[cli][precondition]") {
  // The fill (and random writes after it) leave DFTL's and CAST's newest cached mappings dirty.
  // The preconditioning ends as a host's Flush does, writing them back, so a read-only workload
  // afterwards evicts only clean entries and programs nothing; with +no-flush its misses evict
  // the fill's dirty runs and write their translation pages back. The cache is made small
  // (4 KiB) so that the reads miss and evict.
  TempDir dir;
  const Geometry g = tiny_geometry(dir);
  const std::uint64_t count = g.logical_pages() / 4;  // random reads over the whole drive: many misses
  auto read_run = [&](const std::string& ftl, const std::string& state) {
    return successful_run({"-p", tiny_platform(), "--ftl", ftl, "--set", "ftl.cmt_bytes=4096", "--synthetic", "random",
                           "--read-fraction", "1", "--request-bytes", std::to_string(g.page_bytes), "--count",
                           std::to_string(count), "--seed", "5", "--precondition", state},
                          dir);
  };
  // (CAST's runs cover a sequentially filled drive in a few entries: its reads miss only after
  // random writes have broken the runs up.)
  for (const auto& [ftl, state] : std::vector<std::pair<std::string, std::string>>{
           {"dftl", "fill"}, {"dftl", "fill+random:0.5"}, {"cast", "fill+random:0.5"}}) {
    DYNAMIC_SECTION(ftl << " after " << state) {
      const json flushed = read_run(ftl, state);
      const json& f = flushed["ftl_metrics"];
      INFO("precondition: " << flushed["workload"]["precondition"].get<std::string>());
      INFO("ftl_metrics: " << f.dump());
      CHECK_THAT(flushed["workload"]["precondition"].get<std::string>(), Catch::Contains("then a flush ("));
      CHECK(u64(f["cmt_read_misses"]) > count / 2);
      CHECK(u64(flushed["integrity"]["mismatches"]) == 0);
      CHECK(u64(f["translation_writes_host"]) == 0);
      CHECK(u64(f["flash_pages_programmed"]) == 0);
      CHECK(u64(f["cmt_dirty_evictions"]) == 0);

      const json kept = read_run(ftl, state + "+no-flush");
      CHECK(u64(kept["integrity"]["mismatches"]) == 0);
      CHECK(u64(kept["ftl_metrics"]["translation_writes_host"]) > 0);
      CHECK(u64(kept["ftl_metrics"]["cmt_dirty_evictions"]) > 0);
    }
  }
}
