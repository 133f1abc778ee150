// ssdsim on bad input: every mistake in a platform file, an override, a trace or the command line
// ends with exit code 2 and a message that names the file (and line) and the parameter, never
// with a crash, an internal-error exit (3) or a hang. Plus the listing subcommands.
#include <catch2/catch.hpp>

#include <set>

#include "cli_support.h"
#include "fw/runtime/firmware_costs.h"

using namespace ssd::cli;

namespace {


// default.yaml (which lists every parameter) with the first occurrence of `from` replaced by
// `to`, written into `dir`. Fails if `from` is not there, so that a change to default.yaml cannot
// silently turn the test into a test of nothing.
std::string default_with(const TempDir& dir, const std::string& name, const std::string& from, const std::string& to) {
  std::string text = read_text(default_platform());
  const std::size_t pos = text.find(from);
  INFO("platforms/default.yaml no longer contains '" << from << "'");
  REQUIRE(pos != std::string::npos);
  text.replace(pos, from.size(), to);
  return dir.write(name, text);
}

// 1-based number of the first line of platforms/default.yaml that starts with `prefix`.
int default_line_of(const std::string& prefix) {
  const auto lines = lines_of(read_text(default_platform()));
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].rfind(prefix, 0) == 0) return int(i) + 1;
  FAIL("platforms/default.yaml has no line starting with '" << prefix << "'");
  return -1;
}

// A quick run on `platform` (precondition none, a handful of requests) to learn its geometry.
Geometry probe_geometry(const TempDir& dir, const std::string& platform) {
  RunReport rr = run_report({"-p", platform, "--synthetic", "random", "--count", "1", "--precondition", "none"}, dir,
                            "probe.json");
  INFO(rr.result.describe());
  REQUIRE(rr.result.exited());
  REQUIRE(rr.result.exit_code == 0);
  REQUIRE(rr.has_report);
  return geometry_of(rr.report);
}

// One MSR Cambridge CSV line (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime).
std::string msr_line(std::uint64_t tick, const char* type, std::uint64_t offset, std::uint64_t size) {
  return std::to_string(128166372003061629ull + tick * 1000) + ",hm,0," + type + "," + std::to_string(offset) + "," +
         std::to_string(size) + ",1000\n";
}

}  // namespace

// ---- platform files ---------------------------------------------------------------------------

TEST_CASE("platform: out-of-range value names the file and the parameter", "[cli][platform]") {
  TempDir dir;
  const std::string p = default_with(dir, "zero_channels.yaml", "  channels: 8", "  channels: 0");
  SECTION("validate") { require_bad_input(run_ssdsim({"validate", p}, dir), {p, "geometry.channels", "[1, 64]"}); }
  SECTION("run") {
    require_bad_input(run_ssdsim({"run", "-p", p, "--synthetic", "random", "--count", "1", "--no-vcd", "-r",
                                  dir.file("r.json")},
                                 dir),
                      {p, "geometry.channels"});
    CHECK_FALSE(fs::exists(dir.file("r.json")));
  }
  SECTION("a real out of its range") {
    const std::string q = default_with(dir, "erase.yaml", "t_erase_us: 3500", "t_erase_us: -1");
    require_bad_input(run_ssdsim({"validate", q}, dir), {q, "nand.t_erase_us"});
  }
  SECTION("a list element out of its range") {
    const std::string q = default_with(dir, "tread.yaml", "t_read_us: [50, 75]", "t_read_us: [50, 0]");
    require_bad_input(run_ssdsim({"validate", q}, dir), {q, "nand.t_read_us"});
  }
}

TEST_CASE("platform: non-numeric value names the file, the parameter and the value", "[cli][platform]") {
  TempDir dir;
  const std::string p = default_with(dir, "eight.yaml", "  channels: 8", "  channels: eight");
  require_bad_input(run_ssdsim({"validate", p}, dir), {p, "geometry.channels", "eight"});
  const std::string q = default_with(dir, "clock.yaml", "  clock_mhz: 400          # 6.4 GB/s", "  clock_mhz: fast");
  require_bad_input(run_ssdsim({"validate", q}, dir), {q, "bus.clock_mhz", "fast"});
  const std::string b = default_with(dir, "bool.yaml", "multiplane: true", "multiplane: maybe");
  require_bad_input(run_ssdsim({"validate", b}, dir), {b, "nand.multiplane", "maybe"});
}

