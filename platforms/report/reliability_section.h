// The report's reliability section (reliability.errors): how page reads decoded, from the
// channel controllers' statistics (hw/channel/channel_controller.h) and the oracle's count of
// reads the host saw fail.
#pragma once

#include <nlohmann/json.hpp>

#include "common/metrics.h"
#include "platforms/config/platform_config.h"

namespace ssd::platform {

nlohmann::json reliability_section(const PlatformConfig& config, const MetricsRegistry& metrics,
                                   std::uint64_t failed_host_reads, std::uint64_t reported_lost_pages);
std::string reliability_text(const nlohmann::json& reliability);  // one summary line

}  // namespace ssd::platform
