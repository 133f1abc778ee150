// Flush and Force Unit Access seen from the command line (common/host_op.h,
// fw/firmware/firmware.h "Durability"): which buffered pages a flush or a FUA write sends to the
// flash, and what it waits for. Closed forms on tiny.yaml: 4 KiB pages, tPROG 200 us, a write
// buffer of 1,024 pages that evicts nothing below its high-water mark here.
#include <catch2/catch.hpp>

#include <sstream>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

// A blkparse trace of D events 1 ms apart: ("W", page), ("WF", page) for FUA, ("FN", 0) for a
// flush, with the kernel's RWBS letters.
std::string blkparse_trace(const std::vector<std::pair<std::string, std::uint64_t>>& events) {
  std::ostringstream out;
  int seq = 0;
  for (const auto& [rwbs, page] : events) {
    ++seq;
    out << "  8,0    0 " << seq << " " << seq * 0.001 << " 100 D " << rwbs;
    if (rwbs == "FN")
      out << " [jbd2]\n";
    else
      out << " " << page * 8 << " + 8 [app]\n";
  }
  return out.str();
}

json run_trace(TempDir& dir, const std::string& name, const std::vector<std::pair<std::string, std::uint64_t>>& events,
               std::vector<std::string> extra = {}) {
  write_text(dir.file(name + ".txt"), blkparse_trace(events));
  std::vector<std::string> args = {"-p", tiny_platform(), "-t", dir.file(name + ".txt"), "--precondition", "none",
                                   "--set", "firmware.write_buffer=page_lru"};
  args.insert(args.end(), extra.begin(), extra.end());
  return successful_run(args, dir, name + ".json");
}

}  // namespace

TEST_CASE("durability: a flush sends exactly the pages buffered before it to the flash", "[cli][durability]") {
  // 40 writes, a flush, 30 more writes (each 1 ms apart: the flush is done long before them).
  std::vector<std::pair<std::string, std::uint64_t>> events;
  for (std::uint64_t p = 0; p < 40; ++p) events.emplace_back("W", 3 * p);
  events.emplace_back("FN", 0);
  for (std::uint64_t p = 40; p < 70; ++p) events.emplace_back("WS", 3 * p);
  TempDir dir;
  const json r = run_trace(dir, "flush", events);
  events.erase(events.begin() + 40);
  const json none = run_trace(dir, "none", events);
  CHECK(r["host"]["flushes"] == 1);
  CHECK(r["host"]["requests"] == 71);
  CHECK(r["host"]["writes"] == 70);
  CHECK(r["write_buffer"]["evictions"] == 40);
  CHECK(r["write_buffer"]["pages_at_end"] == 30);
  CHECK(r["ftl_metrics"]["flash_pages_programmed"] == 40);
  // The flush waited for programs: at least one tPROG, and the wait is its flush_wait stage.
  const double flush_us = r["host"]["flush_latency_us"]["mean"].get<double>();
  CHECK(flush_us >= 200);
  const json& stages = r["latency_breakdown"]["flush"]["stages"];
  CHECK(stages["flush_wait"]["mean_us"].get<double>() >= 200);
  CHECK(stages["flush_wait"]["share"].get<double>() > 0.9);
  CHECK_FALSE(r["latency_breakdown"]["write"]["stages"].contains("flush_wait"));
  // Without the flush nothing leaves the buffer, and the report has no flush figures.
  CHECK(none["write_buffer"]["evictions"] == 0);
  CHECK(none["write_buffer"]["pages_at_end"] == 70);
  CHECK_FALSE(none["host"].contains("flushes"));
  CHECK_FALSE(none["latency_breakdown"].contains("flush"));
  for (const json* x : {&r, &none}) {
    CHECK((*x)["integrity"]["mismatches"] == 0);
    CHECK((*x)["integrity"]["mapping_check"] == "ok");
  }
}

