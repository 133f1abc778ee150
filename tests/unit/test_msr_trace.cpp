// MsrTrace against the real MSR Cambridge files in ../shared/traces/msr and against small
// hand-written malformed files.
//
// The expected figures for the shared traces were computed independently of this code, with
// awk (count, reads, byte sum) and a short Python script (same plus first/last request), both
// reading the CSV directly:
//   awk -F, '{n++; if (tolower($4)=="read") r++; b+=$6} END {print n, r, b}' FILE
//   python3: arrival = (ts - ts_first) * 100, lba = off // 512, sectors = (off % 512 + size + 511) // 512
// Both agree. Note: hm_0.csv has no final newline, so `wc -l` says 7015 (as does the traces
// README) but the file holds 7016 requests.
#include <catch2/catch.hpp>

#include "trace_test_support.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "stimuli/msr_trace.h"

using ssd::stimuli::HostRequest;
using ssd::stimuli::MsrTrace;
using ssd::stimuli::WorkloadError;

namespace {

const std::string kMsrDir = std::string(SSD_SHARED_TRACES) + "/msr/";

struct Summary {
  std::uint64_t requests = 0;
  std::uint64_t reads = 0;
  std::uint64_t bytes = 0;  // sum of sectors * 512 (offsets and sizes are 512-multiples here)
  HostRequest first, last;
  bool arrivals_non_decreasing = true;
};

Summary summarise(MsrTrace& t) {
  Summary s;
  HostRequest r;
  while (t.next(r)) {
    if (s.requests == 0) s.first = r;
    else if (r.arrival_ns < s.last.arrival_ns) s.arrivals_non_decreasing = false;
    s.last = r;
    ++s.requests;
    if (!r.is_write()) ++s.reads;
    s.bytes += std::uint64_t{r.sectors} * 512;
  }
  return s;
}

// A fresh directory under the system temp dir, removed with its contents at scope exit.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    dir_ = std::filesystem::temp_directory_path() /
           ("ssd_msr_test_" + std::to_string(rd()) + "_" + std::to_string(rd()));
    std::filesystem::create_directories(dir_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& content) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

 private:
  std::filesystem::path dir_;
};

// Reads the whole file, expecting a WorkloadError; returns its message ("" if none was thrown).
std::string error_of(const std::string& path) {
  try {
    MsrTrace t(path);
    HostRequest r;
    while (t.next(r)) {
    }
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "";
}

const std::string kGood1 = "128166386783630075,hm,0,Write,3164164096,40960,2896\n";
const std::string kGood2 = "128166386783630309,hm,0,Read,3164147712,16384,2663\n";

}  // namespace

TEST_CASE("MSR hm_0: exact counts, bytes, first and last request", "[msr]") {
  MsrTrace t(ssd::test::bundled_trace("hm_0.csv"));
  const Summary s = summarise(t);
  CHECK(s.requests == 7016);
  CHECK(s.reads == 5820);
  CHECK(s.bytes == 84810240);
  CHECK(t.lines_read() == 7016);
  CHECK(t.requests_read() == 7016);
  CHECK(t.clamped_arrivals() == 0);
  CHECK(s.arrivals_non_decreasing);

  // 128166386783630075,hm,0,Write,3164164096,40960,2896
  CHECK(s.first.arrival_ns == 0);
  CHECK(s.first.is_write());
  CHECK(s.first.lba == 6180008);  // 3164164096 / 512
  CHECK(s.first.sectors == 80);   // 40960 / 512
  CHECK(s.first.issuer == 0);

  // 128166388267685088,hm,0,Read,9213370368,4096,885 (no trailing newline)
  CHECK(s.last.arrival_ns == 148405501300ull);  // (…685088 - …630075) * 100
  CHECK_FALSE(s.last.is_write());
  CHECK(s.last.lba == 17994864);
  CHECK(s.last.sectors == 8);
  CHECK(s.last.issuer == 0);

  HostRequest r;
  CHECK_FALSE(t.next(r));  // stays at the end
}

