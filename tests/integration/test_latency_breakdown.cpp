// The report's latency_breakdown (issue 13 part 3): every request's latency cut into stages along
// its critical path (common/latency_trail.h). The stage means of each operation add up to its
// mean latency on every FTL and with every mechanism that makes requests wait (the host model
// also stops a run whose trail does not cover a request's latency exactly); on an idle drive the
// hardware stages are their closed forms.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

json run(const TempDir& dir, const std::string& platform, std::vector<std::string> args) {
  const std::string report = dir.file("r.json");
  args.insert(args.begin(), {"run", "-p", platform, "--no-vcd", "-q", "-r", report});
  const Result r = run_ssdsim(args, dir, 300);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  return load_json(report);
}

double stage(const json& report, const char* op, const char* name) {
  return report["latency_breakdown"][op]["stages"][name]["mean_us"].get<double>();
}

// Each operation's stage means add up to the host's mean latency of that operation.
void check_adds_up(const json& report) {
  const json& b = report["latency_breakdown"];
  for (const auto& [op, latency] : {std::pair<const char*, const char*>{"read", "read_latency_us"},
                                    {"write", "write_latency_us"}, {"all", "latency_us"}}) {
    INFO(op);
    const json& o = b[op];
    CHECK(o["requests"] == report["host"][latency]["count"]);
    double sum = 0, shares = 0;
    for (const auto& [name, s] : o["stages"].items()) {
      CHECK(s["mean_us"].get<double>() >= 0);
      CHECK(s["p99_us"].get<double>() >= 0);
      sum += s["mean_us"].get<double>();
      shares += s["share"].get<double>();
    }
    // The host rounds each latency to the nanosecond: the means agree within a nanosecond.
    CHECK(sum == Approx(report["host"][latency]["mean"].get<double>()).margin(1e-3));
    CHECK(o["mean_latency_us"].get<double>() == Approx(sum).margin(1e-9));
    if (o["requests"].get<std::uint64_t>() > 0) CHECK(shares == Approx(1.0));
  }
}

// One request at a time on an idle drive: nothing waits for anything.
void check_no_queueing(const json& report, const char* op) {
  for (const char* idle : {"host_queue", "buffer_wait", "dependency_wait", "die_queue", "channel_wait"}) {
    INFO(idle);
    CHECK(stage(report, op, idle) == Approx(0).margin(1e-6));
  }
}

}  // namespace

TEST_CASE("latency breakdown: the stages add up to the mean latency on every FTL, with GC running",
          "[cli][report][breakdown]") {
  for (const char* ftl : {"page_mapping", "dftl", "cast", "bast", "fast", "faster", "last", "superblock"}) {
    DYNAMIC_SECTION(ftl) {
      TempDir dir;
      // Write-through, so that writes wait for their programs (and GC) on the flash.
      const json r = run(dir, tiny_platform(),
                         {"--ftl", ftl, "--set", "firmware.write_buffer=off", "--synthetic", "random", "--count", "3000",
                          "--read-fraction", "0.3", "--request-bytes", "8192", "--qd", "16", "--precondition",
                          "fill+random:0.5"});
      check_adds_up(r);
      CHECK(stage(r, "write", "array") > 0);
      CHECK(stage(r, "read", "array") > 0);
    }
  }
}

TEST_CASE("latency breakdown: buffer waits, held requests, write cache and NAND options are stages too",
          "[cli][report][breakdown]") {
  TempDir dir;
  SECTION("a data buffer of 8 pages under 64 KiB requests: buffer_wait") {
    const json r = run(dir, default_platform(),
                       {"--set", "firmware.buffer_slots=8", "--synthetic", "random", "--count", "2000",
                        "--request-bytes", "65536", "--qd", "32", "--read-fraction", "0.5"});
    check_adds_up(r);
    CHECK(stage(r, "all", "buffer_wait") > 0);
  }
  SECTION("the bundled trace, open loop: host_queue for requests held behind overlapping ones") {
    const json r = run(dir, default_platform(), {});
    check_adds_up(r);
    if (r["host"]["held_for_ordering"].get<std::uint64_t>() > 0) CHECK(stage(r, "all", "host_queue") > 0);
  }
  SECTION("a full write buffer: writes wait for evictions (buffer_wait)") {
    const json r = run(dir, tiny_platform(),
                       {"--set", "firmware.write_buffer=page_lru", "--synthetic", "random", "--count", "6000", "--qd",
                        "32", "--read-fraction", "0", "--precondition", "fill"});
    check_adds_up(r);
    CHECK(r["write_buffer"]["waits"].get<std::uint64_t>() > 0);
    CHECK(stage(r, "write", "buffer_wait") > 0);
  }
  SECTION("write buffer, cache read and program, suspend, after a steady-state fill") {
    const json r = run(dir, tiny_platform(),
                       {"--set", "firmware.write_buffer=block_lru", "--set", "nand.cache_read=true", "--set",
                        "nand.cache_program=true", "--set", "nand.program_suspend=true", "--set",
                        "nand.erase_suspend=true", "--synthetic", "random", "--count", "3000", "--qd", "32",
                        "--read-fraction", "0.5", "--precondition", "fill+steady"});
    check_adds_up(r);
    CHECK(stage(r, "read", "die_queue") > 0);
  }
  SECTION("four cores") {
    const json r = run(dir, default_platform(),
                       {"--set", "core.count=4", "--synthetic", "random", "--count", "3000", "--qd", "64",
                        "--read-fraction", "0.5"});
    check_adds_up(r);
  }
}

