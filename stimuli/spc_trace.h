// Reader for UMass / SPC traces (.spc; Financial, WebSearch from the UMass repository).
//
// Format: comma-separated ASU,LBA,Size,Opcode,Timestamp[,more fields ignored]. LBA is in
// 512-byte sectors within the ASU, Size in bytes, Opcode r or w (either case), Timestamp in
// seconds from the trace start. Mapping: arrival_ns = Timestamp x 1e9 (backward steps
// clamped, refused or sorted: stimuli/text_trace.h),
// lba = LBA, sectors = ceil(Size / 512), issuer = ASU (several ASUs share one address space:
// see the device options of `ssdsim run`).
#pragma once

#include <string>
#include <vector>

#include "stimuli/text_trace.h"

namespace ssd::stimuli {

class SpcTrace : public TextTrace {
 public:
  explicit SpcTrace(const std::string& path, MalformedLines policy = MalformedLines::Stop,
      TimeOrder order = TimeOrder::Clamp)
      : TextTrace(path, "spc", policy, order) {}

 protected:
  Line parse(std::string_view line, HostRequest& r) override;

 private:
  std::vector<std::string_view> fields_ = std::vector<std::string_view>(5);
};

}  // namespace ssd::stimuli