TEST_CASE("MSR rsrch_1: exact counts, bytes, first and last request", "[msr]") {
  SKIP_WITHOUT_SHARED_TRACES();
  MsrTrace t(kMsrDir + "rsrch_1.csv");
  const Summary s = summarise(t);
  CHECK(s.requests == 13780);
  CHECK(s.reads == 42);
  CHECK(s.bytes == 171779584);
  CHECK(t.lines_read() == 13780);
  CHECK(t.clamped_arrivals() == 0);
  CHECK(s.arrivals_non_decreasing);

  // 128166481075232275,rsrch,1,Write,281358336,45056,94872
  CHECK(s.first.arrival_ns == 0);
  CHECK(s.first.is_write());
  CHECK(s.first.lba == 549528);
  CHECK(s.first.sectors == 88);
  CHECK(s.first.issuer == 1);

  // 128172246651676066,rsrch,1,Write,3154128896,4096,1104 (6.7 days after the first)
  CHECK(s.last.arrival_ns == 576557644379100ull);
  CHECK(s.last.is_write());
  CHECK(s.last.lba == 6160408);
  CHECK(s.last.sectors == 8);
  CHECK(s.last.issuer == 1);
}

TEST_CASE("MSR describe and missing file", "[msr]") {
  SKIP_WITHOUT_SHARED_TRACES();
  const std::string path = kMsrDir + "mds_0.csv";
  CHECK(MsrTrace(path).describe() == "msr:" + path);

  const std::string missing = kMsrDir + "no_such_trace.csv";
  CHECK_THROWS_MATCHES(MsrTrace(missing), WorkloadError,
                       Catch::Message("cannot open trace file '" + missing + "'"));
  CHECK_THROWS_AS(MsrTrace(kMsrDir), WorkloadError);  // a directory is not a trace
}

TEST_CASE("MSR progress: the share of the file read grows to 1", "[msr]") {
  // hm_0 has no final newline: the last line still counts as read to the end.
  const std::string path = ssd::test::bundled_trace("hm_0.csv");
  const auto size = std::filesystem::file_size(path);
  MsrTrace t(path);
  CHECK(t.fraction_done() == 0.0);
  HostRequest r;
  std::uint64_t n = 0;
  double previous = 0;
  bool monotonic = true;
  while (t.next(r)) {
    ++n;
    monotonic = monotonic && t.fraction_done() > previous;
    previous = t.fraction_done();
    if (n == 3508) CHECK(t.fraction_done() == Approx(0.5).margin(0.05));  // lines are about the same length
  }
  CHECK(monotonic);
  CHECK(t.fraction_done() == 1.0);
  CHECK(size > 0);
}

TEST_CASE("MSR tolerant input: CRLF, blank lines, case, unaligned offsets, time going back", "[msr]") {
  TempDir dir;
  const std::string path = dir.write("tolerant.csv",
                                     "\r\n"
                                     "1000,h,7,WRITE,1024,4096,5\r\n"
                                     "\n"
                                     "  \t\n"
                                     "1010,h,7,read,1000,100,5\r\n"   // bytes 1000..1099: sector 1..2
                                     "1005,h,7,Read,511,2,5\n"        // time goes back; sectors 0..1
                                     "1020,h,3,wRiTe,0,1,5");         // no final newline
  MsrTrace t(path);
  HostRequest r;

  REQUIRE(t.next(r));
  CHECK(t.lines_read() == 2);
  CHECK((r.arrival_ns == 0 && r.is_write() && r.lba == 2 && r.sectors == 8 && r.issuer == 7));

  REQUIRE(t.next(r));
  CHECK(t.lines_read() == 5);
  CHECK((r.arrival_ns == 1000 && !r.is_write() && r.lba == 1 && r.sectors == 2));

  REQUIRE(t.next(r));
  CHECK((r.arrival_ns == 1000 && !r.is_write() && r.lba == 0 && r.sectors == 2));  // clamped
  CHECK(t.clamped_arrivals() == 1);

  REQUIRE(t.next(r));
  CHECK((r.arrival_ns == 2000 && r.is_write() && r.lba == 0 && r.sectors == 1 && r.issuer == 3));

  CHECK_FALSE(t.next(r));
  CHECK(t.lines_read() == 7);
  CHECK(t.requests_read() == 4);
}

