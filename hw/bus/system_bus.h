// The controller's system bus: initiators (cores, host DMA, channel DMAs) reach targets (SRAM,
// DRAM buffer) through an address map. Loosely timed with reservation: a transfer occupies the
// bus for ceil(bytes / width) cycles starting when both it has arrived (now + annotated delay)
// and the bus is free, so concurrent initiators are served in arrival order and each waits for
// the others' beats. The bus is held only for data beats (a pipelined, split-transaction
// interconnect); each target serializes its own accesses and adds its latency.
#pragma once

#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <vector>

#include "common/metrics.h"
#include "hw/stats.h"
#include "tlm/busy_calendar.h"
#include "tlm/direct_access.h"
#include "tlm/time_base.h"

namespace ssd::hw {

struct SystemBusConfig {
  std::uint32_t width_bytes = 16;
  double clock_mhz = 400;
};

class SystemBus : public sc_core::sc_module, public tlmx::DirectAccess {
 public:
  tlm_utils::multi_passthrough_target_socket<SystemBus> initiators;
  tlm_utils::multi_passthrough_initiator_socket<SystemBus> targets;

  SystemBus(sc_core::sc_module_name name, const SystemBusConfig& config, MetricsRegistry& metrics);

  // Maps [base, base+size) to the target bound at targets[index]; addresses reach the target
  // relative to base. `direct`: the same target's direct path, if it has one.
  void map(std::uint64_t base, std::uint64_t size, unsigned index, const std::string& target_name,
           tlmx::DirectAccess* direct = nullptr);

  // The bus's beats, then the target's direct path (tlm/direct_access.h): what b_transport books.
  std::uint64_t direct_access(std::uint64_t address, std::uint32_t bytes, bool write, std::uint64_t now,
                              std::uint64_t arrival) override;
  std::uint64_t annotated_access(std::uint64_t address, std::uint32_t bytes, bool write,
                                 std::uint64_t arrival) override;

 private:
  struct Range {
    std::uint64_t base, size;
    unsigned index;
    std::string name;
    tlmx::DirectAccess* direct;
  };
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  const Range* decode(std::uint64_t address, std::uint32_t bytes) const;  // null: no target takes it
  // The beats' end; booked: in the calendar's first gap at or after `arrival`, else at `arrival`.
  std::uint64_t carry(std::uint32_t bytes, std::uint64_t now, std::uint64_t arrival, bool booked = true);

  SystemBusConfig cfg_;
  tlmx::CycleTicks cycle_ticks_;  // bus cycles in kernel ticks
  tlmx::BusyCalendar calendar_;
  std::vector<Range> map_;
  BusyTime& busy_;
  std::uint64_t &wait_ticks_, &transfers_, &bytes_;
};

}  // namespace ssd::hw
