// Reader for DiskSim ASCII traces (the shared disksim/ascii.trace).
//
// Format: one request per line, blank-separated: time_ms devno blkno bcount flags. time_ms is
// a decimal number of milliseconds; blkno and bcount are in 512-byte sectors; flags bit 0 set
// means read. Mapping: arrival_ns = time_ms x 1e6 (relative to the first request; times
// going backwards are clamped, refused or sorted: see stimuli/text_trace.h), lba = blkno, sectors = bcount, issuer = devno.
#pragma once

#include <string>
#include <vector>

#include "stimuli/text_trace.h"

namespace ssd::stimuli {

class DisksimTrace : public TextTrace {
 public:
  explicit DisksimTrace(const std::string& path, MalformedLines policy = MalformedLines::Stop,
      TimeOrder order = TimeOrder::Clamp)
      : TextTrace(path, "disksim", policy, order) {}

 protected:
  Line parse(std::string_view line, HostRequest& r) override;

 private:
  std::vector<std::string_view> fields_ = std::vector<std::string_view>(5);
};

}  // namespace ssd::stimuli
