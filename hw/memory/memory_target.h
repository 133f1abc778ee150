// Timing-only memories of the controller: the SRAM holding firmware tables and the DRAM data
// buffer. They check addresses and charge time; the data itself lives with its owner (tables
// in the firmware's native memory, page data as tokens in the flash commands), so a large drive
// costs no simulated-memory bytes.
//
// Each memory serves one access at a time: an access is booked in the first free gap at or
// after its arrival, takes `latency` plus bytes / bandwidth, and the initiator sees the finish.
#pragma once

#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/metrics.h"
#include "hw/stats.h"
#include "tlm/busy_calendar.h"

namespace ssd::hw {

struct MemoryConfig {
  std::uint64_t size_bytes = 0;
  sc_core::sc_time latency;       // per access
  double bandwidth_mbps = 0;      // MB/s (1e6 bytes per second) of data once the access starts
};

class MemoryTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MemoryTarget> socket;

  MemoryTarget(sc_core::sc_module_name name, const MemoryConfig& config, MetricsRegistry& metrics);
  std::uint64_t size() const { return cfg_.size_bytes; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  MemoryConfig cfg_;
  tlmx::BusyCalendar calendar_;
  std::uint64_t &reads_, &writes_, &bytes_;
  BusyTime& busy_;
  std::uint64_t& wait_ticks_;
};

}  // namespace ssd::hw
