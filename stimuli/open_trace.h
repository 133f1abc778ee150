// Opens a trace file with the reader for its format: "msr" (MSR Cambridge CSV), "mqsim"
// (MQSim ASCII), or "auto": *.csv is MSR; otherwise a first line of five blank-separated
// integers is MQSim. Throws WorkloadError naming the file when the format is unknown or cannot
// be told.
#pragma once

#include <memory>
#include <string>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

std::unique_ptr<Workload> open_trace(const std::string& path, const std::string& format);
inline const char* trace_formats() { return "auto, msr, mqsim"; }

}  // namespace ssd::stimuli
