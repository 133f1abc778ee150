#include "stimuli/open_trace.h"

#include <vector>

#include "stimuli/blkparse_trace.h"
#include "stimuli/disksim_trace.h"
#include "stimuli/mqsim_trace.h"
#include "stimuli/msr_trace.h"
#include "stimuli/sorted_trace.h"
#include "stimuli/spc_trace.h"
#include "stimuli/trace_lines.h"

namespace ssd::stimuli {

namespace {
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && iequals(s.substr(s.size() - suffix.size()), suffix);
}

// Control characters other than tabs: a binary file, not a text trace.
bool looks_binary(std::string_view line) {
  for (unsigned char c : line)
    if (c < 0x20 && c != '\t') return true;
  return false;
}

// The format of a file whose name does not say, from its first non-blank line.
std::string sniff(const std::string& path) {
  TraceLines lines(path);
  std::string_view first;
  if (lines.next(first)) {
    std::vector<std::string_view> f(7);
    std::uint64_t v = 0;
    double d = 0;
    const std::size_t commas = TraceLines::split(first, ',', f);
    if (commas == 7) return "msr";
    if (commas >= 5 && (iequals(f[3], "r") || iequals(f[3], "w"))) return "spc";
    const std::size_t blanks = TraceLines::split(first, ' ', f);
    if (blanks >= 7 && f[0].find(',') != std::string_view::npos) return "blkparse";
    if (blanks == 5) {
      bool integers = true;
      for (std::size_t i = 1; i < 5; ++i) integers = integers && parse_u64(f[i], v);
      if (integers && parse_u64(f[0], v)) return "mqsim";                  // integer nanoseconds
      if (integers && parse_seconds_like(f[0], d)) return "disksim";       // decimal milliseconds
    }
  }
  const bool binary = lines.line_number() > 0 && looks_binary(first);
  throw WorkloadError("cannot tell the format of trace file '" + path + "'" +
                      (binary ? " (its first line holds binary data: not a text trace?)" : "") +
                      " (give --trace-format: " + std::string(trace_formats()) + ")");
}

std::unique_ptr<TextTrace> open_reader(const std::string& path, const std::string& format, MalformedLines policy,
                                       TimeOrder order) {
  std::string f = format;
  if (f == "auto") {
    const std::string_view name = without_compression_suffix(path);
    f = ends_with(name, ".csv") ? "msr" : ends_with(name, ".spc") ? "spc" : sniff(path);
  }
  if (f == "msr") return std::make_unique<MsrTrace>(path, policy, order);
  if (f == "mqsim") return std::make_unique<MqsimTrace>(path, policy, order);
  if (f == "disksim") return std::make_unique<DisksimTrace>(path, policy, order);
  if (f == "blkparse") return std::make_unique<BlkparseTrace>(path, policy, order);
  if (f == "spc") return std::make_unique<SpcTrace>(path, policy, order);
  throw WorkloadError("unknown trace format '" + format + "' (known: " + std::string(trace_formats()) + ")");
}
}  // namespace

std::unique_ptr<Workload> open_trace(const std::string& path, const std::string& format, MalformedLines policy,
                                     TimeOrder order) {
  auto reader = open_reader(path, format, policy, order);
  if (order == TimeOrder::Sort) return std::make_unique<SortedTrace>(std::move(reader));
  return reader;
}

}  // namespace ssd::stimuli
