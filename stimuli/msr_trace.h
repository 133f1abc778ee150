// Reader for the MSR Cambridge block I/O traces (SNIA IOTTA, Narayanan et al., FAST 2008).
//
// Format: CSV without a header, one request per line:
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
// Timestamp is a Windows FILETIME (100 ns ticks), Offset and Size are bytes, Type is `Read` or
// `Write` (matched case-insensitively), ResponseTime is in 100 ns ticks and is ignored here.
//
// The file is read lazily, one line per next(), so a multi-gigabyte trace costs no memory.
//
// Mapping to HostRequest:
//   arrival_ns = (Timestamp - first Timestamp) * 100
//   lba        = Offset / 512
//   sectors    = ceil((Offset % 512 + Size) / 512), i.e. every sector the byte range touches
//   issuer     = DiskNumber
//   write      = Type is Write
//
// Timestamps are normally non-decreasing. Should one go backwards (merged or re-sorted traces),
// the request is accepted but its arrival is clamped to the previous request's arrival, so the
// stream handed to the host is always non-decreasing in time; the clamping is counted.
//
// Empty lines and a trailing '\r' (CRLF files) are skipped silently. Any other malformed line
// throws WorkloadError "<path>:<line>: <what was expected>, got '<line>'", with <line> the 1-based
// physical line number (blank lines count), or is skipped and counted (MalformedLines::Skip).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stimuli/host_request.h"
#include "stimuli/text_trace.h"

namespace ssd::stimuli {

class MsrTrace : public TextTrace {
 public:
  // Throws WorkloadError("cannot open trace file '<path>'") if the file cannot be opened.
  explicit MsrTrace(const std::string& path, MalformedLines policy = MalformedLines::Stop,
      TimeOrder order = TimeOrder::Clamp)
      : TextTrace(path, "msr", policy, order) {}

 protected:
  Line parse(std::string_view line, HostRequest& r) override;

 private:
  std::vector<std::string_view> fields_ = std::vector<std::string_view>(7);
};

}  // namespace ssd::stimuli
