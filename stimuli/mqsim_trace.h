// Reader for MQSim's ASCII traces (CMU-SAFARI/MQSim; the TPC-C and WebSearch excerpts).
//
// Format: one request per line, fields separated by blanks:
//   ArrivalTime_ns DeviceNumber StartLBA SizeInSectors Type
// LBA and size are in 512-byte sectors; Type 0 = write, 1 = read.
//
// Mapping to HostRequest: arrival_ns = ArrivalTime - first ArrivalTime (clamped to stay
// non-decreasing), lba = StartLBA, sectors = SizeInSectors, issuer = DeviceNumber, write =
// Type 0. Several devices share one address space here (MQSim does the same); use --fold to
// bring addresses beyond the drive into it.
//
// Blank lines and CRs are skipped; any other malformed line throws WorkloadError
// "<path>:<line>: <what was expected>, got '<line>'".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stimuli/host_request.h"
#include "stimuli/trace_lines.h"

namespace ssd::stimuli {

class MqsimTrace : public Workload {
 public:
  explicit MqsimTrace(const std::string& path) : lines_(path) {}

  bool next(HostRequest& r) override;
  std::string describe() const override { return "mqsim:" + lines_.path(); }
  std::string position() const override { return lines_.position(); }
  std::uint64_t clamped_arrivals() const { return clock_.clamped(); }

 private:
  TraceLines lines_;
  ArrivalClock clock_;
  std::vector<std::string_view> fields_ = std::vector<std::string_view>(5);
};

}  // namespace ssd::stimuli