TEST_CASE("durability: without a write buffer a flush completes at once", "[cli][durability]") {
  // Every write completed on the flash already: nothing to wait for, no flush_wait.
  std::vector<std::pair<std::string, std::uint64_t>> events;
  for (std::uint64_t p = 0; p < 20; ++p) events.emplace_back("W", p);
  events.emplace_back("FN", 0);
  TempDir dir;
  const json r = run_trace(dir, "off", events, {"--set", "firmware.write_buffer=off"});
  CHECK(r["host"]["flushes"] == 1);
  CHECK(r["host"]["flush_latency_us"]["max"].get<double>() < 50);
  CHECK(r["latency_breakdown"]["flush"]["stages"]["flush_wait"]["mean_us"] == 0);
  CHECK(r["ftl_metrics"]["flash_pages_programmed"] == 20);
}

TEST_CASE("durability: with capacitors the buffer is no volatile cache: flushes and FUA wait for nothing",
          "[cli][durability]") {
  // firmware.plp = capacitors: the buffered pages reach the flash at a power loss, so a flush
  // completes at once and a FUA write completes in DRAM like the others; nothing is programmed.
  std::vector<std::pair<std::string, std::uint64_t>> events;
  for (std::uint64_t p = 0; p < 20; ++p) events.emplace_back("WS", p);
  events.emplace_back("WFS", 1000);
  events.emplace_back("FN", 0);
  TempDir dir;
  const json r = run_trace(dir, "plp", events, {"--set", "firmware.plp=capacitors", "--set", "firmware.plp_hold_up_us=1000"});
  CHECK(r["host"]["flushes"] == 1);
  CHECK(r["host"]["fua_writes"] == 1);
  CHECK(r["host"]["flush_latency_us"]["max"].get<double>() < 50);
  CHECK(r["host"]["write_latency_us"]["max"].get<double>() < 50);
  CHECK(r["ftl_metrics"]["flash_pages_programmed"] == 0);
  CHECK(r["write_buffer"]["pages_at_end"] == 21);
}

TEST_CASE("durability: a FUA write sends its own pages to the flash and waits for them", "[cli][durability]") {
  // 30 plain writes, then a FUA write of another page: only the FUA page is programmed; the FUA
  // write takes at least tPROG, the plain ones far less (they complete in DRAM).
  std::vector<std::pair<std::string, std::uint64_t>> events;
  for (std::uint64_t p = 0; p < 30; ++p) events.emplace_back("WS", 2 * p);
  events.emplace_back("WFS", 1000);
  TempDir dir;
  const json r = run_trace(dir, "fua", events);
  CHECK(r["host"]["fua_writes"] == 1);
  CHECK(r["write_buffer"]["evictions"] == 1);
  CHECK(r["write_buffer"]["pages_at_end"] == 30);
  CHECK(r["ftl_metrics"]["flash_pages_programmed"] == 1);
  CHECK(r["host"]["write_latency_us"]["max"].get<double>() >= 200);
  CHECK(r["host"]["write_latency_us"]["p90"].get<double>() < 50);
  // A FUA rewrite of a buffered page: the buffered copy is the one programmed (absorbed, then out).
  events.back() = {"WFS", 4};
  const json again = run_trace(dir, "fua-again", events);
  CHECK(again["write_buffer"]["absorbed_writes"] == 1);
  CHECK(again["write_buffer"]["evictions"] == 1);
  CHECK(again["write_buffer"]["pages_at_end"] == 29);
  CHECK(again["integrity"]["mismatches"] == 0);
  CHECK(again["integrity"]["mapping_check"] == "ok");
}

TEST_CASE("durability: a preflush write is a flush followed by the write", "[cli][durability]") {
  // "FWS": the kernel's preflush with data. The 10 writes before it reach the flash; the write
  // itself stays buffered.
  std::vector<std::pair<std::string, std::uint64_t>> events;
  for (std::uint64_t p = 0; p < 10; ++p) events.emplace_back("W", p);
  events.emplace_back("FWS", 50);
  TempDir dir;
  const json r = run_trace(dir, "preflush", events);
  CHECK(r["host"]["flushes"] == 1);
  CHECK(r["host"]["writes"] == 11);
  CHECK(r["write_buffer"]["evictions"] == 10);
  CHECK(r["write_buffer"]["pages_at_end"] == 1);
}

