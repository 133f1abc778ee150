// Bit errors end to end (reliability.errors): with error rates high enough that many pages never
// decode, every FTL still returns only the data last written or an honestly reported Unrecovered
// Read Error (the oracle), keeps its mapping consistent (the mapping check), and its counters add
// up; a fresh drive with the shipped error model never retries.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

// Tiny's 4 KiB pages as four 1 KiB codewords with 32 parity bytes each (its 128-byte spare area),
// correcting 18 bits. The retention term alone, constant (c^0 t^0 = 1): RBER 0.006 at the first
// read (51 errors expected in a codeword: every page fails), 0.00144 after the one retry step
// (12.2 expected: a codeword fails with probability 0.04, a page about one time in seven), no
// soft decoding. So every read retries once and about a seventh of the pages are lost, in host
// reads, read-modify-writes and GC or merge copies alike.
std::vector<std::string> tiny_ecc() {
  return {"--set", "reliability.errors=true", "--set", "ecc.codeword_bytes=1024", "--set", "ecc.parity_bytes=32",
          "--set", "ecc.correctable_bits=18"};
}
std::vector<std::string> injected_errors() {
  std::vector<std::string> a = tiny_ecc();
  for (const char* s : {"--set", "reliability.rber_epsilon=0", "--set", "reliability.rber_alpha=0", "--set",
                        "reliability.rber_gamma=0", "--set", "reliability.rber_beta=0.006", "--set", "reliability.rber_m=0",
                        "--set", "reliability.rber_n=0", "--set", "ecc.retry_steps=1", "--set", "ecc.retry_factor=0.24"})
    a.push_back(s);
  return a;
}

// What holds whatever the FTL: the host saw only reported losses, each lost page came from a
// read the ECC gave up on, and the dies read once per first read and once per retry step.
void check_reported_losses(const json& r) {
  const json& in = r.at("integrity");
  const json& rel = r.at("reliability");
  CHECK(u64(in["mismatches"]) == 0);
  CHECK(in["first_mismatch"] == "");
  CHECK(in["mapping_check"] == "ok");
  CHECK(u64(rel["uncorrectable_page_reads"]) > 0);
  CHECK(u64(rel["failed_host_reads"]) > 0);
  CHECK(u64(rel["reported_lost_pages"]) >= u64(rel["failed_host_reads"]));
  std::uint64_t by_steps = 0;
  for (const auto& n : rel["reads_by_retry_steps"]) by_steps += u64(n);
  CHECK(by_steps == u64(rel["page_reads_decoded"]));
  CHECK(rel["reads_by_retry_steps"].size() == 2);  // 0 or 1 retry step, no soft decoding
  CHECK(u64(rel["retry_steps"]) == u64(rel["reads_by_retry_steps"][1]));
  std::uint64_t die_reads = 0;
  for (const auto& ch : r["hardware"]["channels"])
    for (const auto& d : ch["dies"]) die_reads += u64(d["reads"]);
  CHECK(die_reads == u64(r["ftl_metrics"]["operations"]["reads_issued"]) + u64(rel["retry_steps"]));
  // The read latency's breakdown holds the decode and the retries.
  const json& stages = r["latency_breakdown"]["read"]["stages"];
  CHECK(stages["ecc_decode"]["mean_us"].get<double>() > 0);
  CHECK(stages["read_retry"]["mean_us"].get<double>() > 0);
  CHECK(stages["soft_decode"]["mean_us"].get<double>() == 0);
}

}  // namespace

TEST_CASE("read errors: every FTL reports each page it cannot read and returns no wrong data", "[cli][integrity][reliability]") {
  TempDir dir;
  for (const std::string& ftl : ftl_names(dir)) {
    INFO("ftl " << ftl);
    // 6 KiB requests: one and a half pages, so read-modify-writes read old pages too.
    std::vector<std::string> args{"-p", tiny_platform(), "--ftl", ftl, "--synthetic", "random", "--count", "4000",
                                  "--read-fraction", "0.5", "--request-bytes", "6144", "--seed", "3"};
    for (const std::string& a : injected_errors()) args.push_back(a);
    const json r = successful_run(args, dir);
    INFO("reliability: " << r["reliability"].dump());
    INFO("integrity: " << r["integrity"].dump());
    check_reported_losses(r);
  }
}

