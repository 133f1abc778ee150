#include "hw/memory/memory_target.h"

#include <algorithm>

#include "tlm/time_base.h"

namespace ssd::hw {

using sc_core::sc_time;

MemoryTarget::MemoryTarget(sc_core::sc_module_name name, const MemoryConfig& config, MetricsRegistry& metrics)
    : sc_module(name),
      socket("socket"),
      cfg_(config),
      reads_(stats_of(*this, metrics).counter("reads")),
      writes_(stats_of(*this, metrics).counter("writes")),
      bytes_(stats_of(*this, metrics).counter("bytes")),
      busy_(stats_of(*this, metrics).busy("busy_fraction")),
      wait_ticks_(stats_of(*this, metrics).duration("wait")),
      energy_(stats_of(*this, metrics).energy("access")) {
  stats_of(*this, metrics).report_as(basename());  // "sram", "dram"
  socket.register_b_transport(this, &MemoryTarget::b_transport);
}

void MemoryTarget::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  if (!holds(trans.get_address(), trans.get_data_length())) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const std::uint64_t now = sc_core::sc_time_stamp().value();
  delay = sc_time::from_value(serve(trans.get_data_length(), !trans.is_read(), now, now + delay.value()) - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

std::uint64_t MemoryTarget::direct_access(std::uint64_t address, std::uint32_t bytes, bool write, std::uint64_t now,
                                          std::uint64_t arrival) {
  return holds(address, bytes) ? serve(bytes, write, now, arrival) : kRefused;
}

std::uint64_t MemoryTarget::annotated_access(std::uint64_t address, std::uint32_t bytes, bool write,
                                             std::uint64_t arrival) {
  return holds(address, bytes) ? serve(bytes, write, arrival, arrival, false) : kRefused;
}

std::uint64_t MemoryTarget::serve(std::uint32_t bytes, bool write, std::uint64_t now, std::uint64_t arrival,
                                  bool booked) {
  // kernel ticks, rounded as sc_time(double, unit) rounds, without constructing one per access;
  // the last size's, kept (table entries come in a few sizes: two divisions saved an access)
  if (bytes != last_bytes_) {
    last_bytes_ = bytes;
    last_occupancy_ = cfg_.latency.value() +
                      static_cast<std::uint64_t>(double(bytes) / (cfg_.bandwidth_mbps * 1e6) / tlmx::ticks_to_seconds(1) + 0.5);
  }
  const std::uint64_t occupancy = last_occupancy_;
  const std::uint64_t start = booked ? calendar_.book(arrival, occupancy, now) : arrival;
  wait_ticks_ += start - arrival;
  if (booked) busy_.add(start, start + occupancy);  // an annotated access occupies nothing (it may overlap)
  (write ? writes_ : reads_)++;
  bytes_ += bytes;
  const double lines = double((bytes + MemoryConfig::kLineBytes - 1) / MemoryConfig::kLineBytes);
  const double rows = cfg_.row_bytes ? double((bytes + cfg_.row_bytes - 1) / cfg_.row_bytes) : 0.0;
  energy_.add(start, start + occupancy, lines * (write ? cfg_.line_write_pj : cfg_.line_read_pj) + rows * cfg_.activate_pj);
  return start + occupancy;
}

}  // namespace ssd::hw