TEST_CASE("platform: unknown key (a typo) is rejected by name", "[cli][platform]") {
  TempDir dir;
  SECTION("the typo replaces the real key (which then takes its default)") {
    const std::string p = default_with(dir, "typo.yaml", "  channels: 8", "  chanels: 8");
    require_bad_input(run_ssdsim({"validate", p}, dir), {p, "unknown parameter", "geometry.chanels"});
  }
  SECTION("the typo is an extra key") {
    const std::string p = default_with(dir, "typo2.yaml", "  channels: 8", "  channels: 8\n  chanels: 8");
    require_bad_input(run_ssdsim({"validate", p}, dir), {p, "unknown parameter", "geometry.chanels"});
  }
  SECTION("an unknown section") {
    const std::string p = default_with(dir, "section.yaml", "core:", "cores:\n  count: 1\ncore:");
    require_bad_input(run_ssdsim({"validate", p}, dir), {p, "unknown parameter", "cores.count"});
  }
}

TEST_CASE("platform: keys missing from the file take their documented defaults", "[cli][platform]") {
  // A platform file needs to give only what differs from the defaults (tiny.yaml relies on it).
  TempDir dir;
  const std::string p = dir.write("minimal.yaml", "name: minimal\ngeometry:\n  channels: 2\n");
  const Result r = run_ssdsim({"validate", p}, dir);
  INFO(r.describe());
  REQUIRE(r.exited());
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "geometry.channels = 2"));
  CHECK(contains(r.out, "geometry.ways = 4"));            // schema default
  CHECK(contains(r.out, "channel.scheduler = fifo"));     // schema default
  CHECK(contains(r.out, "firmware.buffer_slots = 1024"));  // schema default
}

TEST_CASE("platform: YAML syntax error names file and line", "[cli][platform]") {
  TempDir dir;
  const int line = default_line_of("  ways:");
  const std::string p = default_with(dir, "syntax.yaml", "  ways: 4 ", "  ways: 4: 5 ");
  require_bad_input(run_ssdsim({"validate", p}, dir), {p + ":" + std::to_string(line) + ":", "YAML"});
  SECTION("unclosed flow sequence on the last line") {
    const std::string q = dir.write("flow.yaml", "name: x\ngeometry:\n  channels: 2\nnand:\n  t_read_us: [25, 50\n");
    const Result r = run_ssdsim({"validate", q}, dir);
    require_bad_input(r, {q + ":", "YAML"});
  }
}

TEST_CASE("platform: missing or unreadable file", "[cli][platform]") {
  TempDir dir;
  SECTION("missing file") {
    const std::string p = dir.file("no_such_platform.yaml");
    require_bad_input(run_ssdsim({"validate", p}, dir), {p});
    require_bad_input(
        run_ssdsim({"run", "-p", p, "--synthetic", "random", "--count", "1", "--no-vcd", "-r", dir.file("r.json")}, dir),
        {p});
  }
  SECTION("a directory instead of a file") {
    fs::create_directory(dir.path() / "platform_dir.yaml");
    const std::string p = dir.file("platform_dir.yaml");
    require_bad_input(run_ssdsim({"validate", p}, dir), {p});
  }
  SECTION("a YAML document that is not a map") {
    const std::string p = dir.write("list.yaml", "- 1\n- 2\n");
    require_bad_input(run_ssdsim({"validate", p}, dir), {p});
  }
}

TEST_CASE("platform: unknown FTL name", "[cli][platform][ftl]") {
  TempDir dir;
  const std::string p = default_with(dir, "ftl.yaml", "name: page_mapping", "name: hybrid_log");
  // The message names the file, the key, the bad value and what is available.
  require_bad_input(run_ssdsim({"validate", p}, dir), {p, "ftl.name", "hybrid_log", "page_mapping"});
  SECTION("--ftl on the command line") {
    require_bad_input(run_ssdsim({"run", "--ftl", "hybrid_log", "--synthetic", "random", "--count", "1", "--no-vcd",
                                  "-r", dir.file("r.json")},
                                 dir),
                      {"ftl.name", "hybrid_log", "page_mapping"});
  }
}

