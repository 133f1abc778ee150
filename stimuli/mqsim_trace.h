// Reader for MQSim's ASCII traces (CMU-SAFARI/MQSim; the TPC-C and WebSearch excerpts).
//
// Format: one request per line, fields separated by blanks:
//   ArrivalTime_ns DeviceNumber StartLBA SizeInSectors Type
// LBA and size are in 512-byte sectors; Type 0 = write, 1 = read.
//
// Mapping to HostRequest: arrival_ns = ArrivalTime - first ArrivalTime (times going backwards
// are clamped, refused or sorted: see stimuli/text_trace.h), lba = StartLBA, sectors = SizeInSectors, issuer = DeviceNumber, write =
// Type 0. Several devices share one address space here (MQSim does the same); use --fold to
// bring addresses beyond the drive into it.
//
// Blank lines and CRs are skipped; any other malformed line throws WorkloadError
// "<path>:<line>: <what was expected>, got '<line>'" (or is skipped and counted).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stimuli/host_request.h"
#include "stimuli/text_trace.h"

namespace ssd::stimuli {

class MqsimTrace : public TextTrace {
 public:
  explicit MqsimTrace(const std::string& path, MalformedLines policy = MalformedLines::Stop,
      TimeOrder order = TimeOrder::Clamp)
      : TextTrace(path, "mqsim", policy, order) {}

 protected:
  Line parse(std::string_view line, HostRequest& r) override;

 private:
  std::vector<std::string_view> fields_ = std::vector<std::string_view>(5);
};

}  // namespace ssd::stimuli
