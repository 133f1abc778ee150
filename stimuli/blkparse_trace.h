// Reader for blkparse text output (default format), taking the D events (requests issued to
// the driver) as the requests:
//   maj,min cpu seq time_s pid action RWBS sector + nsect [process]
// time_s is seconds (decimal), sector and nsect are 512-byte sectors, RWBS holds R (read) or W
// (write) plus flag letters (S, M, F, ...). Mapping: arrival_ns = time_s x 1e9 (relative to the
// first request; backward steps clamped, refused or sorted: stimuli/text_trace.h), lba = sector, sectors = nsect, issuer = pid.
// Other actions (Q, I, C, ...) and D events without data (flushes, discards, nsect 0) are
// well-formed lines that are not requests (counted as ignored). The summary blkparse prints at
// the end ("CPU0 (8,16):", "Total ...") ends the events.
#pragma once

#include <string>
#include <vector>

#include "stimuli/text_trace.h"

namespace ssd::stimuli {

class BlkparseTrace : public TextTrace {
 public:
  explicit BlkparseTrace(const std::string& path, MalformedLines policy = MalformedLines::Stop,
      TimeOrder order = TimeOrder::Clamp)
      : TextTrace(path, "blkparse", policy, order) {}

 protected:
  Line parse(std::string_view line, HostRequest& r) override;

 private:
  std::vector<std::string_view> fields_ = std::vector<std::string_view>(11);
};

}  // namespace ssd::stimuli