TEST_CASE("platform: bad FTL parameter value", "[cli][platform][ftl]") {
  TempDir dir;
  const std::vector<std::string> quick = {"--synthetic", "random", "--count", "1", "--precondition", "none",
                                          "--no-vcd",    "-r",     dir.file("r.json")};
  SECTION("in the platform file") {
    const std::string p = default_with(dir, "op.yaml", "overprovisioning: 0.07", "overprovisioning: 2");
    std::vector<std::string> args{"run", "-p", p};
    args.insert(args.end(), quick.begin(), quick.end());
    require_bad_input(run_ssdsim(args, dir), {"ftl.overprovisioning", "[0, 0.9]"});
  }
  SECTION("with --set") {
    std::vector<std::string> args{"run", "--set", "ftl.overprovisioning=2"};
    args.insert(args.end(), quick.begin(), quick.end());
    require_bad_input(run_ssdsim(args, dir), {"ftl.overprovisioning"});
  }
  SECTION("not a number") {
    std::vector<std::string> args{"run", "--set", "ftl.gc_threshold_blocks=many"};
    args.insert(args.end(), quick.begin(), quick.end());
    require_bad_input(run_ssdsim(args, dir), {"ftl.gc_threshold_blocks", "many"});
  }
  CHECK_FALSE(fs::exists(dir.file("r.json")));
}

TEST_CASE("platform: unknown FTL parameter", "[cli][platform][ftl]") {
  TempDir dir;
  const std::string p = default_with(dir, "ftlkey.yaml", "overprovisioning: 0.07", "overprovisoning: 0.07");
  require_bad_input(run_ssdsim({"run", "-p", p, "--synthetic", "random", "--count", "1", "--precondition", "none",
                                "--no-vcd", "-r", dir.file("r.json")},
                               dir),
                    {"unknown parameter", "ftl.overprovisoning"});
}

TEST_CASE("validate checks the FTL's parameters too", "[cli][platform][ftl]") {
  // `ssdsim validate` promises to check a platform file: a file that `run` rejects for its ftl:
  // section must not be reported valid.
  TempDir dir;
  SECTION("value out of range") {
    const std::string p = default_with(dir, "op.yaml", "overprovisioning: 0.07", "overprovisioning: 2");
    require_bad_input(run_ssdsim({"validate", p}, dir), {"ftl.overprovisioning"});
  }
  SECTION("unknown parameter") {
    const std::string p = default_with(dir, "ftlkey.yaml", "overprovisioning: 0.07", "overprovisoning: 0.07");
    require_bad_input(run_ssdsim({"validate", p}, dir), {"unknown parameter", "ftl.overprovisoning"});
  }
}

// ---- --set overrides --------------------------------------------------------------------------

TEST_CASE("set override: unknown key", "[cli][set]") {
  TempDir dir;
  require_bad_input(run_ssdsim({"validate", default_platform(), "--set", "chanels=4"}, dir),
                    {"unknown parameter", "chanels"});
  require_bad_input(run_ssdsim({"validate", default_platform(), "--set", "geometry.chanels=4"}, dir),
                    {"unknown parameter", "geometry.chanels"});
  require_bad_input(run_ssdsim({"run", "--set", "chanels=4", "--synthetic", "random", "--count", "1", "--no-vcd", "-r",
                                dir.file("r.json")},
                               dir),
                    {"unknown parameter", "chanels"});
}

