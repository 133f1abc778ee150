// Where an idle drive's power goes: autonomous power state transitions (NVMe APST) and the host
// link's ASPM states, and what the next command pays to wake them (hw/power/power_config.h).
//
// The drive is idle from the moment it holds no host command (every fetched command completed,
// none waiting to be fetched). Idle in the operational state PS0 for the first state's idle_ms,
// it starts entering that state (entry_us), is in it until the next state's idle_ms has passed,
// and so on down the list. The link, idle from the same moment, enters each of its low-power
// states after their idle_us. The first doorbell after the gap wakes both: it is fetched once the
// deeper of the two is back, exit_us after it arrived (a state still being entered is entered
// first, then left). Power states are numbered after PS0 (the only operational state modelled):
// the list's first entry is PS1.
//
// The states an idle gap passed through are known in closed form when it ends, so nothing is
// scheduled while the drive sleeps. Each state's residency is a busy time of the set ("ps1",
// "link_l1", ...: totals and per interval, for the energy section) and its entries a counter.
// The link's residency counts only while the drive is in PS0: in a non-operational state the
// state's power is the whole device's. Background work the firmware does while the host is idle
// (GC, flushes) does not keep the drive awake: the states model the host's view of idleness.
#pragma once

#include <cstdint>
#include <vector>

#include "common/metrics.h"
#include "hw/power/power_config.h"

namespace ssd::hw {

class IdlePowerStates {
 public:
  IdlePowerStates(const PowerConfig& config, MetricSet& stats);

  bool enabled() const { return !states_.empty() || !links_.empty(); }
  // The drive holds no command from `at` (ticks) on.
  void idle_from(std::uint64_t at);
  bool idle() const { return idle_; }
  // A doorbell reached the idle drive at `at`: when the drive can fetch it (`at` when the gap was
  // too short to leave PS0 and L0). Books the gap's residencies and wake-up.
  std::uint64_t wake(std::uint64_t at);

 private:
  struct Level {
    std::uint64_t idle, entry, exit;  // ticks
    BusyTime* residency;
    std::uint64_t* entries;
  };
  std::vector<Level> states_, links_;
  std::uint64_t* wake_ticks_;  // time commands waited for a wake-up
  std::uint64_t idle_since_ = 0;
  bool idle_ = true;  // from time 0: the drive starts with nothing to do
};

}  // namespace ssd::hw
