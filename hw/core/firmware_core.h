// The controller's core as the firmware's HAL sees it (platforms/soc/cosim_hal.h): where the
// hardware's events become firmware work (jobs), and where that work's time stands. Two
// implementations: the annotated core, which runs host-compiled firmware and charges its
// cycles (hw/core/embedded_core.h), and the register model in front of the ISS core, which
// hands the events to the firmware image (platforms/soc/controller_registers.h).
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>

#include "hw/core/core_dispatch.h"

namespace ssd::hw {

class FirmwareCore {
 public:
  virtual ~FirmwareCore() = default;
  using Job = std::function<void()>;
  // Work for the firmware: runs when a core takes it.
  virtual void post(Job job, JobHint hint) = 0;
  // Annotation of the running job: cycles spent, a table access (annotated core only).
  virtual void charge_cycles(std::uint64_t cycles) = 0;
  virtual void access(std::uint64_t address, std::uint32_t bytes, bool write) = 0;
  // An access to the firmware's own records (fw::Hal::place_records): timed only through a
  // data cache model, if the core has one.
  virtual void access_record(std::uint64_t address, std::uint32_t bytes, bool write) {
    (void)address, (void)bytes, (void)write;
  }
  virtual bool models_data_cache() const { return false; }
  // How far the running job is ahead of SystemC time.
  virtual sc_core::sc_time offset() const = 0;
  virtual std::uint64_t offset_ticks() const { return offset().value(); }  // the same, in kernel ticks
  virtual bool in_job() const = 0;
};

}  // namespace ssd::hw
