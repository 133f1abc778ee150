#include "stimuli/open_trace.h"

#include <vector>

#include "stimuli/mqsim_trace.h"
#include "stimuli/msr_trace.h"
#include "stimuli/trace_lines.h"

namespace ssd::stimuli {

namespace {
std::string detect(const std::string& path) {
  if (path.size() >= 4 && iequals(std::string_view(path).substr(path.size() - 4), ".csv")) return "msr";
  TraceLines lines(path);
  std::string_view first;
  if (lines.next(first)) {
    std::vector<std::string_view> f(5);
    std::uint64_t v = 0;
    bool numbers = TraceLines::split(first, ' ', f) == 5;
    for (auto field : f) numbers = numbers && parse_u64(field, v);
    if (numbers) return "mqsim";
  }
  throw WorkloadError("cannot tell the format of trace file '" + path + "' (give --trace-format: " +
                      std::string(trace_formats()) + ")");
}
}  // namespace

std::unique_ptr<Workload> open_trace(const std::string& path, const std::string& format) {
  const std::string f = format == "auto" ? detect(path) : format;
  if (f == "msr") return std::make_unique<MsrTrace>(path);
  if (f == "mqsim") return std::make_unique<MqsimTrace>(path);
  throw WorkloadError("unknown trace format '" + format + "' (known: " + std::string(trace_formats()) + ")");
}

}  // namespace ssd::stimuli
