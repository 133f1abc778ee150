// Requests near the end of the 64-bit sector space must be refused, never wrapped round into
// the drive (the inputs fuzz/regressions/mqsim/lba-near-2-64 and
// fuzz/regressions/open_trace/device-offset-wraps, replayed by the fuzz smoke tests).
#include <catch2/catch.hpp>

#include <limits>

#include "stimuli/mqsim_trace.h"
#include "stimuli/request_admission.h"
#include "stimuli/trace_selection.h"
#include "trace_test_support.h"

using namespace ssd;
using namespace ssd::stimuli;

namespace {
constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

RequestAdmission tiny_drive(bool fold) {
  AdmissionRules rules;
  rules.capacity_sectors = 131072;  // 64 MiB
  rules.page_bytes = 4096;
  rules.fold_addresses = fold;
  return RequestAdmission(rules);
}
}  // namespace

TEST_CASE("A trace request that would end past sector 2^64 is a malformed line", "[trace][limits]") {
  const std::string path = test::write_temp_file("limits_end.trace", "0 0 18446744073709551607 8 0\n"
                                                                     "5 0 18446744073709551608 8 0\n");
  MqsimTrace ok_then_bad(path);
  HostRequest r;
  REQUIRE(ok_then_bad.next(r));  // its last sector is 2^64 - 2: fine
  CHECK(r.lba == kMax - 8);
  CHECK_THROWS_WITH(ok_then_bad.next(r), Catch::Contains(path + ":2") && Catch::Contains("2^64"));
}

TEST_CASE("Admission refuses a request near 2^64 sectors instead of wrapping it into the drive", "[trace][limits]") {
  const std::string path = test::write_temp_file("limits_admit.trace", "0 0 1 8 0\n");
  MqsimTrace from(path);
  HostRequest r;
  r.sectors = 8;
  r.lba = kMax - 7;  // lba + sectors wraps to 0 in 64 bits
  CHECK_THROWS_WITH(tiny_drive(false).admit(r, from), Catch::Contains("beyond the drive"));
  // Folded: by whole pages into the drive, keeping the offset within the page (7 sectors in).
  HostRequest folded = r;
  folded.lba = kMax - 8;  // 8-sector page: starts at the page's sector 7, spans 2 pages
  CHECK(tiny_drive(true).admit(folded, from));
  CHECK(folded.lba % 8 == (kMax - 8) % 8);
  CHECK(folded.lba + folded.sectors <= 131072);
}

TEST_CASE("Devices laid side by side past 2^64 sectors are refused, not wrapped", "[trace][limits]") {
  const std::string path = test::write_temp_file("limits_offset.trace", "0 1 100 8 0\n10 4294967295 0 8 0\n");
  TraceSelectionSpec spec;
  spec.device_offset_sectors = std::uint64_t(1) << 40;
  TraceSelection w(std::make_unique<MqsimTrace>(path), spec);
  HostRequest r;
  REQUIRE(w.next(r));
  CHECK(r.lba == 100 + (std::uint64_t(1) << 40));
  CHECK_THROWS_WITH(w.next(r), Catch::Contains(path + ":2") && Catch::Contains("past 2^64"));
}
