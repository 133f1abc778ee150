// What a run writes besides the report: CSV rows for sweeps, and the report's time series and
// per-issuer figures checked against identities with the totals.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "cli_support.h"

using namespace ssd::cli;

TEST_CASE("outputs: --csv appends one row per run, with the header once", "[cli][outputs]") {
  TempDir dir;
  const std::string csv = dir.file("sweep.csv");
  std::vector<json> reports;
  for (const char* channels : {"1", "2"}) {
    reports.push_back(successful_run({"-p", tiny_platform(), "--set", std::string("channels=") + channels, "--synthetic",
                                      "random", "--count", "500", "--precondition", "none", "--csv", csv},
                                     dir, std::string("r") + channels + ".json"));
  }
  const std::vector<std::string> rows = lines_of(read_text(csv));
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].rfind("platform,ftl,workload,overrides,queue_depth,requests,reads,writes,simulated_s,", 0) == 0);
  for (int i = 0; i < 2; ++i) {
    const json& r = reports[i];
    const std::string channels = std::to_string(i + 1);
    // --set renames the platform (rows of a sweep are told apart) and is a column of its own,
    // by the parameter's declared key.
    CHECK(r["platform"]["name"] == "tiny [geometry.channels=" + channels + "]");
    CHECK(r["platform"]["overrides"] == json{{"geometry.channels", i + 1}});
    // The workload column is quoted and holds commas: check the head, then count from there.
    CHECK_THAT(rows[i + 1], Catch::StartsWith("\"tiny [geometry.channels=" + channels +
                                              "]\",\"page_mapping\",\"random 4096 B, writes, 500 requests"));
    CHECK_THAT(rows[i + 1], Catch::Contains("\",\"geometry.channels=" + channels + "\",16,500,0,500," +
                                            r["host"]["simulated_seconds"].dump() + ","));
    // The tail: GC, every resource class's busy share, the bottleneck, from the report (the
    // channel spread is the channels' own busy shares: on one channel min = mean = max).
    const json& u = r["utilization"];
    const json& busy = u["resources"];
    CHECK_THAT(rows[0], Catch::EndsWith(
                            "gc_runs,gc_copies,die_busy_mean,die_busy_max,channel_busy_mean,channel_busy_max,"
                            "system_bus_busy,dram_busy,sram_busy,host_link_to_device_busy,host_link_to_host_busy,"
                            "cores_busy,busiest_resource,busiest_busy,bound,energy_j,energy_per_request_j,"
                            "energy_per_gb_j,average_power_w,peak_power_w,energy_flash_j,energy_idle_states_j,ps0_s,"
                            "mismatches,wall_s,peak_rss_mib"));
    const json& e = r["energy"];
    CHECK_THAT(rows[i + 1], Catch::EndsWith(
                                "," + r["ftl_metrics"]["gc_runs"].dump() + "," + r["ftl_metrics"]["gc_copies"].dump() +
                                "," + u["dies"]["mean"].dump() + "," + u["dies"]["max"].dump() + "," +
                                u["channels"]["mean"].dump() + "," + u["channels"]["max"].dump() + "," +
                                busy["system bus"].dump() + "," + busy["dram"].dump() + "," + busy["sram"].dump() + "," +
                                busy["host link (to device)"].dump() + "," + busy["host link (to host)"].dump() + "," +
                                busy["cores"].dump() + "," + u["busiest"]["resource"].dump() + "," +
                                u["busiest"]["busy_fraction"].dump() + "," + u["bound"].dump() + "," +
                                e["total_j"].dump() + "," + e["per_request_j"].dump() + "," + e["per_gb_j"].dump() + "," +
                                e["average_w"].dump() + "," + e["peak_w"].dump() + "," + e["flash_j"].dump() + "," +
                                e["components_j"]["idle_states"].dump() + "," + e["states"]["ps0_s"].dump() + ",0," +
                                r["simulation"]["wall_seconds"].dump() + "," + r["simulation"]["peak_rss_mib"].dump()));
    double mean = 0, max = 0;
    for (const auto& c : r["hardware"]["channels"]) {
      mean += c["busy_fraction"].get<double>() / r["hardware"]["channels"].size();
      max = std::max(max, c["busy_fraction"].get<double>());
    }
    CHECK(u["channels"]["mean"].get<double>() == Approx(mean));
    CHECK(u["channels"]["max"].get<double>() == max);
  }
}

TEST_CASE("outputs: --set names the platform after its overrides, unless it sets the name", "[cli][outputs]") {
  TempDir dir;
  const json r = successful_run({"-p", tiny_platform(), "--set", "ways=2", "--set", "channel.rate_mts=333.5", "--set",
                                 "ftl.overprovisioning=0.3", "--ftl", "dftl", "--synthetic", "random", "--count", "200",
                                 "--precondition", "none"},
                                dir);
  // In the order given, by declared key, with effective values; the FTL is named on its own.
  CHECK(r["platform"]["name"] == "tiny [geometry.ways=2, channel.rate_mts=333.5, ftl.overprovisioning=0.3]");
  CHECK(r["platform"]["overrides"] ==
        json({{"geometry.ways", 2}, {"channel.rate_mts", 333.5}, {"ftl.overprovisioning", 0.3}, {"ftl.name", "dftl"}}));
  const json named = successful_run({"-p", tiny_platform(), "--set", "ways=2", "--set", "name=my tiny", "--synthetic",
                                     "random", "--count", "200", "--precondition", "none"},
                                    dir, "named.json");
  CHECK(named["platform"]["name"] == "my tiny");
  const json plain = successful_run(
      {"-p", tiny_platform(), "--synthetic", "random", "--count", "200", "--precondition", "none"}, dir, "plain.json");
  CHECK(plain["platform"]["name"] == "tiny");
  // A key only another FTL reads (a per-FTL subsection) keeps the value as given.
  const json other = successful_run({"-p", tiny_platform(), "--set", "ftl.dftl.cmt_bytes=65536", "--synthetic", "random",
                                     "--count", "200", "--precondition", "none"},
                                    dir, "other.json");
  CHECK(other["platform"]["name"] == "tiny [ftl.dftl.cmt_bytes=65536]");
  CHECK(other["platform"]["overrides"] == json{{"ftl.dftl.cmt_bytes", "65536"}});
  CHECK(plain["platform"]["overrides"] == json::object());
}

