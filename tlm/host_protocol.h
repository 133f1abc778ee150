// The host path's two TLM protocols.
//
// 1. Host model <-> host interface (NVMe-style): a generic payload carrying a
//    HostCommandExtension. Same phase use as the flash protocol: BEGIN_REQ submits the command
//    (rings the doorbell at now + delay), BEGIN_RESP on the backward path is the completion
//    (after the completion entry crossed the host link).
// 2. Host interface <-> the firmware's HAL (host_firmware_protocol_types), in both directions:
//    - the interface forwards each fetched command (BEGIN_REQ carrying FetchedCommand; the
//      firmware takes it as a job and answers TLM_COMPLETED);
//    - the HAL asks for a data DMA or a completion entry (BEGIN_REQ carrying HostDmaRequest,
//      effective at now + delay). A completion entry is accepted at once (TLM_COMPLETED); a
//      DMA is TLM_ACCEPTED and finishes with BEGIN_RESP on the backward path when its data has
//      arrived, so the payload must stay alive until then.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "common/geometry.h"
#include "common/host_op.h"
#include "common/host_status.h"
#include "common/io_queue.h"
#include "common/latency_trail.h"

namespace ssd::tlmx {

struct HostCommandExtension : tlm::tlm_extension<HostCommandExtension> {
  HostOp op = HostOp::Read;
  bool fua = false;               // a write's Force Unit Access (common/host_op.h)
  std::uint64_t lba = 0;          // first 512-byte sector
  std::uint32_t sectors = 0;
  std::uint32_t issuer = 0;       // trace device/process id
  std::uint32_t queue = 0;        // the I/O queue pair it is submitted to (hw/host/host_interface.h)
  QueuePriority priority = QueuePriority::Medium;  // that queue's class
  std::vector<Token> tokens;      // write: data tokens per logical page; read: filled by the drive
  std::uint32_t host_tag = 0;     // host's own handle
  HostStatus status = HostStatus::Success;  // set by the drive with the completion
  LatencyTrail trail;             // set by the host; comes back with the completion, all stages filled

  tlm::tlm_extension_base* clone() const override { return new HostCommandExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const HostCommandExtension&>(other);
  }
};

struct host_protocol_types {
  typedef tlm::tlm_generic_payload tlm_payload_type;
  typedef tlm::tlm_phase tlm_phase_type;
};

// A command the interface fetched into submission-queue slot `slot`. `command` stays valid (and
// the firmware fills its read tokens) until the slot's completion entry has been posted.
struct FetchedCommand : tlm::tlm_extension<FetchedCommand> {
  std::uint32_t slot = 0;
  HostCommandExtension* command = nullptr;

  tlm::tlm_extension_base* clone() const override { return new FetchedCommand(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const FetchedCommand&>(other); }
};

// What the firmware asks of the host interface for command `slot`.
struct HostDmaRequest : tlm::tlm_extension<HostDmaRequest> {
  enum class Kind : std::uint8_t {
    ToDevice,    // write data: host memory -> data buffer
    ToHost,      // read data: data buffer -> host memory
    Completion,  // post the command's completion entry (frees the slot)
  };
  Kind kind = Kind::Completion;
  std::uint32_t slot = 0;
  std::uint32_t bytes = 0;         // DMA length
  std::uint64_t buffer_addr = 0;   // data-buffer offset (from the DRAM base) the data moves through
  std::uint32_t tag = 0;           // the firmware's handle, returned with BEGIN_RESP
  HostStatus status = HostStatus::Success;  // Completion: the command's status
  LatencyTrail trail;              // the interface adds the link and DRAM stages

  tlm::tlm_extension_base* clone() const override { return new HostDmaRequest(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const HostDmaRequest&>(other); }
};

struct host_firmware_protocol_types {
  typedef tlm::tlm_generic_payload tlm_payload_type;
  typedef tlm::tlm_phase tlm_phase_type;
};

}  // namespace ssd::tlmx
