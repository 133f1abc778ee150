// Where the requests' time went (common/latency_trail.h): per operation (read, write, all), each
// stage's mean and p99 in microseconds and its share of the mean latency, from the host model's
// sets host.latency_breakdown.read and .write (or a flow's). The stage means of an operation add up to its
// mean latency.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/metrics.h"

namespace ssd::platform {

// ecc_stages: with the ECC engine's stages (ecc_decode, read_retry, soft_decode; reliability.errors),
// which a drive without bit errors never spends time in. `prefix`: whose sets (<prefix>.latency_breakdown.read,
// ...): the host's, or one flow's (host.flows.<queue>).
nlohmann::json latency_breakdown_section(const MetricsRegistry& metrics, bool ecc_stages,
                                         const std::string& prefix = "host");

// One summary line per operation with requests: its largest stages and their shares.
std::string latency_breakdown_text(const nlohmann::json& breakdown);

}  // namespace ssd::platform
