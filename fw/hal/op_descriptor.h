// An operation as the firmware image hands it to the controller (common/controller_mmio.h's
// OpDescriptor) and back into the HAL's terms: both directions in one place, so the image's HAL
// (fw/target/target_hal.cpp) and the register model (platforms/soc/controller_registers.cpp)
// cannot drift apart field by field.
#pragma once

#include "common/controller_mmio.h"
#include "fw/hal/hal.h"

namespace ssd::fw {

inline mmio::OpDescriptor to_descriptor(const HalOp& op) {
  mmio::OpDescriptor d{};
  d.tag = op.tag;
  d.kind = static_cast<std::uint8_t>(op.kind);
  d.origin = static_cast<std::uint8_t>(op.origin);
  d.background = op.background ? 1 : 0;
  d.ppn = op.ppn;
  d.lpn = op.lpn;
  d.token = op.token;
  d.version = op.version;
  d.bytes = op.bytes;
  d.host_cmd = op.host_cmd;
  d.partner_wait_ns = op.partner_wait_ns;
  d.slc = op.slc ? 1 : 0;
  d.wait_ns = op.wait_ns;
  d.buffer_addr = op.buffer_addr;
  return d;
}

// Whether a descriptor names an operation the hardware runs (a Join is the firmware's own).
inline bool is_hardware_operation(const mmio::OpDescriptor& d) {
  return d.kind <= static_cast<std::uint8_t>(OpKind::Timer) && d.kind != static_cast<std::uint8_t>(OpKind::Join) &&
         d.origin <= static_cast<std::uint8_t>(OpOrigin::Mapping);
}

inline HalOp from_descriptor(const mmio::OpDescriptor& d) {
  HalOp op;
  op.tag = d.tag;
  op.kind = static_cast<OpKind>(d.kind);
  op.origin = static_cast<OpOrigin>(d.origin);
  op.background = d.background != 0;
  op.ppn = d.ppn;
  op.lpn = d.lpn;
  op.token = d.token;
  op.version = d.version;
  op.bytes = d.bytes;
  op.host_cmd = d.host_cmd;
  op.partner_wait_ns = d.partner_wait_ns;
  op.slc = d.slc != 0;
  op.wait_ns = d.wait_ns;
  op.buffer_addr = d.buffer_addr;  // the trail is the platform's (the image carries none)
  return op;
}

}  // namespace ssd::fw
