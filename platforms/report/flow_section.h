// Per flow (I/O queue), in a run with more than one (report host.flows, one entry per queue in
// queue order): its class and depth, operations and bytes, its span (its first arrival to its last
// completion) with the throughput over it, latency percentiles per operation and its latency
// breakdown, from the host model's sets host.flows.<queue>. --alone-runs adds each flow's alone
// latency and slowdown (platforms/run/alone_runs.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/io_queue.h"
#include "common/metrics.h"

namespace ssd::platform {

nlohmann::json flows_section(const MetricsRegistry& metrics, const std::vector<IoQueueSpec>& queues, bool ecc_stages);

// One summary line per flow, and the fairness when the alone runs gave it.
std::string flows_text(const nlohmann::json& host);

}  // namespace ssd::platform