TEST_CASE("set override: an ambiguous short key lists the candidates", "[cli][set]") {
  // Short keys (the last component) that several schema keys share, from `ssdsim params`.
  TempDir dir;
  const Result params = run_ssdsim({"params"}, dir);
  REQUIRE(params.exit_code == 0);
  std::map<std::string, std::vector<std::string>> by_short;
  for (const auto& line : lines_of(params.out)) {
    std::stringstream s(line);
    std::string key;
    s >> key;
    const std::size_t dot = key.rfind('.');
    if (key.empty() || dot == std::string::npos || key.find('<') != std::string::npos) continue;
    by_short[key.substr(dot + 1)].push_back(key);
  }
  std::set<std::string> top_level;  // keys without a dot: "--set name=..." names them exactly
  for (const auto& line : lines_of(params.out)) {
    std::stringstream s(line);
    std::string key;
    s >> key;
    if (!key.empty() && key.find('.') == std::string::npos) top_level.insert(key);
  }
  int ambiguous = 0;
  for (const auto& [short_key, full] : by_short) {
    if (full.size() < 2 || top_level.count(short_key)) continue;
    ++ambiguous;
    std::vector<std::string> needles{"ambiguous", short_key};
    needles.insert(needles.end(), full.begin(), full.end());
    require_bad_input(run_ssdsim({"validate", default_platform(), "--set", short_key + "=1"}, dir), needles);
  }
  // The schema has such keys today (latency_ns: sram, dram, host); if it ever has none, this
  // test has nothing to check and says so.
  CHECK(ambiguous > 0);
}

TEST_CASE("set override: a unique short key and a full key both work", "[cli][set]") {
  TempDir dir;
  const Result r = run_ssdsim({"validate", default_platform(), "--set", "channels=4", "--set", "nand.t_erase_us=2000"},
                              dir);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "geometry.channels = 4"));
  CHECK(contains(r.out, "nand.t_erase_us = 2000"));
}

TEST_CASE("set override: every key listed by ssdsim params is accepted at its default", "[cli][set]") {
  TempDir dir;
  const Result params = run_ssdsim({"params"}, dir);
  REQUIRE(params.exit_code == 0);
  int checked = 0;
  for (const auto& line : lines_of(params.out)) {
    std::stringstream s(line);
    std::string key;
    s >> key;
    const std::size_t d = line.find(" default ");
    if (key.empty() || key.find('<') != std::string::npos || d == std::string::npos) continue;
    std::stringstream rest(line.substr(d + 9));
    std::string value;
    rest >> value;
    const Result r = run_ssdsim({"validate", default_platform(), "--set", key + "=" + value}, dir);
    INFO("--set " << key << "=" << value);
    INFO(r.describe());
    CHECK(r.exit_code == 0);
    ++checked;
  }
  CHECK(checked > 40);
}

TEST_CASE("set override: malformed override", "[cli][set]") {
  TempDir dir;
  require_bad_input(run_ssdsim({"validate", default_platform(), "--set", "channels"}, dir), {"channels", "key=value"});
  require_bad_input(run_ssdsim({"validate", default_platform(), "--set", "=4"}, dir), {"key=value"});
  require_bad_input(run_ssdsim({"validate", default_platform(), "--set", "channels=x"}, dir),
                    {"geometry.channels", "'x'"});
  require_bad_input(run_ssdsim({"run", "--set", "channels", "--synthetic", "random", "--count", "1", "--no-vcd", "-r",
                                dir.file("r.json")},
                               dir),
                    {"channels", "key=value"});
}

// ---- traces -----------------------------------------------------------------------------------

TEST_CASE("trace: malformed line names the file and the line", "[cli][trace]") {
  TempDir dir;
  const std::string good = msr_line(0, "Write", 0, 4096);
  std::string broken;
  SECTION("non-numeric offset") { broken = "128166372003062629,hm,0,Write,abc,4096,1000\n"; }
  SECTION("missing field") { broken = "128166372003062629,hm,0,Write,4096,1000\n"; }
  SECTION("unknown request type") { broken = "128166372003062629,hm,0,Trim,4096,4096,1000\n"; }
  SECTION("zero size") { broken = "128166372003062629,hm,0,Read,4096,0,1000\n"; }
  const std::string trace = dir.write("broken.csv", good + broken + msr_line(2, "Read", 0, 4096));
  for (const char* mode : {"open", "closed"}) {
    INFO("--mode " << mode);
    require_bad_input(run_ssdsim({"run", "-p", default_platform(), "-t", trace, "--mode", mode, "--precondition",
                                  "none", "--no-vcd", "-r", dir.file("r.json")},
                                 dir),
                      {trace + ":2:"});
  }
}

