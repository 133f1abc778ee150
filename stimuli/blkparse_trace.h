// Reader for blkparse text output (default format), taking the D events (requests issued to
// the driver) as the requests:
//   maj,min cpu seq time_s pid action RWBS sector + nsect [process]
// time_s is seconds (decimal), sector and nsect are 512-byte sectors. RWBS is the kernel's
// (blk_fill_rwbs): an optional F for a preflush, the operation (R read, W write, D discard,
// F flush, N none), then flag letters, of which F after the operation is Force Unit Access
// (A readahead, S sync, M metadata, ...). Mapping: arrival_ns = time_s x 1e9 (relative to the
// first request; backward steps clamped, refused or sorted: stimuli/text_trace.h), lba = sector,
// sectors = nsect, issuer = pid; a W with the FUA flag is a FUA write. A flush operation, or a
// preflush without data ("FWS 0 + 0", "FN"), is a flush (common/host_op.h); a preflush with data
// is a flush followed by the request at the same time (the kernel issues the data once the flush
// completed; the replay issues both together). A discard (D with a range) is a trim of its range
// (common/host_op.h). Other actions (Q, I, C, ...), secure erases and other D events without data
// are well-formed lines that are not requests (counted as ignored). The
// summary blkparse prints at the end ("CPU0 (8,16):", "Total ...") ends the events.
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
  struct Rwbs {
    bool preflush = false, fua = false;
    char op = 'N';
  };
  static Rwbs parse_rwbs(std::string_view text);
  std::vector<std::string_view> fields_ = std::vector<std::string_view>(11);
};

}  // namespace ssd::stimuli
