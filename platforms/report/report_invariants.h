// The sanity layer: invariants every report must satisfy before it is written. A violation is
// an internal error of the simulator (exit 3) naming the invariant, never a plausible report.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace ssd::platform {

class InvariantError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the workload was known to hold before simulation (the pre-pass over it).
struct WorkloadTotals {
  std::uint64_t requests = 0;
  std::uint64_t bytes = 0;  // sectors x 512 of every request
};

// Checks: simulated time within the time base; no busy fraction or utilization above 1;
// requests completed equal requests issued; bytes moved equal the workload's bytes; latency
// percentiles non-decreasing up to the maximum, mean within [min percentile, max]; WAF >= 1
// when data was written and the drive was not written to from its host buffer alone.
// Throws InvariantError "report invariant '<name>' violated: <detail>".
void check_report_invariants(const nlohmann::json& report, const WorkloadTotals& workload);

}  // namespace ssd::platform