TEST_CASE("trace: missing trace file", "[cli][trace]") {
  TempDir dir;
  const std::string trace = dir.file("no_such_trace.csv");
  require_bad_input(run_ssdsim({"run", "-p", default_platform(), "-t", trace, "--precondition", "none", "--no-vcd",
                                "-r", dir.file("r.json")},
                               dir),
                    {trace});
}

TEST_CASE("trace: requests beyond the drive need --fold", "[cli][trace]") {
  TempDir dir;
  const Geometry g = probe_geometry(dir, tiny_platform());
  const std::uint64_t cap = g.capacity_bytes(), page = g.page_bytes;
  REQUIRE(cap > 4 * page);

  // The last page of the drive is inside it: this pins the capacity computed from the geometry
  // and overprovisioning (floor(total pages x (1 - op)) pages) to the drive's real one.
  SECTION("the last page is inside the drive") {
    const std::string t = dir.write("last.csv", msr_line(0, "Write", cap - page, page) +
                                                    msr_line(1, "Read", cap - page, page));
    RunReport rr = run_report({"-p", tiny_platform(), "-t", t, "--precondition", "none"}, dir);
    INFO(rr.result.describe());
    REQUIRE(rr.result.exit_code == 0);
    REQUIRE(rr.has_report);
    CHECK(rr.report["host"]["requests"] == 2);
    CHECK(rr.report["host"]["folded_requests"] == 0);
    CHECK(rr.report["integrity"]["mismatches"] == 0);
    CHECK(rr.report["integrity"]["pages_checked"].get<std::uint64_t>() >= 1);
  }

  std::string trace;
  std::uint64_t beyond = 0;
  SECTION("a request starting at the capacity") {
    trace = msr_line(0, "Write", 0, page) + msr_line(1, "Write", cap, page) + msr_line(2, "Read", cap, page) +
            msr_line(3, "Read", 0, page);
    beyond = 2;
  }
  SECTION("a request straddling the end") {
    trace = msr_line(0, "Write", cap - page / 2, page) + msr_line(1, "Read", cap - page / 2, page);
    beyond = 2;
  }
  SECTION("a request far beyond the end") {
    trace = msr_line(0, "Write", 1000 * cap, page) + msr_line(1, "Read", 1000 * cap, page);
    beyond = 2;
  }
  if (beyond) {
    const std::string t = dir.write("beyond.csv", trace);
    const Result r = run_ssdsim({"run", "-p", tiny_platform(), "-t", t, "--precondition", "none", "--no-vcd", "-r",
                                 dir.file("beyond.json")},
                                dir);
    require_bad_input(r, {"beyond the drive"});
    CHECK_FALSE(fs::exists(dir.file("beyond.json")));

    RunReport rr = run_report({"-p", tiny_platform(), "-t", t, "--precondition", "none", "--fold"}, dir);
    INFO(rr.result.describe());
    REQUIRE(rr.result.exited());
    REQUIRE(rr.result.exit_code == 0);
    REQUIRE(rr.has_report);
    CHECK(rr.report["host"]["folded_requests"] == beyond);
    CHECK(rr.report["integrity"]["mismatches"] == 0);
    CHECK(rr.report["integrity"]["mapping_check"] == "ok");
  }
}

// ---- command line -----------------------------------------------------------------------------

TEST_CASE("command line: unknown options and subcommands", "[cli]") {
  TempDir dir;
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"run", "--no-such-option"},
                                             {"run", "--frobnicate", "3"},
                                             {"frobnicate"},
                                             {},
                                             {"run", "--synthetic", "zigzag"},
                                             {"run", "--read-fraction", "1.5"},
                                             {"run", "--qd", "0"},
                                             {"run", "--mode", "sideways"},
                                             {"run", "--count", "many"},
                                             {"validate"}}) {
    const Result r = run_ssdsim(args, dir);
    INFO(r.describe());
    REQUIRE(r.exited());
    CHECK(r.exit_code == 2);  // documented: 2 = bad input (options, platform file, trace)
  }
}

