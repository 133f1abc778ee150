// The simulator's shipped files (platforms/*.yaml, workloads/traces/), found at run time rather
// than through a path compiled into the executable: $SSDSIM_DATA_DIR when set, otherwise the
// nearest folder above the executable that holds platforms/default.yaml (the source checkout
// for a build tree such as build/platforms/ssdsim).
#pragma once

#include <string>

namespace ssd::platform {

// `relative` under the data folder; throws ConfigError naming what was searched when none is found.
std::string data_file(const std::string& relative);

}  // namespace ssd::platform
