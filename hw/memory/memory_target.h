// Timing-only memories of the controller: the SRAM holding firmware tables and the DRAM data
// buffer. They check addresses and charge time; the data itself lives with its owner (tables
// in the firmware's native memory, page data as tokens in the flash commands), so a large drive
// costs no simulated-memory bytes.
//
// Each memory serves one access at a time: an access is booked in the first free gap at or
// after its arrival, takes `latency` plus bytes / bandwidth, and the initiator sees the finish.
// Its energy (per line moved, per row opened) is spent over that time.
#pragma once

#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/metrics.h"
#include "hw/stats.h"
#include "tlm/busy_calendar.h"
#include "tlm/direct_access.h"

namespace ssd::hw {

struct MemoryConfig {
  std::uint64_t size_bytes = 0;
  sc_core::sc_time latency;       // per access
  double bandwidth_mbps = 0;      // MB/s (1e6 bytes per second) of data once the access starts
  // Energy (power.sram_* and power.dram_*): an access moves whole 64-byte lines, each costing
  // line_read_pj or line_write_pj, and opens ceil(bytes / row_bytes) rows at activate_pj each
  // (a DRAM under a closed-page policy; row_bytes 0: no rows, an SRAM).
  double line_read_pj = 0, line_write_pj = 0, activate_pj = 0;
  std::uint32_t row_bytes = 0;
  static constexpr std::uint32_t kLineBytes = 64;
};

class MemoryTarget : public sc_core::sc_module, public tlmx::DirectAccess {
 public:
  tlm_utils::simple_target_socket<MemoryTarget> socket;

  MemoryTarget(sc_core::sc_module_name name, const MemoryConfig& config, MetricsRegistry& metrics);
  std::uint64_t size() const { return cfg_.size_bytes; }
  std::uint64_t direct_access(std::uint64_t address, std::uint32_t bytes, bool write, std::uint64_t now,
                              std::uint64_t arrival) override;
  std::uint64_t annotated_access(std::uint64_t address, std::uint32_t bytes, bool write,
                                 std::uint64_t arrival) override;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool holds(std::uint64_t address, std::uint32_t bytes) const { return address + bytes <= cfg_.size_bytes; }
  // Its end; booked: in the calendar's first gap at or after `arrival`, else at `arrival`.
  std::uint64_t serve(std::uint32_t bytes, bool write, std::uint64_t now, std::uint64_t arrival, bool booked = true);

  MemoryConfig cfg_;
  tlmx::BusyCalendar calendar_;
  std::uint32_t last_bytes_ = ~0u;
  std::uint64_t last_occupancy_ = 0;
  std::uint64_t &reads_, &writes_, &bytes_;
  BusyTime& busy_;
  std::uint64_t& wait_ticks_;
  EnergyMeter& energy_;
};

}  // namespace ssd::hw
