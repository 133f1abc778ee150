// A host command as the firmware sees it after the host interface fetched it from the
// submission queue, and the firmware's entry point for it (implemented by Firmware, called by
// whichever HAL platform delivers commands: the co-simulation's or the functional drive's).
#pragma once

#include <cstdint>

#include "common/geometry.h"
#include "common/host_op.h"
#include "common/host_addressing.h"
#include "common/latency_trail.h"

namespace ssd::fw {

// Token arrays hold one entry per logical page the command touches (first to last).
struct HostCommand {
  std::uint32_t id = 0;  // unique among commands in flight
  HostOp op = HostOp::Read;
  std::uint64_t lba = 0;  // first 512-byte sector
  std::uint32_t sectors = 0;
  const Token* write_tokens = nullptr;  // write: the host's token for each page
  Token* read_tokens = nullptr;         // read: filled by the firmware before completion
  std::uint32_t issuer = 0;             // trace device / process / stream id
  LatencyTrail trail;                   // the request's latency so far (common/latency_trail.h)
  bool fua = false;                     // a write's Force Unit Access: completes once on the flash

  bool is_write() const { return op == HostOp::Write; }
};

class HostCommandHandler {
 public:
  virtual ~HostCommandHandler() = default;
  // A fetched command; the firmware completes it later through Hal::complete_host_command(id, trail).
  virtual void on_host_command(const HostCommand& cmd) = 0;
};

}  // namespace ssd::fw
