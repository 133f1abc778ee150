// The protocol between the host model and the drive's host interface (NVMe-style): a generic
// payload carrying a HostCommandExtension. Same phase use as the flash protocol: BEGIN_REQ
// submits the command (rings the doorbell at now + delay), BEGIN_RESP on the backward path is
// the completion (after the completion entry crossed the host link).
#pragma once

#include <systemc>
#include <tlm>
#include <vector>

#include "common/geometry.h"

namespace ssd::tlmx {

struct HostCommandExtension : tlm::tlm_extension<HostCommandExtension> {
  bool write = false;
  std::uint64_t lba = 0;          // first 512-byte sector
  std::uint32_t sectors = 0;
  std::uint32_t issuer = 0;       // trace device/process id
  std::vector<Token> tokens;      // write: data tokens per logical page; read: filled by the drive
  std::uint32_t host_tag = 0;     // host's own handle

  tlm::tlm_extension_base* clone() const override { return new HostCommandExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const HostCommandExtension&>(other);
  }
};

struct host_protocol_types {
  typedef tlm::tlm_generic_payload tlm_payload_type;
  typedef tlm::tlm_phase tlm_phase_type;
};

}  // namespace ssd::tlmx