TEST_CASE("outputs: the report's over-time points and issuers add up to its totals", "[cli][outputs]") {
  TempDir dir;
  const json r = successful_run({"-p", tiny_platform(), "--synthetic", "random", "--read-fraction", "0.5", "--count",
                                 "3000", "--issuers", "3", "--precondition", "none"},
                                dir);
  const json& h = r["host"];
  std::uint64_t reads = 0, writes = 0;
  double weighted_latency = 0;
  for (const auto& p : h["over_time"]["points"]) {
    reads += p["reads"].get<std::uint64_t>();
    writes += p["writes"].get<std::uint64_t>();
    weighted_latency += p["mean_latency_us"].get<double>() * (p["reads"].get<double>() + p["writes"].get<double>());
  }
  CHECK(reads == h["reads"].get<std::uint64_t>());
  CHECK(writes == h["writes"].get<std::uint64_t>());
  CHECK(weighted_latency / 3000 == Approx(h["latency_us"]["mean"].get<double>()).epsilon(1e-6));
  CHECK(h["over_time"]["points"].size() <= 1000);
  // Request i comes from issuer i % 3: 1000 each.
  REQUIRE(h["issuers"].size() == 3);
  for (const auto& [id, stats] : h["issuers"].items()) {
    INFO("issuer " << id);
    CHECK(stats["reads"].get<std::uint64_t>() + stats["writes"].get<std::uint64_t>() == 1000);
    CHECK(stats["latency_us"]["count"].get<std::uint64_t>() == 1000);
  }
  CHECK(h["latency_us"]["p99_99"].get<double>() >= h["latency_us"]["p99_9"].get<double>());
  CHECK(h["latency_us"]["p99_99"].get<double>() <= h["latency_us"]["max"].get<double>());
}

TEST_CASE("outputs: reports of every kind of run follow docs/report.schema.json", "[cli][outputs][schema]") {
  // Validated by tools/check_report.py (Debian's python3-jsonschema): page mapping after
  // fill+steady with issuers, a hybrid and a demand FTL (their own counters), a job file with
  // iodepths, one with flushes and FUA writes (and cut short by a power cut), a trace with a skipped line, trims,
  // two tenants on queues of their own with their alone runs, read errors with retries and soft decoding. Then a report broken three ways must fail, naming
  // each problem.
  TempDir dir;
  const std::vector<std::vector<std::string>> runs = {
      {"--synthetic", "random", "--count", "2000", "--issuers", "3", "--precondition", "fill+steady"},
      {"--synthetic", "random", "--count", "2000", "--ftl", "last", "--precondition", "fill"},
      {"--synthetic", "random", "--count", "2000", "--ftl", "cast", "--precondition", "fill"},
      {"--jobs", source_path("workloads/per_job_depth.yaml"), "--precondition", "none"},
      {"--jobs", source_path("workloads/database_fsync.yaml"), "--precondition", "none"},
      {"--jobs", source_path("workloads/database_fsync.yaml"), "--precondition", "none", "--power-cut-after", "3000"},
      {"--synthetic", "random", "--count", "3000", "--ftl", "dftl", "--set", "firmware.write_buffer=off",
       "--power-cut-after", "1500", "--after-recovery", "continue"},
      {"--trace", dir.file("bad_line.csv"), "--skip-bad-lines", "--fold", "--precondition", "none"},
      {"--jobs", source_path("workloads/trim_mix.yaml")},
      {"--jobs", source_path("workloads/two_tenants.yaml"), "--alone-runs", "--set", "host.arbitration=wrr", "--set",
       "host.controller_commands=8", "--set", "host.coalescing_threshold=4", "--set", "host.coalescing_time_us=50",
       "--set", "channel.scheduler=flow_priority"},
      {"--synthetic", "random", "--count", "2000", "--set", "reliability.errors=true", "--set", "ecc.parity_bytes=32",
       "--set", "ecc.correctable_bits=18", "--set", "reliability.rber_beta=0.006",
       "--set", "reliability.rber_m=0", "--set", "reliability.rber_n=0", "--set", "ecc.retry_steps=1", "--set",
       "ecc.soft_levels=1", "--set", "ecc.soft_correctable_bits=60"},
  };
  write_text(dir.file("bad_line.csv"), "128166386783630075,hm,0,Write,3164164096,40960,2896\n"
                                       "128166386783630309,hm,0,Scribble,3164147712,16384,2663\n"
                                       "128166386783640309,hm,0,Read,3164147712,16384,2663\n");
  std::string reports;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    std::vector<std::string> args = {"-p", tiny_platform()};
    args.insert(args.end(), runs[i].begin(), runs[i].end());
    const std::string name = "report" + std::to_string(i) + ".json";
    successful_run(args, dir, name);
    reports += " " + dir.file(name);
  }
  auto check = [&dir](const std::string& files) {
    const std::string command = "/usr/bin/python3 " + source_path("tools/check_report.py") + files + " > " +
                                dir.file("check.log") + " 2>&1";
    const int status = std::system(command.c_str());
    return std::make_pair(WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(dir.file("check.log")));
  };
  const auto [ok, ok_log] = check(reports);
  INFO(ok_log);
  CHECK(ok == 0);

  json broken = json::parse(read_text(dir.file("report0.json")));
  broken["host"].erase("iops");
  broken["hardware"]["channels"][0]["dies"][0]["busy_fraction"] = 1.5;
  broken["undocumented"] = 1;
  write_text(dir.file("broken.json"), broken.dump());
  const auto [bad, bad_log] = check(" " + dir.file("broken.json"));
  INFO(bad_log);
  CHECK(bad == 1);
  CHECK_THAT(bad_log, Catch::Contains("host: 'iops' is a required property"));
  CHECK_THAT(bad_log, Catch::Contains("hardware/channels/0/dies/0/busy_fraction"));
  CHECK_THAT(bad_log, Catch::Contains("'undocumented' was unexpected"));
}

