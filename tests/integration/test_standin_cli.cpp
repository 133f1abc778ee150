// `ssdsim standin` end to end: a stand-in of the small MSR fixture is written, its statistics
// JSON says what it holds, and `ssdsim run --trace` replays it; bad arguments end with exit 2
// and a message naming the option or the file.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

std::size_t lines_in(const std::string& path) { return lines_of(read_text(path)).size(); }

}  // namespace

TEST_CASE("standin: writes a stand-in with exactly W writes that ssdsim run replays", "[cli][standin]") {
  TempDir dir;
  const Result r = run_ssdsim({"standin", "-t", fixture("small.csv"), "--writes", "600", "--seed", "3", "-o",
                               dir.file("standin.csv"), "--stats-json", dir.file("stats.json")},
                              dir);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "re-reference share"));
  CHECK(contains(r.out, "stand-in"));
  const json stats = load_json(dir.file("stats.json"));
  CHECK(stats["excerpt"]["requests"] == 40);
  CHECK(stats["excerpt"]["writes"] == 30);
  CHECK(stats["standin"]["writes"] == 600);
  const std::uint64_t requests = stats["standin"]["requests"].get<std::uint64_t>();
  CHECK(lines_in(dir.file("standin.csv")) == requests);

  // The same seed writes the same file; a gzip stand-in holds the same requests.
  const Result again = run_ssdsim({"standin", "-t", fixture("small.csv"), "--writes", "600", "--seed", "3", "-q", "-o",
                                   dir.file("again.csv.gz")},
                                  dir);
  REQUIRE(again.exit_code == 0);
  CHECK(again.out.empty());

  for (const std::string name : {"standin.csv", "again.csv.gz"}) {
    const RunReport rr = run_report({"-p", tiny_platform(), "-t", dir.file(name), "--precondition", "none", "--fold",
                                     "--mode", "closed"},
                                    dir, name + ".json");
    INFO(rr.result.describe());
    REQUIRE(rr.result.exit_code == 0);
    REQUIRE(rr.has_report);
    CHECK(rr.report["host"]["requests"] == requests);
  }
}

TEST_CASE("standin: bad arguments name the option or the file and exit 2", "[cli][standin]") {
  TempDir dir;
  const std::string out = dir.file("out.csv");
  const std::string trace = fixture("small.csv");
  require_bad_input(run_ssdsim({"standin", "-t", trace, "--writes", "0", "-o", out}, dir), {"--writes", "positive"});
  require_bad_input(run_ssdsim({"standin", "-t", trace, "--writes", "-5", "-o", out}, dir), {"--writes"});
  require_bad_input(run_ssdsim({"standin", "-t", trace, "--requests", "0", "-o", out}, dir), {"--requests"});
  require_bad_input(run_ssdsim({"standin", "-t", trace, "-o", out}, dir), {"--writes", "--requests"});
  require_bad_input(run_ssdsim({"standin", "-t", trace, "--writes", "5", "--requests", "5", "-o", out}, dir),
                    {"--writes", "--requests"});
  require_bad_input(run_ssdsim({"standin", "-t", trace, "--writes", "5", "--trace-format", "csv", "-o", out}, dir),
                    {"--trace-format"});
  require_bad_input(run_ssdsim({"standin", "-t", dir.file("missing.csv"), "--writes", "5", "-o", out}, dir),
                    {"missing.csv"});
  require_bad_input(run_ssdsim({"standin", "-t", trace, "--writes", "5", "--range-bytes", "1000", "-o", out}, dir),
                    {"--range-bytes", "4096"});
  require_bad_input(run_ssdsim({"standin", "-t", trace, "--writes", "5"}, dir), {"--out"});
  const std::string reads = dir.write("reads.csv", "128166372003181217,src,0,Read,4096,4096,10\n"
                                                   "128166372003181300,src,0,Read,8192,4096,10\n");
  require_bad_input(run_ssdsim({"standin", "-t", reads, "--writes", "5", "-o", out}, dir), {reads, "no write request"});
  // A read-only excerpt still makes a stand-in of N requests.
  const Result ok = run_ssdsim({"standin", "-t", reads, "--requests", "5", "-q", "-o", out}, dir);
  INFO(ok.describe());
  CHECK(ok.exit_code == 0);
  CHECK(lines_in(out) == 5);
  const std::string bad = dir.write("bad.csv", "128166372003181217,src,0,Write,4096,4096,10\nnot a line\n");
  require_bad_input(run_ssdsim({"standin", "-t", bad, "--writes", "5", "-o", out}, dir), {bad + ":2"});
  const Result skipped = run_ssdsim({"standin", "-t", bad, "--writes", "5", "--skip-bad-lines", "-o", out}, dir);
  INFO(skipped.describe());
  CHECK(skipped.exit_code == 0);
  CHECK(contains(skipped.out, "1 malformed lines skipped"));
}