TEST_CASE("read errors: the firmware image on the ISS reports lost pages as the host-compiled one does",
          "[cli][integrity][reliability][iss]") {
  TempDir dir;
  for (const std::string ftl : {"page_mapping", "bast"}) {
    INFO("ftl " << ftl);
    std::vector<std::string> args{"-p", tiny_platform(), "--ftl", ftl, "--set", "core.model=iss", "--precondition",
                                  "none", "--synthetic", "random", "--count", "1500", "--read-fraction", "0.5",
                                  "--request-bytes", "6144", "--seed", "3"};
    for (const std::string& a : injected_errors()) args.push_back(a);
    const json r = successful_run(args, dir);
    INFO("reliability: " << r["reliability"].dump());
    check_reported_losses(r);
  }
}

TEST_CASE("read errors: a fresh drive with the shipped 2y-nm MLC model never retries and does the same flash work",
          "[cli][reliability]") {
  TempDir dir;
  // Write-through, so the flash work follows the requests alone, not when the buffer evicts.
  const std::vector<std::string> run{"-p", tiny_platform(), "--synthetic", "random", "--count", "3000",
                                     "--read-fraction", "0.5", "--seed", "9", "--set", "firmware.write_buffer=off"};
  std::vector<std::string> with = run;
  for (const std::string& a : tiny_ecc()) with.push_back(a);
  const json off = successful_run(run, dir, "off.json"), on = successful_run(with, dir, "on.json");
  const json& rel = on.at("reliability");
  // RBER 8.34e-5 (the floor: c = 1, t and r small): 0.70 errors expected a codeword against 18.
  CHECK(rel["rber_mean"].get<double>() == Approx(8.34e-5).epsilon(0.001));
  CHECK(u64(rel["reads_by_retry_steps"][0]) == u64(rel["page_reads_decoded"]));
  CHECK(u64(rel["retry_steps"]) == 0);
  CHECK(u64(rel["uncorrectable_page_reads"]) == 0);
  // The same operations in the same order: the decode only delays each read's completion.
  CHECK(on["ftl_metrics"] == off["ftl_metrics"]);
  CHECK(on["latency_breakdown"]["read"]["stages"]["ecc_decode"]["p99_us"].get<double>() ==
        Approx(effective_number(on, "ecc.t_decode_us")).epsilon(0.01));
  CHECK_FALSE(off.contains("reliability"));
  CHECK_FALSE(off["latency_breakdown"]["read"]["stages"].contains("ecc_decode"));
}