TEST_CASE("outputs: no WAF when no page reached the FTL, and skipped trace lines in the summary", "[cli][outputs]") {
  TempDir dir;
  auto run = [&dir](std::vector<std::string> args, const std::string& report) {  // with the summary (no -q)
    args.insert(args.begin(), {"run", "-p", tiny_platform()});
    args.insert(args.end(), {"--no-vcd", "-r", dir.file(report)});
    const Result r = run_ssdsim(args, dir);
    INFO(r.describe());
    REQUIRE(r.exited());
    REQUIRE(r.exit_code == 0);
    return std::make_pair(r.output(), load_json(dir.file(report)));
  };
  // 8 one-page writes into an empty drive with the default write buffer: all of them stay in the
  // buffer, the FTL is given nothing, and there is no ratio to report (null, "-" in the summary).
  const auto [held_text, held] = run({"--synthetic", "random", "--read-fraction", "0", "--count", "8", "--request-bytes",
                                      "4096", "--precondition", "none"},
                                     "held.json");
  const json& ftl = held.at("ftl_metrics");
  REQUIRE(ftl.at("host_pages_written").get<std::uint64_t>() == 0);
  CHECK(ftl.at("waf").is_null());
  CHECK(held.at("write_buffer").at("pages_at_end").get<double>() == 8);
  CHECK(contains(held_text, "WAF - (no page reached the FTL)"));
  // A trace with a malformed line, skipped: the summary says so, and which line.
  write_text(dir.file("bad_line.csv"), "128166386783630075,hm,0,Write,3164164096,40960,2896\n"
                                       "128166386783630309,hm,0,Scribble,3164147712,16384,2663\n"
                                       "128166386783640309,hm,0,Read,3164147712,16384,2663\n");
  const auto [skipped_text, skipped] =
      run({"--trace", dir.file("bad_line.csv"), "--skip-bad-lines", "--fold", "--precondition", "none"}, "skipped.json");
  CHECK(skipped.at("workload").at("skipped_lines").get<std::uint64_t>() == 1);
  CHECK(contains(skipped_text, "skipped: 1 malformed trace line (--skip-bad-lines); the first: "));
  CHECK(contains(skipped_text, "bad_line.csv:2"));
}

TEST_CASE("outputs: tools/plot_report.py draws the four plots of a report as PNG images", "[cli][outputs][plots]") {
  TempDir dir;
  successful_run({"-p", tiny_platform(), "--synthetic", "random", "--count", "2000", "--precondition", "fill"}, dir);
  const std::string command = "/usr/bin/python3 " + source_path("tools/plot_report.py") + " " + dir.file("report.json") +
                              " --out " + dir.file("plots") + " > " + dir.file("plot.log") + " 2>&1";
  const int status = std::system(command.c_str());
  INFO(command << "\n" << read_text(dir.file("plot.log")));
  REQUIRE(status == 0);
  for (const char* name : {"latency_cdf", "over_time", "die_busy", "erase_counts"}) {
    INFO(name);
    const std::string png = read_text(dir.file(std::string("plots/") + name + ".png"));
    REQUIRE(png.size() > 1000);
    CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);  // PNG signature
    // IHDR width and height (big-endian at bytes 16-23) are not zero.
    auto be32 = [&png](std::size_t at) {
      return (std::uint32_t(std::uint8_t(png[at])) << 24) | (std::uint32_t(std::uint8_t(png[at + 1])) << 16) |
             (std::uint32_t(std::uint8_t(png[at + 2])) << 8) | std::uint32_t(std::uint8_t(png[at + 3]));
    };
    CHECK(be32(16) > 100);
    CHECK(be32(20) > 100);
  }
}

namespace {
// A run that writes a waveform (successful_run turns waveforms off).
void run_with_waveform(std::vector<std::string> args, const TempDir& dir) {
  std::vector<std::string> full{"run", "-p", tiny_platform(), "--synthetic", "random", "--count", "300",
                                "--precondition", "none", "-q", "-r", dir.file("waves.json")};
  full.insert(full.end(), args.begin(), args.end());
  const Result result = run_ssdsim(full, dir);
  INFO(result.describe());
  REQUIRE(result.exited());
  REQUIRE(result.exit_code == 0);
}
}  // namespace

