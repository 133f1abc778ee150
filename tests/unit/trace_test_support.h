// Helpers for the trace reader tests: summarising a workload, writing small trace files.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "stimuli/host_request.h"

namespace ssd::test {

// ../shared/traces sits beside the project in the development workspace and in CI, not in a
// plain clone: tests of those traces are skipped, with a message, when it is absent.
inline bool shared_traces_present() { return std::filesystem::is_directory(SSD_SHARED_TRACES); }
#define SKIP_WITHOUT_SHARED_TRACES()                                                   \
  if (!ssd::test::shared_traces_present()) {                                           \
    WARN("skipped: " << SSD_SHARED_TRACES << " is absent (a clone without ../shared)"); \
    return;                                                                            \
  }
// The bundled copy of MSR hm_0 (workloads/traces), which every clone has.
inline std::string bundled_trace(const std::string& name) {
  return std::string(SSD_SOURCE_DIR) + "/workloads/traces/" + name;
}

struct TraceTotals {
  std::uint64_t requests = 0, reads = 0, sectors = 0, max_issuer = 0;
  stimuli::HostRequest first, last;
  bool monotonic = true;  // arrivals never go backwards
};

inline TraceTotals totals(stimuli::Workload& w) {
  TraceTotals t;
  stimuli::HostRequest r;
  while (w.next(r)) {
    if (t.requests == 0) t.first = r;
    if (t.requests > 0 && r.arrival_ns < t.last.arrival_ns) t.monotonic = false;
    t.last = r;
    ++t.requests;
    t.reads += !r.is_write();
    t.sectors += r.sectors;
    t.max_issuer = std::max<std::uint64_t>(t.max_issuer, r.issuer);
  }
  return t;
}

// Writes `text` to a file of that name in the temporary directory; returns its path.
inline std::string write_temp_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace ssd::test
