// The DRAM write buffer seen from the command line: which pages reach the FTL, in what order,
// and which reads never reach the flash. Closed forms on tiny.yaml: 4 KiB pages, BAST with
// single 32-page blocks and 16 log blocks (3% of 512), a buffer of 1,024 pages (1/16 of 64 MiB).
#include <catch2/catch.hpp>

#include <sstream>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

// An MSR trace of 4 KiB requests, 1 ms apart: (write?, page) in order.
std::string msr_trace(const std::vector<std::pair<bool, std::uint64_t>>& requests) {
  std::ostringstream out;
  std::uint64_t t = 128166372000000000ull;
  for (const auto& [write, page] : requests)
    out << (t += 10000) << ",host,0," << (write ? "Write" : "Read") << "," << page * 4096 << ",4096,0\n";
  return out.str();
}

}  // namespace

TEST_CASE("write buffer: block_lru hands BAST each logical block's pages in order, page_lru in arrival order",
          "[cli][write_buffer]") {
  // 64 logical blocks, each written once from its last page to its first, on a filled drive.
  // Above a quarter of the buffer dirty (256 pages) it evicts: 1,792 of the 2,048 pages reach BAST.
  // block_lru evicts a block's 32 pages together, sorted: each log block fills in order and
  // leaves by a switch merge. page_lru evicts in arrival order (last page first): full merges,
  // 32 copies each. Of the 56 blocks evicted, 16 still sit in the 16 log blocks at the end.
  std::vector<std::pair<bool, std::uint64_t>> requests;
  for (std::uint64_t block = 0; block < 64; ++block)
    for (std::uint64_t page = 32; page-- > 0;) requests.emplace_back(true, block * 32 + page);
  TempDir dir;
  write_text(dir.file("reverse.csv"), msr_trace(requests));
  auto run = [&](const std::string& policy) {
    return successful_run({"-p", tiny_platform(), "--ftl", "bast", "-t", dir.file("reverse.csv"), "--set",
                           "firmware.write_buffer=" + policy, "--set", "firmware.write_buffer_high_water=0.25"},
                          dir, policy + ".json");
  };
  const json block = run("block_lru"), page = run("page_lru");
  for (const json* r : {&block, &page}) {
    CHECK((*r)["write_buffer"]["evictions"] == 1792);
    CHECK((*r)["write_buffer"]["pages_at_end"] == 256);
    CHECK((*r)["ftl_metrics"]["host_pages_written"] == 1792);
    CHECK((*r)["integrity"]["mapping_check"] == "ok");
  }
  CHECK(block["ftl_metrics"]["switch_merges"] == 56 - 16);
  CHECK(block["ftl_metrics"]["full_merges"] == 0);
  CHECK(block["ftl_metrics"]["merge_copies"] == 0);
  CHECK(page["ftl_metrics"]["switch_merges"] == 0);
  CHECK(page["ftl_metrics"]["full_merges"] == 56 - 16);
  CHECK(page["ftl_metrics"]["merge_copies"] == (56 - 16) * 32);
}

TEST_CASE("write buffer: block_lru keeps a logical block larger than the flush limit in one in-order run",
          "[cli][write_buffer]") {
  // BAST on blocks striped over all 8 planes (256 pages), flush depth 1: at most 8 evicted pages
  // in flight, so each logical block is handed over in chunks of at most 8. Each block is written
  // once from its last page to its first; the chunks still come in page order, one block after
  // the other, so every log block fills in order and leaves by a switch merge, never a full one.
  std::vector<std::pair<bool, std::uint64_t>> requests;
  for (std::uint64_t block = 0; block < 12; ++block)
    for (std::uint64_t page = 256; page-- > 0;) requests.emplace_back(true, block * 256 + page);
  TempDir dir;
  write_text(dir.file("reverse.csv"), msr_trace(requests));
  const json r = successful_run({"-p", tiny_platform(), "--ftl", "bast", "--set", "ftl.segment_planes=8", "-t",
                                 dir.file("reverse.csv"), "--set", "firmware.write_buffer=block_lru", "--set",
                                 "firmware.write_buffer_flush_depth=1", "--set", "firmware.write_buffer_high_water=0.25"},
                                dir);
  const std::uint64_t evicted = r["write_buffer"]["evictions"].get<std::uint64_t>();
  REQUIRE(evicted >= 4 * 256);
  CHECK(r["write_buffer"]["flushing_high_water"].get<std::uint64_t>() <= 8);
  CHECK(r["ftl_metrics"]["full_merges"] == 0);
  CHECK(r["ftl_metrics"]["merge_copies"] == 0);
  CHECK(r["ftl_metrics"]["switch_merges"].get<std::uint64_t>() >= evicted / 256 - 2);  // all but the blocks left in the log
  CHECK(r["integrity"]["mapping_check"] == "ok");
}

