// The completion status the drive reports with a host command (NVMe base specification: the
// status code type in bits 10:8, the status code in bits 7:0 of the status field).
#pragma once

#include <cstdint>

namespace ssd {

enum class HostStatus : std::uint16_t {
  Success = 0,
  NamespaceWriteProtected = 0x020,  // generic (type 0), 20h: the drive turned read-only (its spares are spent)
  UnrecoveredReadError = 0x281,     // media and data integrity errors (type 2), 81h: the ECC could not correct
};

inline const char* to_string(HostStatus s) {
  return s == HostStatus::Success                   ? "success"
         : s == HostStatus::NamespaceWriteProtected ? "namespace is write protected"
                                                    : "unrecovered read error";
}

}  // namespace ssd
