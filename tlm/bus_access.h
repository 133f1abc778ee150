// Filling a generic payload for a plain memory access over the system bus (table lookups, DMA to
// and from the data buffer): one place for what every bus initiator sets, so no field is forgotten
// in one of them.
#pragma once

#include <cstdint>
#include <tlm>

namespace ssd::tlmx {

// Prepares `t` for a read or write of `bytes` at `address`, data at `data` (the models move
// addresses, not contents: a scratch buffer is enough), no byte enables, no DMI, response pending.
inline void prepare_bus_access(tlm::tlm_generic_payload& t, tlm::tlm_command command, std::uint64_t address,
                               unsigned char* data, std::uint32_t bytes) {
  t.set_command(command);
  t.set_address(address);
  t.set_data_ptr(data);
  t.set_data_length(bytes);
  t.set_streaming_width(bytes);
  t.set_byte_enable_ptr(nullptr);
  t.set_dmi_allowed(false);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace ssd::tlmx
