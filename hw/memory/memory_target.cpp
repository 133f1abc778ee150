#include "hw/memory/memory_target.h"

#include <algorithm>

namespace ssd::hw {

using sc_core::sc_time;

MemoryTarget::MemoryTarget(sc_core::sc_module_name name, const MemoryConfig& config, MetricSet& metrics)
    : sc_module(name),
      socket("socket"),
      cfg_(config),
      reads_(metrics.counter("reads")),
      writes_(metrics.counter("writes")),
      bytes_(metrics.counter("bytes")),
      busy_ps_(metrics.counter("busy_ps")),
      wait_ps_(metrics.counter("wait_ps")) {
  socket.register_b_transport(this, &MemoryTarget::b_transport);
}

void MemoryTarget::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  if (trans.get_address() + trans.get_data_length() > cfg_.size_bytes) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time arrival = now + delay;
  const sc_time start = std::max(arrival, busy_until_);
  const sc_time occupancy =
      cfg_.latency + sc_time(double(trans.get_data_length()) / (cfg_.bandwidth_mbps * 1e6) * 1e12, sc_core::SC_PS);
  busy_until_ = start + occupancy;
  wait_ps_ += (start - arrival).value();
  busy_ps_ += occupancy.value();
  (trans.is_read() ? reads_ : writes_)++;
  bytes_ += trans.get_data_length();
  delay = busy_until_ - now;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssd::hw
