// Reader for the MSR Cambridge block I/O traces (SNIA IOTTA, Narayanan et al., FAST 2008).
//
// Format: CSV without a header, one request per line:
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
// Timestamp is a Windows FILETIME (100 ns ticks), Offset and Size are bytes, Type is `Read` or
// `Write` (matched case-insensitively), ResponseTime is in 100 ns ticks and is ignored here.
//
// The file is read lazily, one line per next(), so a multi-gigabyte trace costs no memory; it
// may be compressed (gzip, bzip2, xz, zstd: decompressed on the fly) and start with a UTF-8
// byte-order mark (skipped). See stimuli/trace_lines.h.
//
// Mapping to HostRequest:
//   arrival_ns = (Timestamp - first Timestamp) * 100
//   lba        = Offset / 512
//   sectors    = ceil((Offset % 512 + Size) / 512), i.e. every sector the byte range touches
//   issuer     = DiskNumber
//   write      = Type is Write
//
// Timestamps are normally non-decreasing. Backward steps (merged per-disk logs, multi-volume
// captures) are counted, with the largest, and by the TimeOrder given (stimuli/text_trace.h):
// Clamp (default) accepts the request at the previous request's arrival, so the stream handed
// to the host stays non-decreasing (the run's summary warns); Refuse stops with an error naming
// file:line and both times; Sort hands absolute times on for SortedTrace to replay the trace in
// time order (--time-order, see stimuli/open_trace.h).
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
