// Drives one trace reader over a fuzz input to the end, once stopping at the first malformed
// line and once skipping them, and checks what every reader promises (stimuli/text_trace.h,
// stimuli/host_request.h): requests of at least one sector that end within 64-bit sector
// addresses, arrivals from 0 that never go backwards. WorkloadError is the documented way to
// refuse input; any other exception, crash, sanitizer report or hang is a finding.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "fuzz/fuzz_input.h"
#include "stimuli/host_request.h"
#include "stimuli/text_trace.h"

namespace ssd::fuzz {

inline void drain(stimuli::Workload& w) {
  stimuli::HostRequest r;
  std::uint64_t previous = 0, count = 0;
  while (w.next(r)) {
    expect(r.sectors > 0, "a request covers at least one sector");
    expect(r.lba <= std::numeric_limits<std::uint64_t>::max() - r.sectors, "a request ends below 2^64 sectors");
    expect(count > 0 || r.arrival_ns == 0, "the first request arrives at 0");
    expect(r.arrival_ns >= previous, "arrivals never go backwards");
    previous = r.arrival_ns;
    ++count;
  }
  expect(!w.next(r), "a finished trace stays finished");
}

// Open(path, policy) returns the reader (a unique_ptr to a Workload).
template <typename Open>
void fuzz_trace(const std::uint8_t* data, std::size_t size, InputFile& file, Open open) {
  const std::string& path = file.write(data, size);
  for (auto policy : {stimuli::MalformedLines::Stop, stimuli::MalformedLines::Skip}) {
    try {
      std::unique_ptr<stimuli::Workload> w = open(path, policy);
      drain(*w);
    } catch (const stimuli::WorkloadError&) {
      // bad input, refused with a message: fine
    }
  }
}

template <typename Reader>
void fuzz_reader(const std::uint8_t* data, std::size_t size, InputFile& file) {
  fuzz_trace(data, size, file, [](const std::string& path, stimuli::MalformedLines policy) {
    return std::make_unique<Reader>(path, policy);
  });
}

}  // namespace ssd::fuzz
