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

void SystemBus::map(std::uint64_t base, std::uint64_t size, unsigned index, const std::string& target_name,
                    tlmx::DirectAccess* direct) {
  map_.push_back({base, size, index, target_name, direct});
}

const SystemBus::Range* SystemBus::decode(std::uint64_t address, std::uint32_t bytes) const {
  const Range* r = nullptr;
  for (const Range& m : map_)
    if (address >= m.base && address - m.base < m.size) r = &m;
  return r && address - r->base + bytes <= r->size ? r : nullptr;
}

std::uint64_t SystemBus::carry(std::uint32_t bytes, std::uint64_t now, std::uint64_t arrival, bool booked) {
  const std::uint64_t beats = (bytes + cfg_.width_bytes - 1) / cfg_.width_bytes;
  const std::uint64_t occupancy = cycle_ticks_(beats);
  const std::uint64_t start = booked ? calendar_.book(arrival, occupancy, now) : arrival;
  wait_ticks_ += start - arrival;
  if (booked) busy_.add(start, start + occupancy);  // an annotated access occupies nothing (it may overlap)
  ++transfers_;
  bytes_ += bytes;
  return start + occupancy;
}

void SystemBus::b_transport(int, tlm::tlm_generic_payload& trans, sc_time& delay) {
  const std::uint64_t addr = trans.get_address();
  const Range* r = decode(addr, trans.get_data_length());
  if (!r) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const std::uint64_t now = sc_core::sc_time_stamp().value();
  delay = sc_time::from_value(carry(trans.get_data_length(), now, now + delay.value()) - now);
  trans.set_address(addr - r->base);
  targets[r->index]->b_transport(trans, delay);
  trans.set_address(addr);
}

std::uint64_t SystemBus::direct_access(std::uint64_t address, std::uint32_t bytes, bool write, std::uint64_t now,
                                       std::uint64_t arrival) {
  const Range* r = decode(address, bytes);
  // Refused before anything is booked: the transaction the initiator sends instead books it all
  // (a target refuses only what would fail as a transaction too, ending the run).
  if (!r || !r->direct) return kRefused;
  return r->direct->direct_access(address - r->base, bytes, write, now, carry(bytes, now, arrival));
}

std::uint64_t SystemBus::annotated_access(std::uint64_t address, std::uint32_t bytes, bool write,
                                          std::uint64_t arrival) {
  const Range* r = decode(address, bytes);
  if (!r || !r->direct) return kRefused;
  return r->direct->annotated_access(address - r->base, bytes, write, carry(bytes, arrival, arrival, false));
}

}  // namespace ssd::hw
