// Bit errors end to end (reliability.errors): with error rates high enough that many pages never
// decode, every FTL still returns only the data last written or an honestly reported Unrecovered
// Read Error (the oracle), keeps its mapping consistent (the mapping check), and its counters add
// up; a fresh drive with the shipped error model never retries.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

std::uint64_t u64(const json& j) { return j.get<std::uint64_t>(); }

// The retention term alone, constant (c^0 t^0 = 1): RBER 0.006 at the first read (52 errors
// expected in a 1,094-byte codeword correcting 40: nearly every 4 KiB page fails), 0.0036 after
// the one retry step (31.5 expected: about one codeword in twenty fails), no soft decoding. So
// most reads retry once and about a fifth of the pages are lost, in host reads, read-modify-
// writes and GC or merge copies alike.
std::vector<std::string> injected_errors() {
  return {"--set", "reliability.errors=true", "--set", "reliability.rber_epsilon=0", "--set", "reliability.rber_alpha=0",
          "--set", "reliability.rber_gamma=0",   "--set", "reliability.rber_beta=0.006",  "--set", "reliability.rber_m=0",
          "--set", "reliability.rber_n=0",       "--set", "ecc.retry_steps=1",            "--set", "ecc.retry_factor=0.6"};
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
  for (const char* a : {"--set", "reliability.errors=true"}) with.push_back(a);
  const json off = successful_run(run, dir, "off.json"), on = successful_run(with, dir, "on.json");
  const json& rel = on.at("reliability");
  // RBER 8.34e-5 (the floor: c = 1, t and r small): 0.73 errors expected a codeword against 40.
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
