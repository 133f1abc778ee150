// The workload after a power cut and the boot (--after-recovery continue; report section
// power_cut.after_recovery): a new firmware mounts the flash as the cut left it (Ftl::mount) and
// the rest of the workload runs on it, every read checked against what the recovery found and the
// mapping checked against the flash at the end.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

// tiny made MLC with the shipped MLC platform's protection, on a filled drive (GC and merges from
// the start): a FUA log beside partial and whole page writes with flushes and reads.
const std::string kJobs =
    "jobs:\n"
    "  - name: log\n    pattern: sequential\n    block_size: 16384\n    count: 600\n    range_bytes: 4194304\n"
    "    fua_share: 1\n    iodepth: 1\n"
    "  - name: pages\n    read_fraction: 0.3\n    block_size: [[4096, 0.7], [2048, 0.3]]\n    count: 4000\n"
    "    range_start: 4194304\n    range_bytes: 8388608\n    flush_every: 40\n    iodepth: 15\n";

std::vector<std::string> mlc(const TempDir& dir, const std::string& ftl, const std::string& buffer) {
  return with_word_line_pool({"-p", tiny_platform(), "--ftl", ftl, "--jobs", dir.file("jobs.yaml"), "--set",
                              "nand.t_prog_us=[200,600]", "--set", "nand.t_read_us=[25,40]", "--set",
                              "firmware.erase_after_copies=true", "--set", "firmware.word_line_safety=true", "--set",
                              "firmware.write_buffer=" + buffer},
                             ftl);
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace

TEST_CASE("after recovery: the workload goes on over the mounted flash for every FTL",
          "[cli][power_cut][after_recovery]") {
  // Each request of the workload is completed before the cut, given up at it (in flight, never
  // acknowledged) or completed after it: the three add up to the uncut run's requests (the host
  // issues the same requests whatever the drive's FTL or buffer). Every read after the cut returns what
  // the recovery found or what was written since, and the new firmware's mapping matches the
  // flash at the end. A cut by count and one by time, with the write buffer (volatile) and
  // without; SSD_POWER_CUTS_PER_FTL (the sanitizer pass) keeps the cut by count with the buffer.
  const bool fewer = std::getenv("SSD_POWER_CUTS_PER_FTL") != nullptr;
  TempDir dir;
  write_text(dir.file("jobs.yaml"), kJobs);
  const json whole = successful_run(mlc(dir, "page_mapping", "page_lru"), dir, "whole.json");
  const std::uint64_t requests = whole["host"]["requests"].get<std::uint64_t>();
  for (const std::string& ftl : ftl_names(dir)) {
    for (const std::string buffer : {"page_lru", "off"})
      for (const std::vector<std::string>& cut :
           {std::vector<std::string>{"--power-cut-after", "1500"}, {"--power-cut-at", "0.1"}}) {
        if (fewer && (buffer == "off" || cut[0] == "--power-cut-at")) continue;
        INFO(ftl << ", write buffer " << buffer << ", " << cut[0] << " " << cut[1]);
        const json r = successful_run(with(mlc(dir, ftl, buffer), with(cut, {"--after-recovery", "continue"})), dir,
                                      ftl + buffer + cut[1] + ".json");
        const json& p = r["power_cut"];
        REQUIRE(p.contains("after_recovery"));
        const json& a = p["after_recovery"];
        CHECK(p["durability"]["verdict"] == "ok");
        CHECK(p["requests_completed"].get<std::uint64_t>() + a["requests_given_up"].get<std::uint64_t>() +
                  a["requests_completed"].get<std::uint64_t>() ==
              requests);
        CHECK(a["requests_given_up"] == p["requests_in_flight"]);
        CHECK(a["pages_checked"].get<std::uint64_t>() > 0);
        CHECK(a["mismatches"] == 0);
        CHECK(a["mapping_check"] == "ok");
        CHECK(a["host_pages_written"].get<std::uint64_t>() > 0);
      }
  }
}

TEST_CASE("after recovery: a hybrid merges what the scheme's lost log tables held before the host comes back",
          "[cli][power_cut][after_recovery]") {
  // BAST on tiny with random 4 KiB writes, cut after the last of them: logical blocks have pages
  // in log blocks, and nothing comes after the mount, so the new firmware's merges are the
  // mount's own. It merges every written segment that is not one logical block's in place
  // (mount_merges), each exactly once: a switch, partial or full merge, or a dead block's erase.
  TempDir dir;
  const json r =
      successful_run({"-p", tiny_platform(), "--ftl", "bast", "--synthetic", "random", "--count", "3000", "--set",
                      "firmware.write_buffer=off", "--power-cut-after", "3000", "--after-recovery", "continue"},
                     dir, "bast.json");
  const json& a = r["power_cut"]["after_recovery"];
  const json& c = a["ftl_counters"];
  const std::uint64_t mounted = c["mount_merges"].get<std::uint64_t>();
  CHECK(a["requests_completed"] == 0);
  CHECK(mounted > 0);
  CHECK(c["full_merges"].get<std::uint64_t>() > 0);
  CHECK(c["switch_merges"].get<std::uint64_t>() + c["partial_merges"].get<std::uint64_t>() +
            c["full_merges"].get<std::uint64_t>() + c["dead_block_erases"].get<std::uint64_t>() ==
        mounted);
  CHECK(a["mount_s"].get<double>() > 0);
  CHECK(a["mapping_check"] == "ok");
}

TEST_CASE("after recovery: DFTL writes again the translation pages the lost cache left stale",
          "[cli][power_cut][after_recovery]") {
  // Without a write buffer every write is durable at once, but its mapping waits dirty in the
  // cached mapping table until its translation page is written back: the cut takes those with
  // the SRAM. The mount finds them stale against the rebuilt map and writes them again before the
  // host comes back; cut right after a fill of 2,048 pages with a cache that holds them all, the
  // flash has no translation page, and the mount writes each one the fill touched.
  TempDir dir;
  std::string trace;  // MSR format: 2,048 writes of 4 KiB in order, then 500 reads of them
  for (int i = 0; i < 2548; ++i)
    trace += std::to_string(128166386783630075ull + 1000ull * i) + ",t,0," + (i < 2048 ? "Write," : "Read,") +
             std::to_string(4096ull * (i < 2048 ? i : (i * 7919) % 2048)) + ",4096,0\n";
  write_text(dir.file("seq.csv"), trace);
  const json r = successful_run({"-p", tiny_platform(), "--ftl", "dftl", "--trace", dir.file("seq.csv"), "--qd", "1",
                                 "--precondition", "none", "--set", "firmware.write_buffer=off", "--set",
                                 "ftl.cmt_bytes=65536", "--power-cut-after", "2048", "--after-recovery", "continue"},
                                dir, "dftl.json");
  CHECK(r["ftl_metrics"]["translation_writes_host"] == 0);  // (the premise: the cache held every mapping)
  const json& p = r["power_cut"];
  const json& a = p["after_recovery"];
  // 2,048 logical pages of 4 KiB, a translation page (4 KiB of 4-byte entries) maps 1,024 of them.
  CHECK(a["ftl_counters"]["mount_translation_writes"] == 2);
  CHECK(a["mismatches"] == 0);
  CHECK(a["pages_checked"] == 500);
  CHECK(a["mapping_check"] == "ok");
}

TEST_CASE("after recovery: capacitors' dump goes back into the write buffer", "[cli][power_cut][after_recovery][plp]") {
  // With capacitors and the dump area, every buffered page's newest copy is in the dump at the
  // cut: the mount reads each back into the buffer (one a logical page dumped) and erases the
  // dump's blocks it wrote, so the next power loss finds them erased.
  TempDir dir;
  write_text(dir.file("jobs.yaml"), kJobs);
  const json r = successful_run(
      with(mlc(dir, "page_mapping", "page_lru"),
           {"--set", "firmware.plp=capacitors", "--set", "firmware.plp_hold_up_us=250000", "--set",
            "firmware.word_line_safety=false", "--power-cut-after", "2500", "--after-recovery", "continue"}),
      dir, "plp.json");
  const json& p = r["power_cut"];
  const json& a = p["after_recovery"];
  CHECK(p["plp"]["pages_dumped"].get<std::uint64_t>() > 0);
  CHECK(a["dump_pages_restored"] == p["plp"]["pages_dumped"]);
  CHECK(a["dump_blocks_erased"].get<std::uint64_t>() > 0);
  CHECK(a["mismatches"] == 0);
  CHECK(a["mapping_check"] == "ok");
}

TEST_CASE("after recovery: what cannot continue is refused, named", "[cli][power_cut][after_recovery]") {
  TempDir dir;
  const auto refused = [&](const std::vector<std::string>& args, const std::string& named) {
    INFO(named);
    const Result r =
        run_ssdsim(with({"run", "-p", tiny_platform(), "--synthetic", "random", "--no-vcd", "-q"}, args), dir);
    CHECK(r.exit_code != 0);
    CHECK_THAT(r.err, Catch::Contains(named));
  };
  refused({"--after-recovery", "continue"}, "needs a power cut");
  refused({"--power-cut-after", "100", "--after-recovery", "maybe"}, "--after-recovery");
  refused({"--power-cut-after", "100", "--after-recovery", "continue", "--set", "core.model=iss"}, "core.model");
}

TEST_CASE("after recovery: map checkpoints go on in the slots the last ones used", "[cli][power_cut][after_recovery]") {
  // The new firmware holds back the same slots, erases before it programs what the checkpoints
  // before the cut wrote there, and numbers its checkpoints after theirs: none is abandoned.
  TempDir dir;
  write_text(dir.file("jobs.yaml"), kJobs);
  const json r = successful_run(
      with(mlc(dir, "page_mapping", "page_lru"), {"--set", "firmware.checkpoint_interval_mib=1", "--power-cut-after",
                                                  "3000", "--after-recovery", "continue"}),
      dir, "checkpoints.json");
  const json& p = r["power_cut"];
  CHECK(p["boot"]["checkpoint"]["used"].get<std::uint64_t>() > 0);
  const json& c = p["after_recovery"]["ftl_counters"];
  CHECK(c["checkpoints_written"].get<std::uint64_t>() > 0);
  CHECK(c["checkpoints_abandoned"] == 0);
  CHECK(c["checkpoint_erases"].get<std::uint64_t>() > 0);
  CHECK(p["after_recovery"]["mismatches"] == 0);
  CHECK(p["after_recovery"]["mapping_check"] == "ok");
}