TEST_CASE("write buffer: reads of buffered pages are served from DRAM, faster than tR", "[cli][write_buffer]") {
  // 200 pages written, then read back: every read hits the buffer (nothing was evicted), the FTL
  // reads nothing, and the slowest read is faster than the same reads take on average from the
  // flash (the write buffer off: tR and the page's transfer added to the same firmware path; the
  // report gives no minimum).
  std::vector<std::pair<bool, std::uint64_t>> requests;
  for (std::uint64_t p = 0; p < 200; ++p) requests.emplace_back(true, 7 * p);
  for (std::uint64_t p = 0; p < 200; ++p) requests.emplace_back(false, 7 * p);
  TempDir dir;
  write_text(dir.file("wr.csv"), msr_trace(requests));
  const json r = successful_run({"-p", tiny_platform(), "-t", dir.file("wr.csv"), "--precondition", "none"}, dir);
  const json flash = successful_run({"-p", tiny_platform(), "-t", dir.file("wr.csv"), "--precondition", "none", "--set",
                                     "firmware.write_buffer=off"},
                                    dir, "flash.json");
  REQUIRE(flash["ftl_metrics"]["host_pages_read"] == 200);
  CHECK(r["write_buffer"]["read_hits"] == 200);
  CHECK(r["write_buffer"]["evictions"] == 0);
  CHECK(r["ftl_metrics"]["host_pages_read"] == 0);
  CHECK(r["ftl_metrics"]["flash_pages_programmed"] == 0);
  CHECK(r["host"]["read_latency_us"]["max"].get<double>() < flash["host"]["read_latency_us"]["mean"].get<double>());
  CHECK(r["integrity"]["pages_checked"] == 200);
  CHECK(r["integrity"]["mismatches"] == 0);
}

TEST_CASE("write buffer: at most flush_depth x planes evicted pages are in flight", "[cli][write_buffer]") {
  // A high-water mark of 0 evicts every write at once, so without a limit the programs pile up in
  // the die queues. The limit is flush_depth x the drive's planes, counted over the whole drive.
  TempDir dir;
  auto run = [&](const std::string& policy, int depth, const std::string& pattern) {
    return successful_run({"-p", tiny_platform(), "--synthetic", pattern, "--request-bytes", "4096", "--count",
                           "4000", "--qd", "32", "--precondition", "none", "--set", "firmware.write_buffer=" + policy,
                           "--set", "firmware.write_buffer_high_water=0", "--set",
                           "firmware.write_buffer_flush_depth=" + std::to_string(depth)},
                          dir, policy + std::to_string(depth) + pattern + ".json");
  };
  auto in_flight = [](const json& r) { return r["write_buffer"]["flushing_high_water"].get<std::uint64_t>(); };
  const json unlimited = run("page_lru", 0, "random");
  const json& g = unlimited["platform"]["effective"];
  const std::uint64_t planes = g["geometry.channels"].get<std::uint64_t>() * g["geometry.ways"].get<std::uint64_t>() *
                               g["geometry.dies_per_way"].get<std::uint64_t>() *
                               g["geometry.planes_per_die"].get<std::uint64_t>();
  CHECK(in_flight(unlimited) > 4 * planes);
  for (int depth : {1, 2, 4}) {  // page_lru evicts a page at a time: never over the limit
    INFO("page_lru, depth " << depth);
    const json r = run("page_lru", depth, "random");
    CHECK(in_flight(r) <= depth * planes);
    CHECK(in_flight(r) > 0);
    CHECK(r["integrity"]["mismatches"] == 0);
    CHECK(r["integrity"]["mapping_check"] == "ok");
  }
  // block_lru hands a logical block's dirty pages over in chunks that fit the limit (sequential
  // writes let a block's pages gather while evictions wait): never over the limit either, and
  // the flushes still fill the limit.
  const json block = run("block_lru", 1, "sequential");
  CHECK(in_flight(block) <= planes);
  CHECK(in_flight(block) == planes);
  CHECK(block["integrity"]["mapping_check"] == "ok");
}
