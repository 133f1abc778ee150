// Shared setup for whole-platform model tests.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "platforms/run/drive_testbench.h"
#include "stimuli/synthetic_workload.h"

namespace ssd::test {

inline platform::PlatformConfig tiny_platform(const std::vector<std::string>& overrides) {
  return platform::load_platform(std::string(SSD_SOURCE_DIR) + "/platforms/tiny.yaml", overrides);
}

// A synthetic workload over the whole drive when spec.range_bytes is 0.
inline platform::WorkloadFactory synthetic(stimuli::SyntheticSpec spec) {
  return [spec](std::uint64_t capacity) {
    stimuli::SyntheticSpec s = spec;
    if (s.range_bytes == 0) s.range_bytes = capacity * 512;
    return std::make_unique<stimuli::SyntheticWorkload>(s);
  };
}

}  // namespace ssd::test
