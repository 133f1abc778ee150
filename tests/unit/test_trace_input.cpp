// Trace input that cannot silently go wrong, the encoding and compression part: gzip, bzip2, xz
// and zstd traces read directly (by magic number, whatever the name), the same requests as the
// plain file; a truncated or corrupt stream is an error naming the file; a UTF-8 byte-order mark
// is skipped and UTF-16/32 text refused by name; the progress fraction of compressed files.
//
// tests/data/traces/small.csv: 40 requests; first line
//   128166372003181217,src,1,Write,6369280,12288,8487
// last line 128166372007386362,src,1,Read,14827520,32768,4056 (4205145 ticks later).
#include <catch2/catch.hpp>

#include <zlib.h>

#include <string>

#include "stimuli/msr_trace.h"
#include "stimuli/open_trace.h"
#include "stimuli/trace_lines.h"
#include "trace_input_support.h"

using namespace ssd::stimuli;
using ssd::test::all_requests;
using ssd::test::file_bytes;
using ssd::test::fixture;
using ssd::test::same_requests;
using ssd::test::ScratchDir;

namespace {

// `text` gzip-compressed into `path` with zlib (no command-line tool needed); returns `path`.
std::string gzip_file(const std::string& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb6");
  REQUIRE(f != nullptr);
  REQUIRE(gzwrite(f, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
  REQUIRE(gzclose(f) == Z_OK);
  return path;
}

// Reads the whole trace; returns the error message ("" when it read to the end).
std::string read_error(const std::string& path, const std::string& format = "auto") {
  try {
    auto w = open_trace(path, format);
    all_requests(*w);
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "";
}

const char* const kCompressed[] = {"small.csv.gz", "small.csv.bz2", "small.csv.xz", "small.csv.zst",
                                   "small_two_members.csv.gz"};

}  // namespace

TEST_CASE("Plain fixture: the requests its lines say", "[stimuli][input]") {
  MsrTrace t(fixture("small.csv"));
  const auto v = all_requests(t);
  REQUIRE(v.size() == 40);
  CHECK(v.front().arrival_ns == 0);
  CHECK(v.front().is_write());
  CHECK(v.front().lba == 6369280 / 512);
  CHECK(v.front().sectors == 12288 / 512);
  CHECK(v.front().issuer == 1);
  CHECK(v.back().arrival_ns == 4205145ull * 100);
  CHECK_FALSE(v.back().is_write());
  CHECK(v.back().lba == 14827520 / 512);
  CHECK(v.back().sectors == 32768 / 512);
  CHECK(t.backward_steps() == 0);
}

TEST_CASE("Compressed traces give exactly the plain file's requests", "[stimuli][input][compression]") {
  MsrTrace plain(fixture("small.csv"));
  const auto expected = all_requests(plain);
  for (const char* name : kCompressed) {
    INFO(name);
    auto w = open_trace(fixture(name), "auto");  // MSR by the name without its suffix
    CHECK(w->describe() == "msr:" + fixture(name));
    const auto got = all_requests(*w);
    CHECK(got.size() == expected.size());
    CHECK(same_requests(got, expected));
    CHECK(w->fraction_done() == 1.0);
  }
}

TEST_CASE("Compression is told by the content, not the name", "[stimuli][input][compression]") {
  ScratchDir dir;
  MsrTrace plain(fixture("small.csv"));
  const auto expected = all_requests(plain);
  for (const char* name : {"small.csv.gz", "small.csv.bz2", "small.csv.xz", "small.csv.zst"}) {
    INFO(name);
    // No suffix at all: the format is sniffed from the decompressed first line.
    const std::string renamed = dir.write("capture.data", file_bytes(fixture(name)));
    auto w = open_trace(renamed, "auto");
    CHECK(w->describe() == "msr:" + renamed);
    CHECK(same_requests(all_requests(*w), expected));
  }
  // A plain file named .gz is read as the text it is.
  const std::string misnamed = dir.write("plain.csv.gz", file_bytes(fixture("small.csv")));
  auto w = open_trace(misnamed, "msr");
  CHECK(same_requests(all_requests(*w), expected));
}

TEST_CASE("A truncated compressed trace is an error naming the file, not a short trace", "[stimuli][input][compression]") {
  ScratchDir dir;
  for (const char* name : {"small.csv.gz", "small.csv.bz2", "small.csv.xz", "small.csv.zst"}) {
    const std::string bytes = file_bytes(fixture(name));
    REQUIRE(bytes.size() > 100);
    // Cut at several places: inside the data, and just before the end (gzip's CRC and length,
    // xz's index and footer, zstd's last block).
    for (std::size_t keep : {bytes.size() / 2, bytes.size() - 9, bytes.size() - 1}) {
      INFO(name << " cut to " << keep << " of " << bytes.size() << " bytes");
      const std::string path = dir.write(std::string("cut_") + name, bytes.substr(0, keep));
      const std::string msg = read_error(path, "msr");
      CHECK_THAT(msg, Catch::StartsWith(path + ": "));
      CHECK_THAT(msg, Catch::Contains("truncated") || Catch::Contains("corrupt"));
    }
  }
  // The gzip case by name: the stream ends before its end.
  const std::string gz = file_bytes(fixture("small.csv.gz"));
  const std::string path = dir.write("half.csv.gz", gz.substr(0, gz.size() / 2));
  CHECK_THAT(read_error(path), Catch::Contains(path + ": the gzip stream is truncated"));
}

TEST_CASE("A corrupt compressed trace is an error naming the file", "[stimuli][input][compression]") {
  ScratchDir dir;
  for (const char* name : {"small.csv.gz", "small.csv.bz2", "small.csv.xz", "small.csv.zst"}) {
    std::string bytes = file_bytes(fixture(name));
    // Flip bits in the middle of the compressed data: every format checks its data (CRC32,
    // CRC32/CRC64, zstd's block structure and checksum).
    for (std::size_t i = bytes.size() / 3; i < bytes.size() / 3 + 8; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    INFO(name);
    const std::string path = dir.write(std::string("bad_") + name, bytes);
    const std::string msg = read_error(path, "msr");
    CHECK_THAT(msg, Catch::StartsWith(path + ":"));
    CHECK_THAT(msg, Catch::Contains("corrupt") || Catch::Contains("truncated") || Catch::Contains("expected"));
  }
  // Garbage after a complete gzip member is not silently ignored.
  const std::string path = dir.write("trailing.csv.gz", file_bytes(fixture("small.csv.gz")) + "garbage!");
  CHECK_THAT(read_error(path), Catch::Contains(path + ": corrupt gzip data"));
}

TEST_CASE("Archive and compression formats that are not read are named", "[stimuli][input][compression]") {
  ScratchDir dir;
  const std::string zip = dir.write("trace.zip", std::string("PK\x03\x04", 4) + "rest of an archive");
  CHECK_THAT(read_error(zip), Catch::Contains("'" + zip + "' is a zip archive"));
  const std::string lz4 = dir.write("trace.csv.lz4", std::string("\x04\x22\x4d\x18", 4) + "frame");
  CHECK_THAT(read_error(lz4), Catch::Contains("lz4-compressed"));
}

TEST_CASE("A UTF-8 byte-order mark is skipped, UTF-16 and UTF-32 are refused by name", "[stimuli][input][encoding]") {
  ScratchDir dir;
  const std::string text = file_bytes(fixture("small.csv"));
  MsrTrace plain(fixture("small.csv"));
  const auto expected = all_requests(plain);

  const std::string bom = dir.write("bom.csv", "\xEF\xBB\xBF" + text);
  MsrTrace t(bom);
  CHECK(same_requests(all_requests(t), expected));
  CHECK(t.fraction_done() == 1.0);
  // Without a name that says MSR, the format is told from the first line after the mark.
  const std::string sniffed = dir.write("bom.trace", "\xEF\xBB\xBF" + text);
  CHECK(open_trace(sniffed, "auto")->describe() == "msr:" + sniffed);
  // Line numbers still count from the first line.
  const std::string bad = dir.write("bom_bad.csv", "\xEF\xBB\xBFgarbage\n");
  CHECK_THAT(read_error(bad), Catch::StartsWith(bad + ":1: ") && Catch::EndsWith("got 'garbage'"));
  // A compressed file with a mark inside.
  const std::string gz = gzip_file(dir.path("bom_in_gzip.data"), "\xEF\xBB\xBF" + text);
  CHECK(same_requests(all_requests(*open_trace(gz, "msr")), expected));

  const struct {
    std::string mark;
    const char* name;
  } others[] = {{std::string("\xFF\xFE", 2), "UTF-16 (little-endian)"},
                {std::string("\xFE\xFF", 2), "UTF-16 (big-endian)"},
                {std::string("\xFF\xFE\x00\x00", 4), "UTF-32 (little-endian)"},
                {std::string("\x00\x00\xFE\xFF", 4), "UTF-32 (big-endian)"}};
  for (const auto& o : others) {
    INFO(o.name);
    const std::string path = dir.write("wide.csv", o.mark + std::string("1\0,\0", 4));
    CHECK_THAT(read_error(path), Catch::Contains("'" + path + "' is " + o.name + " text"));
    CHECK_THAT(read_error(path, "mqsim"), Catch::Contains(o.name));
  }
}

TEST_CASE("Progress of a compressed trace: compressed bytes consumed over the file's size", "[stimuli][input][compression]") {
  // Big enough for many decoder steps: 30000 lines of varied numbers (about 1.5 MB of text).
  ScratchDir dir;
  std::string text;
  std::uint64_t x = 88172645463325252ull;  // xorshift: varied lines that do not compress to nothing
  for (int i = 0; i < 30000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    text += std::to_string(128166372003061629ull + std::uint64_t(i) * 1000) + ",h," + std::to_string(x % 4) +
            (x % 3 ? ",Write," : ",Read,") + std::to_string((x >> 20) % 100000 * 4096) + ",4096," +
            std::to_string(x % 10000) + "\n";
  }
  const std::string path = gzip_file(dir.path("big.csv.gz"), text);
  MsrTrace t(path);
  HostRequest r;
  double previous = t.fraction_done();
  CHECK(previous >= 0.0);
  CHECK(previous < 0.2);
  bool non_decreasing = true, seen_middle = false;
  std::uint64_t n = 0;
  while (t.next(r)) {
    ++n;
    non_decreasing = non_decreasing && t.fraction_done() >= previous;
    previous = t.fraction_done();
    if (n == 15000) {
      CHECK(previous == Approx(0.5).margin(0.1));  // lines are about the same length
      seen_middle = true;
    }
  }
  CHECK(n == 30000);
  CHECK(seen_middle);
  CHECK(non_decreasing);
  CHECK(t.fraction_done() == 1.0);
}

TEST_CASE("A line longer than 1 MiB is an error, not a memory hog", "[stimuli][input]") {
  ScratchDir dir;
  const std::string path = dir.write("binary.csv", "1,h,0,Write,0,512,1\n" + std::string(1536 * 1024, 'x'));
  CHECK_THAT(read_error(path), Catch::Contains(path + ":2: a line longer than 1 MiB"));
}