TEST_CASE("waves: signal groups, FST output, and a headless PNG of the waveform", "[cli][outputs][waves]") {
  TempDir dir;
  // Only the host and channel 0: the other channels' and the cores' signals are not declared.
  const std::string vcd = dir.file("groups.vcd");
  run_with_waveform({"--vcd", vcd, "--vcd-signals", "host,channel0"}, dir);
  const std::string text = read_text(vcd);
  CHECK(contains(text, "$scope module host $end"));
  CHECK(contains(text, "$scope module host_interface $end"));
  CHECK(contains(text, "$scope module channel0 $end"));
  CHECK_FALSE(contains(text, "$scope module channel1 $end"));
  CHECK_FALSE(contains(text, "$scope module cores $end"));

  // A .fst path: traced as VCD, converted by vcd2fst, the VCD removed.
  const std::string fst = dir.file("run.fst");
  run_with_waveform({"--vcd", fst}, dir);
  CHECK(fs::file_size(fst) > 100);
  CHECK_FALSE(fs::exists(fst + ".vcd"));

  // Rendered without a display: a 1600 x 900 PNG, not a uniform image (the waves are drawn).
  const std::string png = dir.file("waves.png");
  const std::string command = source_path("tools/render_waves.sh") + " " + fst + " " + png + " > " +
                              dir.file("render.log") + " 2>&1";
  const int status = std::system(command.c_str());
  INFO(command << "\n" << read_text(dir.file("render.log")));
  REQUIRE(status == 0);
  const std::string image = read_text(png);
  REQUIRE(image.size() > 10000);
  CHECK(image.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  auto be32 = [&image](std::size_t at) {
    return (std::uint32_t(std::uint8_t(image[at])) << 24) | (std::uint32_t(std::uint8_t(image[at + 1])) << 16) |
           (std::uint32_t(std::uint8_t(image[at + 2])) << 8) | std::uint32_t(std::uint8_t(image[at + 3]));
  };
  CHECK(be32(16) == 1600);
  CHECK(be32(20) == 900);
}

TEST_CASE("jobs: the example job files run, with one issuer per job, bad job files are named", "[cli][jobs]") {
  TempDir dir;
  for (const char* file : {"workloads/oltp_and_backup.yaml", "workloads/rate_limited.yaml"}) {
    INFO(file);
    const json r = successful_run({"-p", tiny_platform(), "--jobs", source_path(file), "--precondition", "none"}, dir);
    CHECK(r["host"]["issuers"].size() == 2);
    CHECK(r["integrity"]["mismatches"] == 0);
  }
  const json open = successful_run({"-p", tiny_platform(), "--jobs", source_path("workloads/rate_limited.yaml"),
                                    "--precondition", "none"},
                                   dir);
  CHECK(open["workload"]["mode"] == "open-loop");
  CHECK(open["host"]["requests"] == 25000);

  const std::string bad = dir.file("bad.yaml");
  write_text(bad, "jobs:\n  - name: x\n    blocksize: 4096\n");
  const Result r = run_ssdsim({"run", "-p", tiny_platform(), "--jobs", bad, "--no-vcd", "-q", "-r", dir.file("b.json")}, dir);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains(bad + ":3: jobs[0]: unknown key 'blocksize'"));
  write_text(bad, "jobs:\n  - skew: zipf:high\n");
  const Result z = run_ssdsim({"run", "-p", tiny_platform(), "--jobs", bad, "--no-vcd", "-q", "-r", dir.file("b.json")}, dir);
  CHECK(z.exit_code == 2);
  CHECK_THAT(z.err, Catch::Contains("jobs[0].skew: expected zipf:THETA"));
}

TEST_CASE("jobs: each job keeps its own iodepth outstanding (Little's law)", "[cli][jobs]") {
  // A depth-1 reader always has exactly one request outstanding, so while it runs the sum of its
  // latencies is the time that passed: count x mean latency = the simulated time when the reader
  // finishes last. The writer's 31 requests in flight bound its share the same way.
  TempDir dir;
  const json r = successful_run({"-p", tiny_platform(), "--jobs", source_path("workloads/per_job_depth.yaml"),
                                 "--precondition", "none"},
                                dir);
  CHECK(r["workload"]["queue_depth"] == 32);
  const json& reader = r["host"]["issuers"]["0"];
  const json& writer = r["host"]["issuers"]["1"];
  REQUIRE(reader["reads"] == 5000);
  REQUIRE(writer["writes"] == 40000);
  const double t = r["host"]["simulated_seconds"].get<double>();
  const double reader_busy = 5000 * reader["latency_us"]["mean"].get<double>() * 1e-6;
  const double writer_busy = 40000 * writer["latency_us"]["mean"].get<double>() * 1e-6 / 31;
  INFO("simulated " << t << " s, reader busy " << reader_busy << " s, writer busy " << writer_busy << " s");
  CHECK(std::max(reader_busy, writer_busy) == Approx(t).epsilon(0.01));
  CHECK(reader_busy <= t * 1.0001);
  CHECK(writer_busy <= t * 1.0001);

  // Every job or none has an iodepth; iodepth is for closed loop; the sum must fit the host queue.
  const std::string bad = dir.file("depths.yaml");
  write_text(bad, "jobs:\n  - iodepth: 4\n  - count: 10\n");
  Result e = run_ssdsim({"run", "-p", tiny_platform(), "--jobs", bad, "--no-vcd", "-q", "-r", dir.file("b.json")}, dir);
  CHECK(e.exit_code == 2);
  CHECK_THAT(e.err, Catch::Contains("either every job has an iodepth"));
  write_text(bad, "jobs:\n  - {iodepth: 4, rate_iops: 100}\n");
  e = run_ssdsim({"run", "-p", tiny_platform(), "--jobs", bad, "--no-vcd", "-q", "-r", dir.file("b.json")}, dir);
  CHECK(e.exit_code == 2);
  CHECK_THAT(e.err, Catch::Contains("iodepth applies to closed-loop jobs"));
  write_text(bad, "jobs:\n  - iodepth: 20\n  - iodepth: 20\n");
  e = run_ssdsim({"run", "-p", tiny_platform(), "--jobs", bad, "--no-vcd", "-q", "-r", dir.file("b.json")}, dir);
  CHECK(e.exit_code == 2);
  CHECK_THAT(e.err, Catch::Contains("iodepths add up to 40, more than host.queue_depth = 32"));
  // A repeat would count the next pass's requests against the last pass's depths.
  e = run_ssdsim({"run", "-p", tiny_platform(), "--jobs", source_path("workloads/per_job_depth.yaml"), "--repeat", "2",
                  "--precondition", "none", "--no-vcd", "-q", "-r", dir.file("b.json")},
                 dir);
  CHECK(e.exit_code == 2);
  CHECK_THAT(e.err, Catch::Contains("jobs with an iodepth cannot be repeated"));
}

