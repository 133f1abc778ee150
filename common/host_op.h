// What a host command asks of the drive (NVMe I/O command set: Read 02h, Write 01h, Flush 00h),
// from the workload through the host interface to the firmware. Standard-library only: the
// firmware image carries it too.
//
// Durability: a write completes once its data is in the controller (the DRAM write buffer, when
// it is on), where a power loss would take it. A Flush completes once every write completed
// before it was submitted is on the flash; a write with Force Unit Access (HostCommand::fua)
// completes once its own data is on the flash. Neither stops other writes.
#pragma once

#include <cstdint>

namespace ssd {

enum class HostOp : std::uint8_t { Read = 0, Write = 1, Flush = 2 };

inline const char* to_string(HostOp op) {
  return op == HostOp::Read ? "read" : op == HostOp::Write ? "write" : "flush";
}

}  // namespace ssd
