// Drives a trace reader over a fuzz input the ways ssdsim does, and checks what the readers
// promise (stimuli/text_trace.h, stimuli/host_request.h, stimuli/request_admission.h):
// - stopping at the first malformed line, and skipping malformed lines, in file order with
//   backward steps clamped: requests of at least one sector that end within 64-bit sector
//   addresses, arrivals from 0 that never go backwards;
// - sorted by time through the external merge sort (runs of 16 requests, so runs spill and
//   merge in rounds): the same requests as the clamped read, in non-decreasing time;
// - every request through the admission rules of a 64 MiB drive, with and without --fold: one
//   that is admitted lies inside the drive.
// WorkloadError is the documented refusal; any other exception, crash, sanitizer report or hang
// is a finding. Inputs whose text (after decompression) exceeds kMaxTextBytes are passed over: a
// few hundred bytes of bzip2 can hold half a million lines, and once the corpus fills with such
// inputs the campaign spends its time splitting lines that say nothing new (the readers' limits
// on huge files are tested by the test suite, not here).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "fuzz/fuzz_input.h"
#include "stimuli/host_request.h"
#include "stimuli/request_admission.h"
#include "stimuli/sorted_trace.h"
#include "stimuli/text_trace.h"
#include "stimuli/trace_file.h"

namespace ssd::fuzz {

constexpr std::uint64_t kDriveSectors = (64ull << 20) / 512;
constexpr std::size_t kMaxTextBytes = 256 * 1024;

// Whether the file's text, decompressed, is at most kMaxTextBytes (a file the readers refuse
// outright counts as small: the refusal is quick and worth testing).
inline bool text_within_bound(const std::string& path) {
  try {
    stimuli::TraceFile file(path);
    char chunk[16 * 1024];
    std::size_t total = 0;
    for (std::size_t n; (n = file.read(chunk, sizeof chunk)) > 0;)
      if ((total += n) > kMaxTextBytes) return false;
  } catch (const stimuli::WorkloadError&) {
  }
  return true;
}

inline stimuli::RequestAdmission admission(bool fold) {
  stimuli::AdmissionRules rules;
  rules.capacity_sectors = kDriveSectors;
  rules.page_bytes = 4096;
  rules.max_request_pages = 1024;
  rules.fold_addresses = fold;
  return stimuli::RequestAdmission(rules);
}

inline void admit(stimuli::HostRequest r, const stimuli::Workload& from) {
  for (bool fold : {false, true}) {
    try {
      admission(fold).admit(r, from);
      expect(r.lba < kDriveSectors && r.sectors <= kDriveSectors - r.lba, "an admitted request lies inside the drive");
    } catch (const stimuli::WorkloadError&) {
    }
  }
}

// Reads `w` to its end; returns the number of requests.
inline std::uint64_t drain(stimuli::Workload& w) {
  stimuli::HostRequest r;
  std::uint64_t previous = 0, count = 0;
  while (w.next(r)) {
    // A flush carries no data and no address; every other request covers at least one sector.
    expect(r.is_flush() ? r.sectors == 0 && r.lba == 0 : r.sectors > 0,
           "a flush has no sectors, a read or write at least one");
    expect(r.lba <= std::numeric_limits<std::uint64_t>::max() - r.sectors, "a request ends below 2^64 sectors");
    expect(count > 0 || r.arrival_ns == 0, "the first request arrives at 0");
    expect(r.arrival_ns >= previous, "arrivals never go backwards");
    admit(r, w);
    previous = r.arrival_ns;
    ++count;
  }
  expect(!w.next(r), "a finished trace stays finished");
  return count;
}

// Open(path, policy, order) returns the reader.
template <typename Open>
void fuzz_trace(const std::uint8_t* data, std::size_t size, InputFile& file, Open open) {
  using stimuli::MalformedLines, stimuli::TimeOrder;
  const std::string& path = file.write(data, size);
  if (!text_within_bound(path)) return;
  std::uint64_t clamped = 0;
  bool read_whole = false;
  try {
    auto w = open(path, MalformedLines::Stop, TimeOrder::Clamp);
    clamped = drain(*w);
    read_whole = true;
  } catch (const stimuli::WorkloadError&) {
  }
  try {
    auto w = open(path, MalformedLines::Skip, TimeOrder::Clamp);
    drain(*w);
  } catch (const stimuli::WorkloadError&) {
  }
  try {  // (stopping at a bad line: skipping them all twice would double the slowest inputs' time)
    auto w = open(path, MalformedLines::Stop, TimeOrder::Sort);
    const std::uint64_t sorted = drain(*w);
    expect(!read_whole || sorted == clamped, "sorting keeps every request");
  } catch (const stimuli::WorkloadError&) {
  }
}

// One reader class, sorted with runs of 16 requests merged 4 at a time.
template <typename Reader>
void fuzz_reader(const std::uint8_t* data, std::size_t size, InputFile& file) {
  fuzz_trace(data, size, file,
             [](const std::string& path, stimuli::MalformedLines policy,
                stimuli::TimeOrder order) -> std::unique_ptr<stimuli::Workload> {
               auto reader = std::make_unique<Reader>(path, policy, order);
               if (order != stimuli::TimeOrder::Sort) return reader;
               return std::make_unique<stimuli::SortedTrace>(std::move(reader), 16, 4);
             });
}

}  // namespace ssd::fuzz