TEST_CASE("waves: the firmware's GC activity is traced", "[cli][outputs][waves]") {
  // After a fill, 20,000 random writes on the tiny drive run GC on several planes at once.
  TempDir dir;
  const std::string vcd = dir.file("gc.vcd");
  const Result result = run_ssdsim({"run", "-p", tiny_platform(), "--synthetic", "random", "--count", "20000",
                                    "--precondition", "fill", "--vcd", vcd, "-q", "-r", dir.file("gc.json")},
                                   dir);
  REQUIRE(result.exit_code == 0);
  const std::string text = read_text(vcd);
  const std::size_t declared = text.find("gc_running $end");
  REQUIRE(declared != std::string::npos);
  // Its identifier code is the token before "gc_running"; count value changes of it after #0.
  const std::size_t code_end = text.rfind(' ', declared - 1);
  const std::size_t code_start = text.rfind(' ', code_end - 1) + 1;
  const std::string code = text.substr(code_start, code_end - code_start);
  std::size_t changes = 0, at = text.find("\n#");
  while ((at = text.find(" " + code + "\n", at + 1)) != std::string::npos) ++changes;
  CHECK(changes > 10);
  CHECK(contains(text, "b10 " + code + "\n"));  // at least two reclaims in progress at once
}

TEST_CASE("waves: ADAPT's log partition and sequential threshold are traced under ssd.firmware.ftl",
          "[cli][outputs][waves]") {
  // Interleaved 64-256 KiB sequential streams and hot 4 KiB random writes on the tiny drive,
  // intervals of 200 writes and room for 4 sequential blocks: the partition grows, so the
  // waveform must show the moves and end where the report's gauges end.
  TempDir dir;
  const std::string jobs = dir.file("mix.yaml");
  write_text(jobs,
             "jobs:\n"
             "  - {name: small, pattern: random, read_fraction: 0.2, block_size: 4096, count: 12000,\n"
             "     range_start: 0, range_bytes: 16777216, skew: 'hotcold:0.1:0.9', weight: 8, seed: 3}\n"
             "  - {name: large, pattern: sequential, read_fraction: 0, block_size: [[65536, 0.5], [262144, 0.5]],\n"
             "     count: 600, range_start: 16777216, range_bytes: 25165824, weight: 1}\n");
  const std::string vcd = dir.file("adapt.vcd");
  const Result result =
      run_ssdsim({"run", "-p", tiny_platform(), "--ftl", "adapt", "--jobs", jobs, "--set", "ftl.interval_writes=200",
                  "--set", "ftl.max_sequential_blocks=4", "--precondition", "fill", "--vcd", vcd, "-q", "-r",
                  dir.file("adapt.json")},
                 dir);
  REQUIRE(result.exit_code == 0);
  const json gauges = load_json(dir.file("adapt.json"))["ftl_metrics"];
  REQUIRE(gauges["blocks_to_sequential_area"].get<double>() > 0);
  std::map<std::string, std::string> names;               // code -> name, in ssd.firmware.ftl
  std::map<std::string, std::vector<std::uint64_t>> values;  // name -> every value written, in order
  std::istringstream lines(read_text(vcd));
  std::string line, scope;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string w0, w1, w2, w3, w4;
    words >> w0 >> w1 >> w2 >> w3 >> w4;
    if (w0 == "$scope") scope = w2;
    if (w0 == "$var" && scope == "ftl") names[w3] = w4;
    if (!line.empty() && line[0] == 'b' && names.count(w1)) values[names[w1]].push_back(std::stoull(w0.substr(1), nullptr, 2));
  }
  for (const char* name : {"sequential_area_blocks", "random_area_blocks", "sequential_threshold_pages"}) {
    INFO(name);
    REQUIRE(!values[name].empty());
    CHECK(double(values[name].back()) == gauges[name].get<double>());
  }
  // Every log block is in one area at every moment; the sequential one started at one block.
  const auto& sequential = values["sequential_area_blocks"];
  const auto& random = values["random_area_blocks"];
  CHECK(sequential.front() == 1);
  CHECK(sequential.size() == std::size_t(gauges["blocks_to_sequential_area"].get<double>() +
                                         gauges["blocks_to_random_area"].get<double>()) + 1);
  REQUIRE(sequential.size() == random.size());
  for (std::size_t i = 0; i < sequential.size(); ++i) CHECK(sequential[i] + random[i] == sequential[0] + random[0]);
}

