// ssdsim on traces that used to go silently wrong: time going backwards (counted in the report,
// a WARNING in the summary under the default clamp, --time-order refuse / sort / --sort-by-time),
// and compressed or byte-order-marked traces (read directly; truncated or UTF-16 ones refused
// with exit 2 and the file named).
//
// tests/data/traces/small.csv: 40 MSR requests in time order over 0.4205145 s of trace time;
// small_reversed.csv: the same lines reversed (39 backward steps, the largest 0.4205145 s).
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

constexpr double kSmallSpanS = 0.4205145;

std::vector<std::string> trace_run(const std::string& trace, std::vector<std::string> more = {}) {
  std::vector<std::string> args{"-p", tiny_platform(), "-t", trace, "--precondition", "none"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// A run that prints its summary (no -q) and writes its report into `dir`.
Result run_with_summary(const std::vector<std::string>& args, const TempDir& dir, const std::string& report) {
  std::vector<std::string> full{"run"};
  full.insert(full.end(), args.begin(), args.end());
  full.insert(full.end(), {"--no-vcd", "-r", dir.file(report)});
  return run_ssdsim(full, dir);
}

}  // namespace

TEST_CASE("time order: a reversed trace under clamp is counted and warned about", "[cli][trace][time-order]") {
  TempDir dir;
  const Result r = run_with_summary(trace_run(fixture("small_reversed.csv")), dir, "clamp.json");
  INFO(r.describe());
  REQUIRE(r.exited());
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "WARNING: 39 requests went back in time (largest step 0.420515 s)"));
  CHECK(contains(r.out, "--time-order sort"));
  const json report = load_json(dir.file("clamp.json"));
  CHECK(report["workload"]["time_order"] == "clamp");
  CHECK(report["workload"]["backward_steps"] == 39);
  CHECK(report["workload"]["largest_backward_step_s"].get<double>() == Approx(kSmallSpanS).epsilon(1e-12));
  // Squeezed: every request arrives at time 0, far less than the trace's span.
  CHECK(report["host"]["simulated_seconds"].get<double>() < kSmallSpanS / 4);

  // An ordered trace gets no warning.
  const Result ordered = run_with_summary(trace_run(fixture("small.csv")), dir, "ordered.json");
  REQUIRE(ordered.exit_code == 0);
  CHECK_FALSE(contains(ordered.out, "WARNING"));
  CHECK(load_json(dir.file("ordered.json"))["workload"]["backward_steps"] == 0);
}

TEST_CASE("time order: refuse stops at the first backward step with exit 2 and file:line",
          "[cli][trace][time-order]") {
  TempDir dir;
  const std::string trace = fixture("small_reversed.csv");
  const RunReport rr = run_report(trace_run(trace, {"--time-order", "refuse"}), dir);
  INFO(rr.result.describe());
  REQUIRE(rr.result.exited());
  CHECK(rr.result.exit_code == 2);
  CHECK(contains(rr.result.err, trace + ":2: time goes backwards"));
  CHECK(contains(rr.result.err, "before that of line 1"));
  CHECK_FALSE(rr.has_report);
}

TEST_CASE("time order: sort replays a reversed trace exactly as the ordered one", "[cli][trace][time-order]") {
  TempDir dir;
  const json ordered = successful_run(trace_run(fixture("small.csv")), dir, "ordered.json");
  const json sorted = successful_run(trace_run(fixture("small_reversed.csv"), {"--time-order", "sort"}), dir, "sorted.json");
  const json alias = successful_run(trace_run(fixture("small_reversed.csv"), {"--sort-by-time"}), dir, "alias.json");
  // The same requests at the same times: the host's figures are identical.
  const auto diffs = json_differences(ordered["host"], sorted["host"]);
  INFO((diffs.empty() ? std::string() : diffs.front()));
  CHECK(diffs.empty());
  CHECK(json_differences(sorted["host"], alias["host"]).empty());
  CHECK(sorted["host"]["requests"] == 40);
  // The simulated time is the trace's span plus the last request's service.
  const double t = sorted["host"]["simulated_seconds"].get<double>();
  CHECK(t >= kSmallSpanS);
  CHECK(t < kSmallSpanS + 0.01);
  CHECK(sorted["workload"]["time_order"] == "sort");
  CHECK(sorted["workload"]["backward_steps"] == 39);
  CHECK(contains(sorted["workload"]["description"].get<std::string>(), "sorted by time"));

  // Its report follows the schema.
  const std::string command = "/usr/bin/python3 " + source_path("tools/check_report.py") + " " +
                              dir.file("sorted.json") + " > " + dir.file("check.log") + " 2>&1";
  const int status = std::system(command.c_str());
  INFO(read_text(dir.file("check.log")));
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
}