TEST_CASE("read errors: an aged drive reads at the RBER its age gives, and retries more the older its data",
          "[cli][reliability][precondition]") {
  TempDir dir;
  auto aged = [&dir](const std::string& age, const std::string& name) {
    std::vector<std::string> args{"-p", tiny_platform(), "--synthetic", "random", "--read-fraction", "1", "--count",
                                  "2000", "--precondition", "fill+" + age};
    for (const std::string& a : tiny_ecc()) args.push_back(a);
    return successful_run(args, dir, name);
  };
  const json young = aged("pe:3000+days:30", "young.json"), old = aged("pe:3000+days:150", "old.json");
  // The 2y-nm MLC law at c = 3,000, t = 30 (150) days (plus the run's fraction of a second):
  // epsilon + alpha c^k + beta c^m t^n, and the disturb term gamma c^p r^q for r between one read
  // of the block (its first) and one more than the sensings (first reads and retry steps) a block had on average by the end.
  auto law = [](double t) {
    return 8.34e-5 + 3.30e-11 * std::pow(3000, 1.71) + 5.56e-19 * std::pow(3000, 2.49) * std::pow(t, 3.33);
  };
  auto disturb = [](double r) { return 6.26e-13 * std::pow(3000, 1.76) * std::pow(r, 0.47); };
  const Geometry g = geometry_of(old);
  for (const auto& [run, t] : {std::pair<const json&, double>{young, 30}, {old, 150}}) {
    INFO("data " << t << " days old");
    std::uint64_t sensings = 0;  // first reads and retry steps: each disturbs its block
    for (const auto& ch : run["hardware"]["channels"])
      for (const auto& d : ch["dies"]) sensings += u64(d["reads"]);
    const double reads_per_block = double(sensings) / double(g.planes() * g.blocks_per_plane) + 1;
    CHECK(run["reliability"]["rber_mean"].get<double>() >= law(t) + disturb(1) * 0.999);
    CHECK(run["reliability"]["rber_mean"].get<double>() <= law(t) + disturb(reads_per_block) * 1.001);
  }
  CHECK(u64(young["reliability"]["retry_steps"]) == 0);  // 1.3e-4: 1.1 errors expected against 18
  CHECK(u64(old["reliability"]["retry_steps"]) > u64(old["reliability"]["page_reads_decoded"]));  // 4.6e-3: 38 expected
  CHECK(old["host"]["read_latency_us"]["mean"].get<double>() > young["host"]["read_latency_us"]["mean"].get<double>());
  // Every block was erased 3,000 times before the fill (and the fill erased none).
  CHECK(old["ftl_metrics"]["erases"] == 0);
  REQUIRE(old["hardware"]["erase_count_histogram"].size() == 1);
  CHECK(old["hardware"]["erase_count_histogram"][0][0] == 3000);
  const json& even = old["hardware"]["erase_count_spread"];
  CHECK(even["min"] == 3000);
  CHECK(even["max"] == 3000);
  CHECK(even["stdev"].get<double>() == 0);
  // Spread: each block's count drawn from N(3000, 300): over the tiny drive's blocks the mean and
  // standard deviation come out within four standard errors.
  const json spread = aged("pe:3000+pe_spread:0.1+days:30", "spread.json")["hardware"]["erase_count_spread"];
  const double blocks = double(g.planes() * g.blocks_per_plane);
  CHECK(spread["mean"].get<double>() == Approx(3000).margin(4 * 300 / std::sqrt(blocks)));
  CHECK(spread["stdev"].get<double>() == Approx(300).margin(4 * 300 / std::sqrt(2 * blocks)));
  CHECK(spread["min"].get<double>() < 3000 - 300);
  CHECK(spread["max"].get<double>() > 3000 + 300);
  CHECK_THAT(old["workload"]["precondition"].get<std::string>(), Catch::Contains("aged: 3000 P/E cycles"));
}

TEST_CASE("read reclaim: every FTL moves the data of a block read past the threshold, and keeps it intact",
          "[cli][integrity][reliability]") {
  TempDir dir;
  for (const std::string& ftl : ftl_names(dir)) {
    INFO("ftl " << ftl);
    // 90% reads over a 64-page range, written through to the flash: its blocks are read far more
    // than 100 times each. With the injected errors, moved pages that could not be read stay lost.
    std::vector<std::string> args{"-p", tiny_platform(), "--ftl", ftl, "--synthetic", "random", "--count", "6000",
                                  "--read-fraction", "0.9", "--range-bytes", "262144", "--request-bytes", "4096",
                                  "--seed", "5", "--set", "firmware.read_reclaim_reads=100", "--set",
                                  "firmware.write_buffer=off"};
    for (const std::string& a : injected_errors()) args.push_back(a);
    const json r = successful_run(args, dir);
    const json& f = r["ftl_metrics"];
    INFO("ftl_metrics: " << f.dump());
    check_reported_losses(r);
    CHECK(u64(f["read_reclaim_blocks"]) >= 1);
    CHECK(u64(f["read_reclaim_writes"]) >= 1);
    // A reclaim reads each page of its block once at most, and moves only pages it read.
    CHECK(u64(f["read_reclaim_reads"]) <= u64(f["read_reclaim_blocks"]) * geometry_of(r).pages_per_block);
    CHECK(u64(f["read_reclaim_writes"]) <= u64(f["read_reclaim_reads"]));
    CHECK(u64(f["flash_pages_programmed"]) == accounted_programs(f));
  }
}