TEST_CASE("waves: busy share and power over time, as in the report, under ssd.utilization and ssd.power",
          "[cli][outputs][waves]") {
  // Random writes on the tiny drive after a fill: GC makes the dies' share vary over time.
  TempDir dir;
  const std::string vcd = dir.file("busy.vcd");
  const Result result = run_ssdsim({"run", "-p", tiny_platform(), "--synthetic", "random", "--count", "5000",
                                    "--precondition", "fill", "--vcd", vcd, "-q", "-r", dir.file("busy.json")},
                                   dir);
  REQUIRE(result.exit_code == 0);
  const json report = load_json(dir.file("busy.json"));
  const json over_time = report["utilization"]["over_time"];
  // Replay the file: the value of each signal of ssd.utilization and ssd.power at every time step.
  std::map<std::string, std::string> names, power_names;  // code -> name
  std::map<std::string, std::map<std::uint64_t, std::uint64_t>> changes;  // name -> time -> value
  std::istringstream lines(read_text(vcd));
  std::string line, scope;
  std::uint64_t now = 0, previous = 0;
  bool ordered = true;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string w0, w1, w2, w3, w4;
    words >> w0 >> w1 >> w2 >> w3 >> w4;
    if (w0 == "$scope") scope = w2;
    if (w0 == "$var" && scope == "utilization") names[w3] = w4;
    if (w0 == "$var" && scope == "power") power_names[w3] = w4;
    if (!line.empty() && line[0] == '#') {
      now = std::stoull(line.substr(1));
      ordered = ordered && (now > previous || previous == 0);
      previous = now;
    }
    if (!line.empty() && line[0] == 'b' && names.count(w1)) changes[names[w1]][now] = std::stoull(w0.substr(1), nullptr, 2);
    if (!line.empty() && line[0] == 'b' && power_names.count(w1))
      changes["power." + power_names[w1]][now] = std::stoull(w0.substr(1), nullptr, 2);
  }
  CHECK(ordered);
  REQUIRE(names.size() == over_time["series"].size());
  const double interval_ticks = over_time["interval_s"].get<double>() / 1e-11;  // 10 ps ticks
  for (const auto& [name, shares] : over_time["series"].items()) {
    std::string signal;
    for (const char c : name)
      if (c != '(' && c != ')') signal += c == ' ' ? '_' : c;
    INFO(signal);
    const auto& values = changes[signal];
    std::uint64_t value = 0;
    std::size_t varying = 0;
    for (std::size_t j = 0; j < shares.size(); ++j) {
      const auto t = static_cast<std::uint64_t>(double(j) * interval_ticks + 0.5);
      if (const auto it = values.find(t); it != values.end()) value = it->second, ++varying;
      CHECK(value == static_cast<std::uint64_t>(std::lround(shares[j].get<double>() * 1000)));
    }
    if (signal == "dies_mean") CHECK(varying > 3);
  }
  // Power: total_mw and every component's, each interval's mean in milliwatts.
  const json& power = report["energy"]["over_time"];
  REQUIRE(power_names.size() == power["component_w"].size() + 1);
  const double power_ticks = power["interval_s"].get<double>() / 1e-11;
  auto check_power = [&](const std::string& signal, const json& watts) {
    INFO(signal);
    const auto& values = changes["power." + signal];
    std::uint64_t value = 0;
    for (std::size_t j = 0; j < watts.size(); ++j) {
      const auto t = static_cast<std::uint64_t>(double(j) * power_ticks + 0.5);
      if (const auto it = values.find(t); it != values.end()) value = it->second;
      CHECK(value == static_cast<std::uint64_t>(std::llround(watts[j].get<double>() * 1000)));
    }
  };
  check_power("total_mw", power["power_w"]);
  for (const auto& [name, watts] : power["component_w"].items()) check_power(name + "_mw", watts);
  CHECK(changes["power.nand_program_mw"].size() > 3);  // GC's programs come and go
}

TEST_CASE("outputs: the paper reproductions run (--quick) and write their report, table and plots",
          "[cli][outputs][reproductions]") {
  // Checks that bench/reproductions/*.py still work with this ssdsim, not their numbers.
  for (const std::string paper : {"cast", "last", "adapt", "mnk"}) {
    TempDir dir;
    const std::string command = "SSDSIM=" + ssdsim_path() + " /usr/bin/python3 " +
                                source_path("bench/reproductions/" + paper + ".py") + " --quick --jobs 2 --out " +
                                dir.file("out") + " > " + dir.file("log") + " 2>&1";
    const int status = std::system(command.c_str());
    INFO(command << "\n" << read_text(dir.file("log")));
    REQUIRE(status == 0);
    const std::string md = read_text(dir.file("out/" + paper + ".md"));
    CHECK(md.find("## Setup: the paper's configuration beside ours") != std::string::npos);
    const bool judged = md.find("| agrees") != std::string::npos || md.find("| differs") != std::string::npos ||
                        md.find("| same direction") != std::string::npos;
    CHECK(judged);  // claim rows carry a verdict
    CHECK(read_text(dir.file("out/" + paper + ".csv")).size() > 100);
  }
}