TEST_CASE("latency breakdown: one request at a time on an idle drive, stage by stage in closed form",
          "[cli][report][breakdown]") {
  // default.yaml: 8 KiB pages, 400 MT/s x 8 bit channels, 7 command cycles of 10 ns, tR 50/75 us,
  // tPROG 600/750 us; host link 4 lanes x 8 GT/s x 128/130, 500 ns one way.
  const double link_bytes_per_us = 4 * 8e9 * 0.984615 / 8 / 1e6;
  const double page_on_link = 8192 / link_bytes_per_us;
  const double page_on_channel = 8192 / 400.0;  // us
  TempDir dir;
  SECTION("8 KiB reads") {
    const json r = run(dir, default_platform(),
                       {"--synthetic", "sequential", "--count", "500", "--qd", "1", "--read-fraction", "1",
                        "--request-bytes", "8192", "--precondition", "fill"});
    check_adds_up(r);
    check_no_queueing(r, "read");
    // Doorbell (500 ns), fetch request (500 ns), the 64-byte entry and its flight (500 ns).
    CHECK(stage(r, "read", "submission") == Approx(1.5 + 64 / link_bytes_per_us).epsilon(1e-4));
    CHECK(stage(r, "read", "channel_transfer") == Approx(0.07 + page_on_channel).epsilon(1e-4));
    CHECK(stage(r, "read", "array") >= 50);
    CHECK(stage(r, "read", "array") <= 75);
    CHECK(stage(r, "read", "pcie") == Approx(page_on_link + 0.5).epsilon(1e-4));
    CHECK(stage(r, "read", "completion") == Approx(0.5 + 16 / link_bytes_per_us).epsilon(1e-4));
    // Two DMAs over the 6.4 GB/s system bus to and from DRAM: die -> buffer, buffer -> link.
    CHECK(stage(r, "read", "dram_bus") >= 2 * 8192 / 6400.0);
  }
  SECTION("8 KiB writes (whole pages) on a fresh drive, write-through") {
    // (Without word-line safety: with it each write waits for its word line's padding, below.)
    const json r = run(dir, default_platform(),
                       {"--set", "firmware.write_buffer=off", "--set", "firmware.word_line_safety=false", "--synthetic",
                        "sequential", "--count", "500", "--qd", "1", "--read-fraction", "0", "--request-bytes", "8192",
                        "--precondition", "none"});
    check_adds_up(r);
    check_no_queueing(r, "write");
    // The read request up (500 ns), the page down and its flight (500 ns).
    CHECK(stage(r, "write", "pcie") == Approx(1.0 + page_on_link).epsilon(1e-4));
    CHECK(stage(r, "write", "channel_transfer") == Approx(0.07 + page_on_channel).epsilon(1e-4));
    CHECK(stage(r, "write", "array") >= 600);
    CHECK(stage(r, "write", "array") <= 750);
    CHECK(stage(r, "write", "dram_bus") >= 2 * 8192 / 6400.0);
  }
  SECTION("the same writes with word-line safety: each one also pays its word line's padding") {
    // Write-through: a completed write is durable, so it completes once its word line is closed.
    // One page at a time, striped over the planes, each lands in a lower page (tPROG 600 us) whose
    // upper page (750 us) is padded behind it on the same die: two transfers and 1,350 us of array
    // time a write, and a WAF of 2.
    const json r = run(dir, default_platform(),
                       {"--set", "firmware.write_buffer=off", "--synthetic", "sequential", "--count", "500", "--qd", "1",
                        "--read-fraction", "0", "--request-bytes", "8192", "--precondition", "none"});
    check_adds_up(r);
    CHECK(stage(r, "write", "channel_transfer") == Approx(2 * (0.07 + page_on_channel)).epsilon(1e-4));
    CHECK(stage(r, "write", "array") == Approx(600 + 750).epsilon(1e-4));
    CHECK(r["ftl_metrics"]["waf"].get<double>() == Approx(2.0));
    CHECK(r["ftl_metrics"]["word_line_padding_pages"] == 500);
  }
}
