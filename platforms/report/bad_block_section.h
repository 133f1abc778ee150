// The report's bad_blocks section (any failures.* on): the flash's bad blocks and failures, and
// what the firmware made of them (fw/firmware/bad_block_handler.h, fw/ftl/common/segment_space.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/metrics.h"
#include "platforms/report/report.h"

namespace ssd::platform {

nlohmann::json bad_block_section(const MetricsRegistry& metrics, const RunFacts& facts);
std::string bad_block_text(const nlohmann::json& bad_blocks);  // one summary line

}  // namespace ssd::platform