TEST_CASE("outputs: the whole process's time is reported beside its parts", "[cli][outputs]") {
  // Set-up, preconditioning, simulation and the mapping check all happen inside the process
  // before the report is built: their wall times add up to no more than the process's (10 ms
  // resolution), and the summary names each.
  TempDir dir;
  const std::vector<std::string> args = {"run", "-p", tiny_platform(), "--synthetic", "random", "--count", "3000",
                                         "--precondition", "fill", "--no-vcd", "-r", dir.file("r.json")};
  const Result r = run_ssdsim(args, dir);
  REQUIRE(r.exit_code == 0);
  const json s = load_json(dir.file("r.json"))["simulation"];
  const double parts = s["setup_wall_seconds"].get<double>() + s["precondition_wall_seconds"].get<double>() +
                       s["wall_seconds"].get<double>() + s["verify_wall_seconds"].get<double>();
  CHECK(s["verify_wall_seconds"].get<double>() > 0);
  CHECK(s["process_wall_seconds"].get<double>() >= parts - 0.011);
  CHECK(s["process_cpu_seconds"].get<double>() > 0);
  CHECK(contains(r.out, "whole process "));
  CHECK(contains(r.out, "mapping check "));
  const Result unchecked = run_ssdsim({"run", "-p", tiny_platform(), "--synthetic", "random", "--count", "300",
                                       "--precondition", "none", "--no-vcd", "--no-verify", "-r", dir.file("u.json")},
                                      dir);
  REQUIRE(unchecked.exit_code == 0);
  CHECK(load_json(dir.file("u.json"))["simulation"]["verify_wall_seconds"].get<double>() == 0);
}

namespace {
std::string fmt_one(double x) {  // as the summary prints it: one decimal
  char b[64];
  std::snprintf(b, sizeof b, "%.1f", x);
  return b;
}
}  // namespace

TEST_CASE("outputs: a drive that cannot keep up with the arrivals is named the bottleneck", "[cli][outputs][verdict]") {
  // 2,000 one-page writes arriving every microsecond, replayed open loop at queue depth 1: the
  // drive serves one at a time, so no resource is saturated, yet requests wait in the host's
  // queue for almost all of their latency and complete over far longer than they arrived in.
  TempDir dir;
  std::string trace;
  for (int i = 0; i < 2000; ++i)  // MSR: 100 ns ticks, so 10 ticks apart
    trace += std::to_string(128166386783630000LL + 10LL * i) + ",h,0,Write," + std::to_string(4096LL * (i * 7 % 1000)) +
             ",4096,0\n";
  write_text(dir.file("burst.csv"), trace);
  auto summary = [&dir](std::vector<std::string> extra) {
    std::vector<std::string> args{"run", "-p", tiny_platform(), "--precondition", "none", "--no-vcd", "-r",
                                  dir.file("r.json")};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = run_ssdsim(args, dir);
    INFO(r.describe());
    REQUIRE(r.exited());
    REQUIRE(r.exit_code == 0);
    return std::make_pair(r.output(), load_json(dir.file("r.json")));
  };
  const auto [text, report] = summary({"--trace", dir.file("burst.csv"), "--qd", "1"});
  CHECK(report.at("host").at("arrival_span_s").get<double>() == Approx(1999e-6).epsilon(1e-6));
  CHECK(report.at("host").at("offered_iops").get<double>() == Approx(2000 / 1999e-6).epsilon(1e-6));
  CHECK_FALSE(report.at("utilization").at("bound").get<bool>());
  CHECK(contains(text, "bottleneck: the drive is the bottleneck though no resource is saturated"));
  CHECK(contains(text, "requests that arrived over 0.001999 s completed over"));
  CHECK(contains(text, "of the mean latency is waiting in the host's queue (--qd 1)"));
  // The latency line splits the host's queue from the drive.
  const double queued = report.at("latency_breakdown").at("write").at("stages").at("host_queue").at("mean_us").get<double>();
  CHECK(queued > 0.5 * report.at("host").at("write_latency_us").at("mean").get<double>());
  CHECK(contains(text, fmt_one(queued) + " in the host's queue, "));
  // Closed loop the host waits by design: no such verdict.
  const auto [closed, closed_report] = summary({"--synthetic", "random", "--read-fraction", "0", "--count", "2000",
                                                "--request-bytes", "4096", "--qd", "1"});
  CHECK_FALSE(contains(closed, "the drive is the bottleneck"));
}

TEST_CASE("outputs: a merge chain is named as what the time in the drive waits on", "[cli][outputs][verdict]") {
  // BAST without a write buffer, single-page writes scattered over the drive, arriving far faster
  // than it merges: every write needs its logical block's log block, so nearly every one waits for
  // a full merge of another block (one merge at a time: ftl.merges=serial, as on the paper
  // platforms). No resource is saturated; the time in the drive is waiting for that flash work
  // (dependency_wait), and the verdict says so.
  TempDir dir;
  std::string trace;
  for (int i = 0; i < 1500; ++i)
    trace += std::to_string(128166386783630000LL + 100LL * i) + ",h,0,Write," +
             std::to_string(4096LL * 16 * ((i * 37) % 1500)) + ",4096,0\n";
  write_text(dir.file("scattered.csv"), trace);
  const Result r = run_ssdsim({"run", "-p", tiny_platform(), "--ftl", "bast", "--set", "firmware.write_buffer=off",
                               "--set", "ftl.merges=serial", "--trace", dir.file("scattered.csv"), "--fold", "--qd",
                               "4", "--no-vcd", "-r",
                               dir.file("r.json")},
                              dir);
  INFO(r.describe());
  REQUIRE(r.exited());
  REQUIRE(r.exit_code == 0);
  const json report = load_json(dir.file("r.json"));
  CHECK(report.at("ftl_metrics").at("full_merges").get<std::uint64_t>() > 500);
  const json& stages = report.at("latency_breakdown").at("write").at("stages");
  double in_drive = 0;
  for (const auto& [name, v] : stages.items())
    if (name != "host_queue") in_drive += v.at("share").get<double>();
  CHECK(stages.at("dependency_wait").at("share").get<double>() > 0.5 * in_drive);
  CHECK(contains(r.output(), "the drive is the bottleneck though no resource is saturated"));
  CHECK(contains(r.output(), "is dependency_wait (waiting for flash work of other requests or the FTL's own (merges"));
}

