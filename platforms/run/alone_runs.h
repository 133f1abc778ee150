// Slowdown and fairness between flows, as MQSim defines them (Tavakkol et al., FAST'18): each
// flow's slowdown is its mean response time (reads and writes) with the other flows over its
// mean response time when it runs alone on the same drive; fairness is the smallest slowdown over
// the largest (1: every flow slowed alike). The alone runs (`run --alone-runs`) are the same run
// with one queue's requests kept (RunOptions::only_queue; the same seeds, so the same requests),
// each in a child process of its own since SystemC elaborates once a process. They run before the
// shared run, one at a time.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "platforms/run/simulation.h"

namespace ssd::platform {

struct AloneRun {
  std::uint32_t queue = 0;
  std::uint64_t requests = 0;     // reads and writes completed
  double mean_latency_us = 0;     // of reads and writes
};

// The flows a run has: its job file's queues, or --queues; 1 without either.
std::uint32_t flow_count(const RunOptions& options);

// Each flow run alone. Throws RunError naming the flow when an alone run fails, ConfigError when
// the run has one flow.
std::vector<AloneRun> run_flows_alone(const RunOptions& options);

// Adds each flow's alone latency and slowdown to report.host.flows, and host.fairness.
void add_slowdowns(nlohmann::json& report, const std::vector<AloneRun>& alone);

}  // namespace ssd::platform
