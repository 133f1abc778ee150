// What a host command asks of the drive (NVMe I/O command set: Read 02h, Write 01h, Flush 00h,
// Dataset Management 09h with the Deallocate attribute: Trim), from the workload through the host
// interface to the firmware. Standard-library only: the firmware image carries it too.
//
// Durability: a write completes once its data is in the controller (the DRAM write buffer, when
// it is on), where a power loss would take it. A Flush completes once every write completed
// before it was submitted is on the flash; a write with Force Unit Access (HostCommand::fua)
// completes once its own data is on the flash. Neither stops other writes.
//
// Trim deallocates a range of sectors: every logical page the range covers whole reads back as
// never written (kUnwrittenToken, NVMe's deallocated logical blocks returning zeros) until it is
// written again, and its data is invalid for garbage collection and merges; a page the range
// covers only in part keeps its data (deallocation is advisory in NVMe, and the drive maps whole
// pages). A trim completes once the mapping has dropped its pages; it is not made durable across
// a power cut (the FTLs journal no trims), so runs with a power cut refuse them.
#pragma once

#include <cstdint>

namespace ssd {

enum class HostOp : std::uint8_t { Read = 0, Write = 1, Flush = 2, Trim = 3 };

inline const char* to_string(HostOp op) {
  return op == HostOp::Read ? "read" : op == HostOp::Write ? "write" : op == HostOp::Flush ? "flush" : "trim";
}

}  // namespace ssd