TEST_CASE("command line: bad run options are bad input", "[cli]") {
  TempDir dir;
  const std::vector<std::string> base{"run", "--synthetic", "random", "--no-vcd", "-r", dir.file("r.json")};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  require_bad_input(run_ssdsim(with({"--precondition", "sometimes"}), dir), {"--precondition", "sometimes"});
  require_bad_input(run_ssdsim(with({"--precondition", "fill+random:abc"}), dir), {"fill+random"});
  require_bad_input(run_ssdsim(with({"--precondition", "fill+random:2x"}), dir), {"fill+random"});
  require_bad_input(run_ssdsim(with({"--precondition", "fill+steady:later"}), dir), {"fill+steady:run", "fill+steady:later"});
  require_bad_input(run_ssdsim(with({"--precondition", "fill+pe:lots"}), dir), {"pe:X", "fill+pe:lots"});
  require_bad_input(run_ssdsim(with({"--precondition", "fill+pe_spread:0.1"}), dir), {"+pe:N"});
  require_bad_input(run_ssdsim(with({"--precondition", "none+pe:100", "--set", "core.model=iss"}), dir),
                    {"core.model = iss", "aged"});
  require_bad_input(run_ssdsim(with({"--precondition", "none", "--request-bytes", "1000"}), dir),
                    {"request_bytes", "1000"});
  require_bad_input(run_ssdsim(with({"--precondition", "none", "--count", "0"}), dir), {"count"});
  require_bad_input(run_ssdsim(with({"--precondition", "none", "--qd", "17", "--set", "host.queue_depth=16"}), dir),
                    {"queue_depth", "17"});
}

TEST_CASE("platform: an ECC that cannot be is bad input naming the parameter", "[cli][platform][reliability]") {
  TempDir dir;
  const std::vector<std::string> base{"validate", tiny_platform(), "--set", "reliability.errors=true"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  // tiny: 4 KiB pages, 128 spare bytes: four 1 KiB codewords have 32 parity bytes each at most.
  require_bad_input(run_ssdsim(with({"--set", "ecc.parity_bytes=33"}), dir), {"ecc.parity_bytes", "at most 32"});
  require_bad_input(run_ssdsim(with({"--set", "ecc.codeword_bytes=8192", "--set", "ecc.parity_bytes=8"}), dir),
                    {"ecc.codeword_bytes", "geometry.page_bytes"});
  require_bad_input(run_ssdsim(with({"--set", "ecc.parity_bytes=32", "--set", "ecc.soft_levels=2", "--set",
                                     "ecc.soft_correctable_bits=10"}),
                               dir),
                    {"ecc.soft_correctable_bits", "more than ecc.correctable_bits"});
}

TEST_CASE("command line: a negative count is rejected, not wrapped around", "[cli]") {
  // CLI11 parses unsigned options with strtoull, which accepts "-5" as 2^64 - 5: the run would
  // then go on practically forever. It must be refused as bad input instead.
  TempDir dir;
  const Result r = run_ssdsim({"run", "--synthetic", "random", "--count", "-5", "--precondition", "none", "--no-vcd",
                               "-q", "-r", dir.file("r.json")},
                              dir, 15);
  INFO(r.describe());
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.exited());
  CHECK(r.exit_code == 2);
}

TEST_CASE("command line: unwritable output paths are bad input, not internal errors", "[cli]") {
  TempDir dir;
  const std::string file = dir.write("a_file", "not a directory\n");
  SECTION("report") {
    const std::string report = file + "/report.json";
    const Result r = run_ssdsim({"run", "--synthetic", "random", "--count", "10", "--precondition", "none",
                                 "--no-vcd", "-q", "-r", report},
                                dir);
    require_bad_input(r, {report});
  }
  SECTION("waveform") {
    const std::string vcd = file + "/run.vcd";
    const Result r = run_ssdsim({"run", "--synthetic", "random", "--count", "10", "--precondition", "none", "--vcd",
                                 vcd, "-q", "-r", dir.file("r.json")},
                                dir);
    require_bad_input(r, {vcd});
  }
}

// ---- listing subcommands ----------------------------------------------------------------------

TEST_CASE("ftls lists page_mapping", "[cli]") {
  TempDir dir;
  const Result r = run_ssdsim({"ftls"}, dir);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  bool found = false;
  for (const auto& line : lines_of(r.out)) found |= line.rfind("page_mapping ", 0) == 0;
  CHECK(found);
}