TEST_CASE("time order: bad option values are refused", "[cli][trace][time-order]") {
  TempDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--time-order", "shuffle"}, "--time-order: shuffle not in {clamp,sort,refuse}"},
      {{"--time-order", "clamp", "--sort-by-time"}, "--time-order excludes --sort-by-time"}};
  for (const auto& [extra, message] : cases) {
    const RunReport rr = run_report(trace_run(fixture("small.csv"), extra), dir);
    INFO(rr.result.describe());
    REQUIRE(rr.result.exited());
    CHECK(rr.result.exit_code == 2);
    CHECK(contains(rr.result.output(), message));
  }
}

TEST_CASE("compressed traces: the same run as the plain file, by name or by content", "[cli][trace][compression]") {
  TempDir dir;
  const json plain = successful_run(trace_run(fixture("small.csv")), dir, "plain.json");
  for (const char* name : {"small.csv.gz", "small.csv.bz2", "small.csv.xz", "small.csv.zst"}) {
    INFO(name);
    const json r = successful_run(trace_run(fixture(name)), dir, std::string(name) + ".json");
    CHECK(json_differences(plain["host"], r["host"]).empty());
    CHECK(json_differences(plain["ftl_metrics"], r["ftl_metrics"]).empty());
  }
  // Without a telling name: the content says gzip, then MSR.
  const std::string renamed = dir.write("capture.bin", read_text(fixture("small.csv.gz")));
  const json r = successful_run(trace_run(renamed), dir, "renamed.json");
  CHECK(json_differences(plain["host"], r["host"]).empty());
  CHECK(r["workload"]["description"] == "msr:" + renamed);
}

TEST_CASE("compressed traces: a truncated .gz is bad input naming the file", "[cli][trace][compression]") {
  TempDir dir;
  const std::string gz = read_text(fixture("small.csv.gz"));
  const std::string cut = dir.write("cut.csv.gz", gz.substr(0, gz.size() - 20));
  const RunReport rr = run_report(trace_run(cut), dir);
  INFO(rr.result.describe());
  REQUIRE(rr.result.exited());
  CHECK(rr.result.exit_code == 2);
  CHECK(contains(rr.result.err, cut + ": the gzip stream is truncated"));
  CHECK_FALSE(rr.has_report);
}

TEST_CASE("encodings: a UTF-8 byte-order mark is skipped, UTF-16 is refused by name", "[cli][trace][encoding]") {
  TempDir dir;
  const json plain = successful_run(trace_run(fixture("small.csv")), dir, "plain.json");
  const std::string bom = dir.write("bom.csv", "\xEF\xBB\xBF" + read_text(fixture("small.csv")));
  const json r = successful_run(trace_run(bom), dir, "bom.json");
  CHECK(json_differences(plain["host"], r["host"]).empty());

  std::string utf16 = "\xFF\xFE";
  for (char c : read_text(fixture("small.csv"))) utf16 += std::string{c, '\0'};
  const std::string wide = dir.write("wide.csv", utf16);
  const RunReport rr = run_report(trace_run(wide), dir, "wide.json");
  INFO(rr.result.describe());
  REQUIRE(rr.result.exited());
  CHECK(rr.result.exit_code == 2);
  CHECK(contains(rr.result.err, "'" + wide + "' is UTF-16 (little-endian) text"));
}