TEST_CASE("MSR timestamp before the first request is clamped, not wrapped", "[msr]") {
  TempDir dir;
  const std::string path = dir.write("early.csv", "500,h,0,Write,0,512,1\n400,h,0,Write,512,512,1\n");
  MsrTrace t(path);
  HostRequest r;
  REQUIRE(t.next(r));
  REQUIRE(t.next(r));
  CHECK(r.arrival_ns == 0);
  CHECK(t.clamped_arrivals() == 1);
}

TEST_CASE("MSR empty file has no requests", "[msr]") {
  TempDir dir;
  MsrTrace t(dir.write("empty.csv", "\n\r\n"));
  HostRequest r;
  CHECK_FALSE(t.next(r));
  CHECK(t.lines_read() == 2);
}

TEST_CASE("MSR malformed lines name file, line number, expectation and the line", "[msr]") {
  struct Case {
    const char* name;
    std::string bad_line;
    const char* expected;
  };
  const Case cases[] = {
      {"too few fields", "128166386783630400,hm,0,Write,3164147712,4096", "expected 7 comma-separated fields"},
      {"too many fields", "128166386783630400,hm,0,Write,3164147712,4096,1,", "(found 8)"},
      {"timestamp not numeric", "12816638678363040x,hm,0,Write,3164147712,4096,1", "Timestamp (field 1)"},
      {"negative disk", "128166386783630400,hm,-1,Write,3164147712,4096,1", "DiskNumber (field 3)"},
      {"disk too large", "128166386783630400,hm,4294967296,Write,3164147712,4096,1", "DiskNumber (field 3)"},
      {"unknown type", "128166386783630400,hm,0,Trim,3164147712,4096,1", "'Read' or 'Write'"},
      {"offset not numeric", "128166386783630400,hm,0,Read,0x1000,4096,1", "Offset (field 5)"},
      {"size empty", "128166386783630400,hm,0,Read,4096,,1", "Size (field 6)"},
      {"size zero", "128166386783630400,hm,0,Read,4096,0,1", "Size (field 6) > 0"},
      {"size too large", "128166386783630400,hm,0,Read,0,2199023255552,1", "Size (field 6) below 2 TiB"},
      {"response not numeric", "128166386783630400,hm,0,Read,4096,4096,n/a", "ResponseTime (field 7)"},
  };
  TempDir dir;
  for (const Case& c : cases) {
    SECTION(c.name) {
      // The bad line is line 3 (CRLF endings: the '\r' must not appear in the quoted line).
      const std::string path = dir.write("bad.csv", kGood1 + kGood2 + c.bad_line + "\r\n" + kGood1);
      const std::string msg = error_of(path);
      CHECK_THAT(msg, Catch::StartsWith(path + ":3: "));
      CHECK_THAT(msg, Catch::Contains(c.expected));
      CHECK_THAT(msg, Catch::EndsWith(", got '" + c.bad_line + "'"));
    }
  }
}

TEST_CASE("MSR blank lines count in the reported line number", "[msr]") {
  TempDir dir;
  const std::string path = dir.write("blank.csv", "\n\n" + kGood1 + "\n" + "garbage\n");
  const std::string msg = error_of(path);
  CHECK_THAT(msg, Catch::StartsWith(path + ":5: "));
  CHECK_THAT(msg, Catch::EndsWith("(found 1), got 'garbage'"));
}

TEST_CASE("MSR error messages quote at most 200 characters of a huge line", "[msr]") {
  TempDir dir;
  const std::string path = dir.write("huge.csv", kGood1 + std::string(100000, 'x') + "\n");
  const std::string msg = error_of(path);
  CHECK_THAT(msg, Catch::StartsWith(path + ":2: "));
  CHECK_THAT(msg, Catch::EndsWith(", got '" + std::string(200, 'x') + "...'"));
}