// A key of an FTL's own firmware costs (firmware_cycles.<ftl>.<cost>, or its subsection's
// heading firmware_cycles.<ftl>): an FTL parameter (ftl.cycles.<cost>), not a platform key.
static bool per_ftl_cost(const std::string& key) {
  if (key.rfind("firmware_cycles.", 0) != 0) return false;
  const std::string rest = key.substr(std::string("firmware_cycles.").size());
  if (rest == "source") return false;
  for (const char* cost : ssd::fw::kFirmwareCostNames)
    if (rest == cost) return false;
  return true;
}

TEST_CASE("validate accepts the shipped platforms", "[cli]") {
  TempDir dir;
  const Result tiny = run_ssdsim({"validate", tiny_platform()}, dir);
  INFO(tiny.describe());
  CHECK(tiny.exit_code == 0);
  CHECK(contains(tiny.out, "valid platform 'tiny'"));

  // Every value in default.yaml is what validate reports as effective.
  const Result def = run_ssdsim({"validate", default_platform()}, dir);
  INFO(def.describe());
  REQUIRE(def.exit_code == 0);
  const std::string text = read_text(default_platform());
  for (const std::string& key : simple_yaml_keys(text)) {
    if (key.rfind("ftl.", 0) == 0 && key != "ftl.name") continue;  // FTL parameters: not in the platform table
    if (per_ftl_cost(key)) continue;
    INFO("key " << key);
    CHECK(contains(def.out, "  " + key + " = "));
  }
}

TEST_CASE("params lists every key of platforms/default.yaml", "[cli]") {
  TempDir dir;
  const Result r = run_ssdsim({"params"}, dir);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  std::set<std::string> listed;
  for (const auto& line : lines_of(r.out)) {
    std::stringstream s(line);
    std::string key;
    s >> key;
    listed.insert(key);
  }
  const auto keys = simple_yaml_keys(read_text(default_platform()));
  REQUIRE(keys.size() > 40);
  for (const auto& key : keys) {
    INFO("key " << key);
    if (key.rfind("ftl.", 0) == 0 && key != "ftl.name")
      CHECK(listed.count("ftl.<parameter>"));  // the FTL's own parameters are listed as a family
    else if (per_ftl_cost(key))
      CHECK(listed.count("firmware_cycles.<ftl>.<cost>"));
    else
      CHECK(listed.count(key));
  }
}

TEST_CASE("platform: memories too small for the firmware's tables are bad input", "[cli][platform]") {
  TempDir dir;
  // tiny's L2P is 13107 logical pages x 4 B = 51 KiB: it fits neither in 1 KiB of SRAM nor in a
  // 1 MiB DRAM that the data buffer (256 slots of 4 KiB) already fills.
  const Result r = run_ssdsim({"run", "-p", tiny_platform(), "--set", "sram.size_kib=1", "--set", "dram.size_mib=1",
                               "--set", "firmware.buffer_slots=256", "--set", "firmware.write_buffer=off", "--synthetic",
                               "random", "--count", "10", "--precondition", "none", "--no-vcd", "-q", "-r",
                               dir.file("r.json")},
                              dir);
  INFO(r.describe());
  REQUIRE(r.exited());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("fits neither in SRAM nor in the DRAM buffer") && Catch::Contains("dram.size_mib"));
  // The write buffer's share of that DRAM (1/16: 16 pages) cannot hold one command's 256 pages.
  const Result w = run_ssdsim({"validate", tiny_platform(), "--set", "dram.size_mib=1", "--set",
                               "firmware.buffer_slots=256"},
                              dir);
  INFO(w.describe());
  CHECK(w.exit_code == 2);
  CHECK_THAT(w.err, Catch::Contains("firmware.write_buffer_dram_share") && Catch::Contains("holds 16 pages") &&
                        Catch::Contains("firmware.buffer_slots = 256"));
}

