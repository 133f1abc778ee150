// Whether an exception is about what the user gave (a platform file or override, FTL options,
// sizes the firmware's memories cannot hold, a workload or trace) rather than the model stopping
// on an internal error: the command line maps the first to its bad-input exit code, and the
// alone runs (alone_runs.h) pass it on as such.
#pragma once

#include <exception>

#include "fw/ftl/ftl_options.h"
#include "fw/hal/table_placer.h"
#include "platforms/config/platform_config.h"
#include "stimuli/host_request.h"

namespace ssd::platform {

inline bool is_input_error(const std::exception& e) {
  return dynamic_cast<const ConfigError*>(&e) || dynamic_cast<const fw::FtlOptionError*>(&e) ||
         dynamic_cast<const fw::ResourceError*>(&e) || dynamic_cast<const stimuli::WorkloadError*>(&e);
}

}  // namespace ssd::platform
