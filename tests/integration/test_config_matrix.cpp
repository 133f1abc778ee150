// Integrity across hardware variants: multi-plane on/off, FIFO or read-first die queues, one or
// two firmware cores, write buffer off or on (each policy in turn), a small data buffer; each with GC running
// (preconditioned drive, random mixed writes) and unaligned requests (read-modify-write).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <random>

#include "cli_support.h"

using namespace ssd::cli;

TEST_CASE("Integrity holds on every combination of hardware and firmware options", "[cli][integrity][matrix]") {
  TempDir dir;
  int run = 0;
  for (const char* multiplane : {"true", "false"})
    for (const char* scheduler : {"fifo", "read_first", "host_first"})
      for (const char* cores : {"1", "2"})
        for (const bool buffered : {false, true}) {
          const char* cache = buffered ? std::array<const char*, 3>{"fifo", "page_lru", "block_lru"}[run % 3] : "off";
          const std::string name = "m" + std::to_string(run++) + ".json";
          const json r = successful_run(
              {"-p", tiny_platform(), "--set", std::string("nand.multiplane=") + multiplane, "--set",
               std::string("channel.scheduler=") + scheduler, "--set", std::string("core.count=") + cores, "--set",
               std::string("firmware.write_buffer=") + cache, "--set", "firmware.buffer_slots=24", "--synthetic",
               "random", "--read-fraction", "0.4", "--request-bytes", "6144", "--count", "6000", "--qd", "16",
               "--seed", std::to_string(run), "--precondition", "fill+random:0.5"},
              dir, name);
          INFO("multiplane=" << multiplane << " scheduler=" << scheduler << " cores=" << cores << " cache=" << cache);
          CHECK(r["integrity"]["mismatches"].get<std::uint64_t>() == 0);
          CHECK(r["integrity"]["mapping_check"].get<std::string>() == "ok");
          CHECK(r["ftl_metrics"]["gc_runs"].get<std::uint64_t>() > 0);
          CHECK(r["ftl_metrics"]["partial_page_writes"].get<std::uint64_t>() > 0);
          CHECK(r["ftl_metrics"]["buffer_pages_high_water"].get<std::uint64_t>() <= 24);
          std::uint64_t multiplane_ops = 0;
          for (const auto& ch : r["hardware"]["channels"])
            for (const auto& d : ch["dies"]) multiplane_ops += d["multiplane_operations"].get<std::uint64_t>();
          if (std::string(multiplane) == "false") CHECK(multiplane_ops == 0);
        }
}

TEST_CASE("Write buffer with deferred writes: an evicted page waiting for GC still serves reads",
          "[cli][integrity][matrix]") {
  // Found by a randomized run with the earlier write cache: a write whose page had to wait for GC
  // was acknowledged before it was mapped, so a following read-modify-write of the same page
  // merged the old data. With the write buffer an evicted page stays in it, serving reads and
  // read-modify-writes, until its program is done. Many planes and little spare room make
  // deferrals common; a high-water mark of 0 evicts every write at once, in bursts: unlimited, or
  // up to a flush depth of 8 x 36 planes in flight, which the deferred pages then hold (a smaller
  // limit lets GC keep up, and nothing is deferred; so does a slow core: 1 GHz here).
  const std::string depth = GENERATE("0", "8");
  INFO("firmware.write_buffer_flush_depth=" << depth);
  TempDir dir;
  const json r = successful_run(
      {"-p", tiny_platform(), "--set", "core.clock_mhz=1000", "--set", "channels=3", "--set", "ways=3", "--set", "planes_per_die=4", "--set",
       "blocks_per_plane=42", "--set", "pages_per_block=16", "--set", "ftl.overprovisioning=0.3", "--set",
       "ftl.gc_threshold_blocks=3", "--set", "nand.multiplane=false", "--set", "channel.scheduler=read_first",
       "--set", "firmware.write_buffer=page_lru", "--set", "firmware.write_buffer_dram_share=0.03", "--set",
       "firmware.write_buffer_high_water=0", "--set", "firmware.write_buffer_flush_depth=" + depth, "--set",
       "firmware.buffer_slots=24", "--synthetic",
       "random", "--read-fraction", "0.3", "--request-bytes",
       "6144", "--count", "20000", "--qd", "16", "--seed", "3", "--precondition", "fill+random:1"},
      dir);
  CHECK(r["ftl_metrics"]["deferred_writes"].get<std::uint64_t>() > 0);
  CHECK(r["write_buffer"]["read_hits"].get<std::uint64_t>() > 0);
  if (depth != "0") CHECK(r["write_buffer"]["flushing_high_water"].get<std::uint64_t>() <= 8u * 36);
  CHECK(r["integrity"]["mismatches"].get<std::uint64_t>() == 0);
  CHECK(r["integrity"]["mapping_check"].get<std::string>() == "ok");
}