TEST_CASE("trace: a request the data buffer cannot hold even split at MDTS is bad input naming the line",
          "[cli][trace][mdts]") {
  TempDir dir;
  // A 64 KiB request (16 pages of 4 KiB) with a buffer of 8 pages is split at the default MDTS of
  // 7 pages (7 + 7 + 2 commands): no longer refused (issue 32, item 7).
  write_text(dir.file("big.csv"),
             "128166386783630075,hm,0,Write,0,4096,100\n128166386783630080,hm,0,Write,8192,65536,100\n");
  const json split = successful_run({"-p", tiny_platform(), "--set", "firmware.buffer_slots=8", "-t", dir.file("big.csv"),
                                     "--precondition", "none"},
                                    dir);
  CHECK(split.at("host").at("mdts_splits").get<std::uint64_t>() == 1);
  CHECK(split.at("host").at("writes").get<std::uint64_t>() == 1 + 3);
  // With a one-page buffer, a 4 KiB write that starts mid-page spans two pages: no split at
  // MDTS (one page) makes it fit, so it is refused, naming the line and the buffer.
  write_text(dir.file("straddle.csv"),
             "128166386783630075,hm,0,Write,0,4096,100\n128166386783630080,hm,0,Write,2048,4096,100\n");
  const Result r = run_ssdsim({"run", "-p", tiny_platform(), "--set", "firmware.buffer_slots=1", "-t",
                               dir.file("straddle.csv"), "--precondition", "none", "--no-vcd", "-q", "-r",
                               dir.file("r.json")},
                              dir);
  INFO(r.describe());
  REQUIRE(r.exited());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("straddle.csv:2:") && Catch::Contains("firmware.buffer_slots = 1"));
}

TEST_CASE("run: --stall-seconds takes a non-negative number of seconds", "[cli][liveness]") {
  TempDir dir;
  require_bad_input(run_ssdsim({"run", "-p", tiny_platform(), "--synthetic", "random", "--count", "10", "--no-vcd",
                                "--stall-seconds", "-1"},
                               dir),
                    {"--stall-seconds"});
  // A healthy run with the guard on ends as usual.
  const Result ok = run_ssdsim({"run", "-p", tiny_platform(), "--synthetic", "random", "--count", "2000", "--no-vcd", "-q",
                                "--stall-seconds", "30"},
                               dir);
  INFO(ok.describe());
  CHECK(ok.exited());
  CHECK(ok.exit_code == 0);
}

TEST_CASE("run: requests larger than the drive's MDTS are split by the host, not refused", "[cli][mdts]") {
  TempDir dir;
  // One 4 MiB write and one 4 MiB read on the LAST paper's 2 KiB-page chip, whose data buffer
  // holds 1,024 pages (2 MiB): the default MDTS is 1,023 pages (an unaligned command must fit), so
  // 2,048 pages go as 1,023 + 1,023 + 2. They were refused before.
  write_text(dir.file("big.csv"), "128166386783630000,h,0,Write,0,4194304,0\n128166386783640000,h,0,Read,0,4194304,0\n");
  const json r = successful_run({"-p", source_path("platforms/single_chip_1g.yaml"), "--trace", dir.file("big.csv"),
                                 "--precondition", "none"},
                                dir);
  CHECK(r.at("host").at("mdts_splits").get<std::uint64_t>() == 2);
  CHECK(r.at("host").at("writes").get<std::uint64_t>() == 3);
  CHECK(r.at("host").at("reads").get<std::uint64_t>() == 3);
  CHECK(r.at("host").at("write_bytes").get<std::uint64_t>() == 4194304);
  CHECK(r.at("integrity").at("mismatches").get<std::uint64_t>() == 0);
  // An MDTS of 64 KiB: a 256 KiB write is four commands.
  write_text(dir.file("quarter.csv"), "128166386783630000,h,0,Write,8192,262144,0\n");
  const json q = successful_run({"-p", tiny_platform(), "--trace", dir.file("quarter.csv"), "--precondition", "none",
                                 "--set", "host.mdts_bytes=65536"},
                                dir, "q.json");
  CHECK(q.at("host").at("mdts_splits").get<std::uint64_t>() == 1);
  CHECK(q.at("host").at("writes").get<std::uint64_t>() == 4);
  // More than the data buffer holds is refused by name.
  require_bad_input(run_ssdsim({"run", "-p", tiny_platform(), "--trace", dir.file("quarter.csv"), "--no-vcd",
                                "--set", "host.mdts_bytes=1073741824"},
                               dir),
                    {"host.mdts_bytes"});
}
