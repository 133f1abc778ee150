// The workload after a power cut and the boot (--after-recovery continue; report section
// power_cut.after_recovery): a new firmware mounts the flash as the cut left it (Ftl::mount) and
// the rest of the workload runs on it, every read checked against what the recovery found and the
// mapping checked against the flash at the end.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

// tiny made MLC with the shipped MLC platform's protection, database_fsync (FUA log, flushes, GC
// from the start on a filled drive).
std::vector<std::string> mlc_fsync(const std::string& ftl, const std::string& buffer) {
  return {"-p",     tiny_platform(),
          "--ftl",  ftl,
          "--jobs", source_path("workloads/database_fsync.yaml"),
          "--set",  "nand.t_prog_us=[200,600]",
          "--set",  "nand.t_read_us=[25,40]",
          "--set",  "firmware.erase_after_copies=true",
          "--set",  "firmware.word_line_safety=true",
          "--set",  "firmware.write_buffer=" + buffer};
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace

TEST_CASE("after recovery: the workload goes on over the mounted flash for every FTL that mounts",
          "[cli][power_cut][after_recovery]") {
  // Each request of the workload is completed before the cut, given up at it (in flight, never
  // acknowledged) or completed after it: the three add up to the uncut run's requests. Every read
  // after the cut returns what the recovery found or what was written since, and the new
  // firmware's mapping matches the flash at the end. Cuts by count and by time, with the write
  // buffer (volatile) and without.
  TempDir dir;
  for (const std::string ftl : {"page_mapping", "dftl", "cast"})
    for (const std::string buffer : {"page_lru", "off"}) {
      const json whole = successful_run(mlc_fsync(ftl, buffer), dir, ftl + buffer + "-whole.json");
      const std::uint64_t requests = whole["host"]["requests"].get<std::uint64_t>();
      for (const std::vector<std::string>& cut : {std::vector<std::string>{"--power-cut-after", "1500"},
                                                  {"--power-cut-after", "6100"},
                                                  {"--power-cut-at", "0.2"}}) {
        INFO(ftl << ", write buffer " << buffer << ", " << cut[0] << " " << cut[1]);
        const json r = successful_run(with(mlc_fsync(ftl, buffer), with(cut, {"--after-recovery", "continue"})), dir,
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
        CHECK(a["flash_pages_programmed"].get<std::uint64_t>() >= a["host_pages_written"].get<std::uint64_t>());
      }
    }
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
  const json r = successful_run(
      with(mlc_fsync("page_mapping", "page_lru"),
           {"--set", "firmware.plp=capacitors", "--set", "firmware.plp_hold_up_us=250000", "--set",
            "firmware.word_line_safety=false", "--power-cut-after", "4000", "--after-recovery", "continue"}),
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
  refused({"--power-cut-after", "100", "--after-recovery", "continue", "--ftl", "bast"}, "'bast'");
  refused({"--power-cut-after", "100", "--after-recovery", "continue", "--set", "core.model=iss"}, "core.model");
}

TEST_CASE("after recovery: map checkpoints go on in the slots the last ones used", "[cli][power_cut][after_recovery]") {
  // The new firmware holds back the same slots, erases before it programs what the checkpoints
  // before the cut wrote there, and numbers its checkpoints after theirs: none is abandoned.
  TempDir dir;
  const json r = successful_run(
      with(mlc_fsync("page_mapping", "page_lru"), {"--set", "firmware.checkpoint_interval_mib=4", "--power-cut-after",
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