TEST_CASE("Integrity holds on randomized geometries and options (timed model)", "[cli][integrity][random]") {
  TempDir dir;
  std::mt19937_64 rng(20261121);
  for (int run = 0; run < 8; ++run) {
    auto pick = [&](std::uint64_t n) { return std::to_string(rng() % n); };
    const std::uint64_t blocks = 24 + rng() % 24;
    const double op = std::max(0.25, 7.0 / double(blocks));  // enough spare blocks per plane for GC
    // A write buffer of 1-4 times the data buffer (tiny.yaml: 64 MiB of DRAM, 4 KiB pages), far
    // smaller than the drive, so that GC still runs.
    const std::uint64_t slots = 24 + rng() % 64, buffer_pages = slots + rng() % (3 * slots);
    const std::string buffer_share = std::to_string(double(buffer_pages) * 4096 / double(64 << 20) + 1e-6);
    const std::vector<std::string> args = {
        "-p", tiny_platform(), "--set", "channels=" + std::to_string(1 + rng() % 3), "--set",
        "ways=" + std::to_string(1 + rng() % 3), "--set", "dies_per_way=" + std::to_string(1 + rng() % 2), "--set",
        "planes_per_die=" + std::to_string(1 + rng() % 4), "--set", "blocks_per_plane=" + std::to_string(blocks),
        "--set", "pages_per_block=" + std::to_string(4u << (rng() % 4)), "--set",
        "ftl.overprovisioning=" + std::to_string(op), "--set", "ftl.gc_threshold_blocks=3", "--set",
        std::string("nand.multiplane=") + (rng() % 2 ? "true" : "false"), "--set",
        std::string("channel.scheduler=") + (rng() % 2 ? "fifo" : "read_first"), "--set",
        std::string("firmware.write_buffer=") + std::array<const char*, 4>{"off", "fifo", "page_lru", "block_lru"}[rng() % 4],
        "--set", "firmware.write_buffer_dram_share=" + buffer_share, "--set",
        "core.count=" + std::to_string(1 + rng() % 2), "--set", "firmware.buffer_slots=" + std::to_string(slots),
        "--synthetic", "random", "--read-fraction", "0." + pick(9), "--request-bytes",
        std::to_string((1 + rng() % 24) * 512), "--count", "8000", "--qd", std::to_string(1 + rng() % 32), "--seed",
        std::to_string(run), "--precondition", "fill+random:1"};
    std::string command;
    for (const auto& a : args) command += a + " ";
    INFO("run " << run << ": " << command);
    const json r = successful_run(args, dir, "r" + std::to_string(run) + ".json");
    CHECK(r["integrity"]["mismatches"].get<std::uint64_t>() == 0);
    CHECK(r["integrity"]["mapping_check"].get<std::string>() == "ok");
    CHECK(r["ftl_metrics"]["gc_runs"].get<std::uint64_t>() > 0);
  }
}
