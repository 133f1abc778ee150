// Trace time going backwards: every reader counts the backward steps and the largest; clamp
// (the default) keeps the stream non-decreasing, refuse stops at the first step naming file:line
// and both times, sort replays the trace in time order (stable, external merge sort with bounded
// memory) and composes with device/window selection, repetition and skipped lines.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "stimuli/disksim_trace.h"
#include "stimuli/mqsim_trace.h"
#include "stimuli/msr_trace.h"
#include "stimuli/open_trace.h"
#include "stimuli/repeated_workload.h"
#include "stimuli/sorted_trace.h"
#include "stimuli/spc_trace.h"
#include "stimuli/trace_selection.h"
#include "trace_input_support.h"

using namespace ssd::stimuli;
using ssd::test::all_requests;
using ssd::test::fixture;
using ssd::test::same_requests;
using ssd::test::ScratchDir;

namespace {

// small.csv spans 4205145 ticks of 100 ns; reversed, each of its 39 later lines goes backwards.
constexpr std::uint64_t kSmallSpanNs = 4205145ull * 100;

std::string mqsim_line(std::uint64_t time_ns, std::uint64_t lba, std::uint32_t device = 0) {
  return std::to_string(time_ns) + " " + std::to_string(device) + " " + std::to_string(lba) + " 8 0\n";
}

// Two per-disk logs appended one after the other (the usual unsorted capture): disk 0 at times
// 0, 10, ..., 190 us, then disk 1 at 5, 15, ..., 195 us. Disk 1's times below 190 us go back:
// 5, 15, ..., 185 us, 19 steps, the largest 190 - 5 = 185 us.
std::string merged_logs() {
  std::string text;
  for (std::uint64_t i = 0; i < 20; ++i) text += mqsim_line(1000000 + i * 10000, 100 + i, 0);
  for (std::uint64_t i = 0; i < 20; ++i) text += mqsim_line(1000000 + 5000 + i * 10000, 200 + i, 1);
  return text;
}

std::vector<HostRequest> sorted_reference(const std::vector<HostRequest>& file_order) {
  std::vector<HostRequest> v = file_order;
  std::stable_sort(v.begin(), v.end(), [](const HostRequest& a, const HostRequest& b) { return a.arrival_ns < b.arrival_ns; });
  const std::uint64_t first = v.empty() ? 0 : v.front().arrival_ns;
  for (auto& r : v) r.arrival_ns -= first;
  return v;
}

std::string error_of(Workload& w) {
  try {
    all_requests(w);
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("Clamp: a reversed trace counts n - 1 backward steps, the largest its span", "[stimuli][time-order]") {
  MsrTrace t(fixture("small_reversed.csv"));
  const auto v = all_requests(t);
  REQUIRE(v.size() == 40);
  CHECK(t.backward_steps() == 39);
  CHECK(t.clamped_arrivals() == 39);
  CHECK(t.largest_backward_step_ns() == kSmallSpanNs);
  for (const auto& r : v) CHECK(r.arrival_ns == 0);  // everything clamped to the first (latest) time
}

TEST_CASE("Clamp: merged per-disk logs count the steps of the second log", "[stimuli][time-order]") {
  ScratchDir dir;
  MqsimTrace t(dir.write("merged.trace", merged_logs()));
  const auto v = all_requests(t);
  REQUIRE(v.size() == 40);
  CHECK(t.backward_steps() == 19);
  CHECK(t.largest_backward_step_ns() == 185000);
  CHECK(v[20].arrival_ns == 190000);  // disk 1's first request, 5 us, clamped to 190 us
  CHECK(v[39].arrival_ns == 195000);  // its last, 195 us, is after everything: not clamped
  CHECK(std::is_sorted(v.begin(), v.end(), [](auto& a, auto& b) { return a.arrival_ns < b.arrival_ns; }));
}

TEST_CASE("Every reader counts backward steps", "[stimuli][time-order]") {
  ScratchDir dir;
  // Times 3, 1, 2 (seconds or their units): two steps back, the largest 2 units.
  SpcTrace spc(dir.write("t.spc", "0,1,512,w,3.0\n0,2,512,w,1.0\n0,3,512,r,2.0\n"));
  all_requests(spc);
  CHECK(spc.backward_steps() == 2);
  CHECK(spc.largest_backward_step_ns() == 2000000000ull);
  DisksimTrace disksim(dir.write("t.disksim", "3.0 0 1 8 0\n1.0 0 2 8 0\n2.0 0 3 8 1\n"));
  all_requests(disksim);
  CHECK(disksim.backward_steps() == 2);
  CHECK(disksim.largest_backward_step_ns() == 2000000ull);  // milliseconds
  MqsimTrace mqsim(dir.write("t.mqsim", mqsim_line(3, 1) + mqsim_line(1, 2) + mqsim_line(2, 3)));
  all_requests(mqsim);
  CHECK(mqsim.backward_steps() == 2);
  CHECK(mqsim.largest_backward_step_ns() == 2);
  // Selection and repetition pass the counts on (one pass's).
  RepeatedWorkload twice([&] { return open_trace(fixture("small_reversed.csv"), "auto"); }, 2);
  CHECK(all_requests(twice).size() == 80);
  CHECK(twice.backward_steps() == 39);
}

TEST_CASE("Refuse: the first backward step stops with file:line and both times", "[stimuli][time-order]") {
  ScratchDir dir;
  const std::string path = dir.write("merged.trace", merged_logs());
  MqsimTrace t(path, MalformedLines::Stop, TimeOrder::Refuse);
  HostRequest r;
  for (int i = 0; i < 20; ++i) REQUIRE(t.next(r));  // disk 0's log is in order
  CHECK_THROWS_WITH(t.next(r), Catch::StartsWith(path + ":21: time goes backwards") &&
                                   Catch::Contains("0.001005000 s") &&              // this line's time
                                   Catch::Contains("before that of line 20, 0.001190000 s") &&
                                   Catch::Contains("0.000185000 s before"));
  // --skip-bad-lines does not skip a refused step: it is not a malformed line.
  MqsimTrace skipping(path, MalformedLines::Skip, TimeOrder::Refuse);
  CHECK_THAT(error_of(skipping), Catch::Contains(path + ":21: time goes backwards"));
  // An ordered trace passes untouched.
  MsrTrace ordered(fixture("small.csv"), MalformedLines::Stop, TimeOrder::Refuse);
  MsrTrace clamped(fixture("small.csv"));
  CHECK(same_requests(all_requests(ordered), all_requests(clamped)));
}

TEST_CASE("Sort: a reversed trace replays as the ordered one, its whole span", "[stimuli][time-order]") {
  MsrTrace ordered(fixture("small.csv"));
  const auto expected = all_requests(ordered);
  auto sorted = open_trace(fixture("small_reversed.csv"), "auto", MalformedLines::Stop, TimeOrder::Sort);
  CHECK(sorted->describe() == "msr:" + fixture("small_reversed.csv") + ", sorted by time");
  const auto got = all_requests(*sorted);
  CHECK(same_requests(got, expected));
  CHECK(got.back().arrival_ns == kSmallSpanNs);
  CHECK(sorted->backward_steps() == 39);  // counted, and sorted instead of clamped
  CHECK(sorted->fraction_done() == 1.0);
  // Positions point at the file's lines: the last request replayed is the file's first line.
  CHECK(sorted->position() == fixture("small_reversed.csv") + ":1");
}

TEST_CASE("Sort is stable: equal times keep their file order", "[stimuli][time-order]") {
  ScratchDir dir;
  // Times 5 3 5 3 5 1 with the LBA as the file order: sorted 6 (t1), 2 4 (t3), 1 3 5 (t5).
  const std::uint64_t times[] = {5, 3, 5, 3, 5, 1};
  std::string text;
  for (std::uint64_t i = 0; i < 6; ++i) text += mqsim_line(1000 + times[i], i + 1);
  const std::string path = dir.write("ties.trace", text);
  const std::vector<std::uint64_t> expected_lbas{6, 2, 4, 1, 3, 5};
  for (std::size_t run : {1, 2, 3, 4, 100}) {
    INFO("run of " << run << " requests");
    SortedTrace t(std::make_unique<MqsimTrace>(path, MalformedLines::Stop, TimeOrder::Sort), run, 2);
    const auto v = all_requests(t);
    std::vector<std::uint64_t> lbas;
    for (const auto& r : v) lbas.push_back(r.lba);
    CHECK(lbas == expected_lbas);
    CHECK(v.front().arrival_ns == 0);
    CHECK(v.back().arrival_ns == 4);
    CHECK(t.spilled_runs() == (run >= 6 ? 0 : (6 + run - 1) / run));
  }
}

TEST_CASE("Sort: an external sort of many spilled runs equals the in-memory stable sort", "[stimuli][time-order]") {
  ScratchDir dir;
  // 1000 requests at pseudo-random times with many ties (times in [0, 200) us).
  std::string text;
  std::uint64_t x = 12345;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    text += mqsim_line(7000000 + (x >> 33) % 200 * 1000, i, std::uint32_t(x >> 60));
  }
  const std::string path = dir.write("random.trace", text);
  MqsimTrace file_order(path, MalformedLines::Stop, TimeOrder::Sort);  // absolute times, file order
  const auto expected = sorted_reference(all_requests(file_order));
  // Runs of 7 requests: 143 spill files, merged 3 at a time (several merge passes).
  SortedTrace external(std::make_unique<MqsimTrace>(path, MalformedLines::Stop, TimeOrder::Sort), 7, 3);
  const auto got = all_requests(external);
  CHECK(external.spilled_runs() == 143);
  CHECK(got.size() == 1000);
  CHECK(same_requests(got, expected));
  // The default sizes sort it in memory, with the same result.
  auto in_memory = open_trace(path, "mqsim", MalformedLines::Stop, TimeOrder::Sort);
  CHECK(same_requests(all_requests(*in_memory), expected));
}

TEST_CASE("Sort composes with device and window selection and with repetition", "[stimuli][time-order]") {
  ScratchDir dir;
  const std::string path = dir.write("merged.trace", merged_logs());
  // Sorted: 0 (d0), 5 (d1), 10 (d0), ..., 190 (d0), 195 (d1) us after 1 ms, relative to 1 ms.
  TraceSelectionSpec window;
  window.start_ns = 50000;
  window.end_ns = 100000;
  TraceSelection part(open_trace(path, "mqsim", MalformedLines::Stop, TimeOrder::Sort), window);
  const auto v = all_requests(part);
  REQUIRE(v.size() == 10);  // 50, 55, ..., 95 us
  CHECK(v.front().arrival_ns == 0);
  CHECK(v.front().lba == 105);  // disk 0's 6th request
  CHECK(v[1].lba == 205);       // then disk 1's at 55 us
  CHECK(v.back().arrival_ns == 45000);

  TraceSelectionSpec one;
  one.device = 1;
  TraceSelection disk1(open_trace(path, "mqsim", MalformedLines::Stop, TimeOrder::Sort), one);
  const auto d = all_requests(disk1);
  REQUIRE(d.size() == 20);
  CHECK(d.front().arrival_ns == 5000);  // relative to the trace's earliest request (disk 0's)

  RepeatedWorkload twice([&] { return open_trace(path, "mqsim", MalformedLines::Stop, TimeOrder::Sort); }, 2);
  const auto r = all_requests(twice);
  REQUIRE(r.size() == 80);
  CHECK(std::is_sorted(r.begin(), r.end(), [](auto& a, auto& b) { return a.arrival_ns < b.arrival_ns; }));
  // Pass 2 starts after pass 1's last request (195 us) by the pass length over its requests
  // (stimuli/repeated_workload.cpp), and replays pass 1 shifted.
  CHECK(r[39].arrival_ns == 195000);
  CHECK(r[40].arrival_ns == 195000 + 195000 / 40);
  CHECK(r[79].arrival_ns - r[40].arrival_ns == 195000);
}

TEST_CASE("Sort with malformed lines: skipped and counted, or an error with its file:line", "[stimuli][time-order]") {
  ScratchDir dir;
  const std::string path = dir.write("bad.trace", mqsim_line(3000, 1) + "junk line\n" + mqsim_line(1000, 2));
  auto skipping = open_trace(path, "mqsim", MalformedLines::Skip, TimeOrder::Sort);
  const auto v = all_requests(*skipping);
  REQUIRE(v.size() == 2);
  CHECK(v[0].lba == 2);
  CHECK(v[1].arrival_ns == 2000);
  CHECK(skipping->skipped_lines() == 1);
  CHECK_THAT(skipping->first_skipped(), Catch::Contains(path + ":2:"));
  auto stopping = open_trace(path, "mqsim", MalformedLines::Stop, TimeOrder::Sort);
  CHECK_THAT(error_of(*stopping), Catch::StartsWith(path + ":2: expected 5 blank-separated fields"));
  // A glitched time far in the past would stretch the sorted replay over years: malformed.
  const std::string glitch = dir.write("glitch.trace", mqsim_line(400ull * 24 * 3600 * 1000000000ull, 1) + mqsim_line(5, 2));
  auto g = open_trace(glitch, "mqsim", MalformedLines::Stop, TimeOrder::Sort);
  CHECK_THAT(error_of(*g), Catch::Contains(glitch + ":2: expected a time within a year"));
}