TEST_CASE("outputs: a closed loop whose time in the drive is waiting for merges names them", "[cli][outputs][verdict]") {
  // Closed loop at QD8, BAST without a write buffer, merging one block at a time: the host keeps
  // eight requests outstanding, so no arrival rate is exceeded, but nearly all of a request's
  // time in the drive is waiting for the FTL's merges, not being served by a resource. The
  // verdict says the drive's own waits set the pace and names the merges and the waiting writes,
  // instead of crediting the host's queue depth.
  TempDir dir;
  const Result r = run_ssdsim({"run", "-p", tiny_platform(), "--ftl", "bast", "--set", "firmware.write_buffer=off",
                               "--set", "ftl.merges=serial", "--synthetic", "random", "--read-fraction", "0.3",
                               "--count", "3000", "--qd", "8", "--no-vcd", "-r", dir.file("r.json")},
                              dir);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  const json report = load_json(dir.file("r.json"));
  const json& f = report.at("ftl_metrics");
  REQUIRE(f.at("full_merges").get<std::uint64_t>() > 1000);
  CHECK(contains(r.output(), "the drive's own waits set the pace though no resource is saturated: at --qd 8"));
  CHECK(contains(r.output(), "is dependency_wait (waiting for flash work"));
  CHECK(contains(r.output(), "the FTL did " + std::to_string(f.at("full_merges").get<std::uint64_t>()) + " full merges"));
  CHECK(contains(r.output(), std::to_string(f.at("deferred_writes").get<std::uint64_t>()) + " of " +
                                 std::to_string(f.at("host_pages_written").get<std::uint64_t>()) +
                                 " host page writes waited for it to free room"));
  CHECK_FALSE(contains(r.output(), "not bound by the drive"));
}

TEST_CASE("outputs: the report lists the firmware's tables where they were placed", "[cli][outputs]") {
  // DFTL's mapping cache is its ftl.cmt_bytes, in SRAM; page mapping's L2P (4 bytes per logical
  // page) goes to SRAM where it fits and to DRAM where the SRAM is too small. The totals add up.
  TempDir dir;
  auto tables = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args{"-p", tiny_platform(), "--synthetic", "random", "--count", "10", "--precondition",
                                  "none"};
    args.insert(args.end(), extra.begin(), extra.end());
    return successful_run(args, dir)["firmware_tables"];
  };
  auto find = [](const json& t, const std::string& name) {
    for (const json& x : t["tables"])
      if (x["name"] == name) return x;
    return json();
  };
  auto check_totals = [](const json& t) {
    std::uint64_t sram = 0, dram = 0;
    for (const json& x : t["tables"]) (x["memory"] == "sram" ? sram : dram) += x["bytes"].get<std::uint64_t>();
    CHECK(t["sram_bytes"].get<std::uint64_t>() == sram);
    CHECK(t["dram_bytes"].get<std::uint64_t>() == dram);
  };
  const json dftl = tables({"--ftl", "dftl", "--set", "ftl.cmt_bytes=65536"});
  CHECK(find(dftl, "mapping_cache") == json({{"name", "mapping_cache"}, {"memory", "sram"}, {"bytes", 65536}}));
  check_totals(dftl);

  const json fits = tables({"--ftl", "page_mapping"});
  const json l2p = find(fits, "l2p");
  REQUIRE(l2p.is_object());
  CHECK(l2p["memory"] == "sram");
  CHECK(l2p["bytes"].get<std::uint64_t>() % 4 == 0);
  check_totals(fits);
  const json small = tables({"--ftl", "page_mapping", "--set", "sram.size_kib=16"});
  CHECK(find(small, "l2p")["memory"] == "dram");
  CHECK(find(small, "l2p")["bytes"] == l2p["bytes"]);
  check_totals(small);
}

TEST_CASE("outputs: hybrid merges are foreground work, so host_first orders them as fifo does", "[cli][outputs]") {
  // channel.scheduler=host_first lets host commands pass the firmware's background work. A
  // hybrid's merge is not background: the write that started it waits for it (fw/ftl/hybrid/
  // hybrid_ftl.h). With no background command in the die queues host_first picks the oldest
  // command, as fifo does, so a merging BAST run is the same under both.
  TempDir dir;
  auto run = [&](const std::string& scheduler) {
    return successful_run({"-p", tiny_platform(), "--ftl", "bast", "--set", "firmware.write_buffer=off", "--set",
                           "channel.scheduler=" + scheduler, "--synthetic", "random", "--read-fraction", "0.3",
                           "--count", "3000", "--qd", "8"},
                          dir, scheduler + ".json");
  };
  const json fifo = run("fifo"), host_first = run("host_first");
  REQUIRE(fifo["ftl_metrics"]["full_merges"].get<std::uint64_t>() > 100);
  CHECK(host_first["ftl_metrics"] == fifo["ftl_metrics"]);
  CHECK(host_first["host"]["read_latency_us"] == fifo["host"]["read_latency_us"]);
  CHECK(host_first["host"]["write_latency_us"] == fifo["host"]["write_latency_us"]);
}