TEST_CASE("durability: job files flush every N writes and give a share of writes FUA", "[cli][durability]") {
  TempDir dir;
  write_text(dir.file("jobs.yaml"), "jobs:\n  - name: a\n    count: 64\n    flush_every: 8\n    fua_share: 1\n");
  const json r = successful_run({"-p", tiny_platform(), "--jobs", dir.file("jobs.yaml"), "--precondition", "none", "--set",
                                 "firmware.write_buffer=page_lru"},
                                dir);
  CHECK(r["host"]["flushes"] == 8);
  CHECK(r["host"]["fua_writes"] == 64);
  CHECK(r["host"]["writes"] == 64);
  CHECK(r["host"]["issuers"]["0"]["flushes"] == 8);
  // Every write was FUA: all 64 pages programmed, nothing left in the buffer.
  CHECK(r["write_buffer"]["pages_at_end"] == 0);
  CHECK(r["integrity"]["mismatches"] == 0);
  // A timed flush needs trace time: a closed-loop job is refused, naming the job and the fix.
  write_text(dir.file("bad.yaml"), "jobs:\n  - name: closed\n    count: 10\n    flush_interval: 0.01\n");
  const auto bad = run_ssdsim({"run", "-p", tiny_platform(), "--jobs", dir.file("bad.yaml"), "--no-vcd", "-q"}, dir);
  CHECK(bad.exit_code != 0);
  CHECK_THAT(bad.err, Catch::Contains("job 'closed'") && Catch::Contains("flush_interval") &&
                          Catch::Contains("flush_every"));
}

TEST_CASE("durability: open-loop jobs flush every flush_interval of trace time", "[cli][durability]") {
  // 1,000 writes at 10,000 IOPS span 0.1 s; a flush every 10 ms: at 10, 20, ..., 90 ms (and not
  // after the last request, at 99.9 ms).
  TempDir dir;
  write_text(dir.file("jobs.yaml"),
             "jobs:\n  - name: a\n    count: 1000\n    rate_iops: 10000\n    flush_interval: 0.01\n");
  const json r = successful_run({"-p", tiny_platform(), "--jobs", dir.file("jobs.yaml"), "--precondition", "none", "--set",
                                 "firmware.write_buffer=page_lru"},
                                dir);
  CHECK(r["host"]["flushes"] == 9);
  CHECK(r["integrity"]["mismatches"] == 0);
}

TEST_CASE("durability: flushes and FUA writes mixed with reads keep the data intact under every policy",
          "[cli][durability][integrity]") {
  // A small buffer (128 pages: evictions, absorbed rewrites and flushes interleave) on a 512-page range,
  // on the annotated core and as the firmware image on the ISS core (the command's opcode and FUA
  // flag cross the image's mailbox).
  TempDir dir;
  write_text(dir.file("mix.yaml"), "jobs:\n  - name: mix\n    count: 3000\n    read_fraction: 0.3\n"
                                   "    range_bytes: 2097152\n    flush_every: 7\n    fua_share: 0.2\n");
  for (const std::string policy : {"fifo", "page_lru", "block_lru"})
    for (const std::string core : {"annotated", "iss"}) {
      INFO(policy << " on the " << core << " core");
      const json r = successful_run({"-p", tiny_platform(), "--jobs", dir.file("mix.yaml"), "--set",
                                     "firmware.write_buffer=" + policy, "--set", "firmware.write_buffer_dram_share=0.0078125", "--set", "firmware.buffer_slots=64",
                                     "--set", "core.model=" + core, "--precondition", "none"},
                                    dir, policy + core + ".json");
      CHECK(r["host"]["flushes"].get<std::uint64_t>() > 250);
      CHECK(r["host"]["fua_writes"].get<std::uint64_t>() > 300);
      CHECK(r["integrity"]["mismatches"] == 0);
      CHECK(r["integrity"]["mapping_check"] == "ok");
      CHECK(r["write_buffer"]["absorbed_writes"].get<std::uint64_t>() > 0);
    }
}
