#include "hw/bus/system_bus.h"

#include <algorithm>
#include <cmath>

#include "tlm/time_base.h"

namespace ssd::hw {

using sc_core::sc_time;

SystemBus::SystemBus(sc_core::sc_module_name name, const SystemBusConfig& config, MetricsRegistry& metrics)
    : sc_module(name),
      initiators("initiators"),
      targets("targets"),
      cfg_(config),
      cycle_ticks_(1e6 / config.clock_mhz / tlmx::kTickPicoseconds),
      busy_(stats_of(*this, metrics).busy("busy_fraction")),
      wait_ticks_(stats_of(*this, metrics).duration("wait")),
      transfers_(stats_of(*this, metrics).counter("transfers")),
      bytes_(stats_of(*this, metrics).counter("bytes")) {
  stats_of(*this, metrics).report_as("system_bus");
  initiators.register_b_transport(this, &SystemBus::b_transport);
}

void SystemBus::map(std::uint64_t base, std::uint64_t size, unsigned index, const std::string& target_name) {
  map_.push_back({base, size, index, target_name});
}

void SystemBus::b_transport(int, tlm::tlm_generic_payload& trans, sc_time& delay) {
  const std::uint64_t addr = trans.get_address();
  const Range* r = nullptr;
  for (const Range& m : map_)
    if (addr >= m.base && addr - m.base < m.size) r = &m;
  if (!r || addr - r->base + trans.get_data_length() > r->size) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const std::uint64_t now = sc_core::sc_time_stamp().value();
  const std::uint64_t arrival = now + delay.value();
  const std::uint64_t beats = (trans.get_data_length() + cfg_.width_bytes - 1) / cfg_.width_bytes;
  const std::uint64_t occupancy = cycle_ticks_(beats);
  const std::uint64_t start = calendar_.book(arrival, occupancy, now);
  wait_ticks_ += start - arrival;
  busy_.add(start, start + occupancy);
  ++transfers_;
  bytes_ += trans.get_data_length();
  delay = sc_time::from_value(start + occupancy - now);
  trans.set_address(addr - r->base);
  targets[r->index]->b_transport(trans, delay);
  trans.set_address(addr);
}

}  // namespace ssd::hw
