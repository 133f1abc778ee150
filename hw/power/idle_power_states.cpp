#include "hw/power/idle_power_states.h"

#include <algorithm>
#include <string>

#include "tlm/time_base.h"

namespace ssd::hw {

namespace {
std::uint64_t ticks_of_us(double us) { return std::uint64_t(us * 1e-6 / tlmx::ticks_to_seconds(1) + 0.5); }
}  // namespace

IdlePowerStates::IdlePowerStates(const PowerConfig& config, MetricSet& stats)
    : wake_ticks_(&stats.duration("wake_wait")) {
  for (std::size_t k = 0; k < config.states.size(); ++k) {
    const NonOperationalState& s = config.states[k];
    const std::string name = "ps" + std::to_string(k + 1);
    states_.push_back({ticks_of_us(s.idle_ms * 1000), ticks_of_us(s.entry_us), ticks_of_us(s.exit_us),
                       &stats.busy(name), &stats.counter(name + "_entries")});
  }
  static const char* const link_names[] = {"link_l1", "link_l1_2"};
  for (std::size_t k = 0; k < config.link_states.size(); ++k) {
    const LinkLowPowerState& s = config.link_states[k];
    const std::string name = k < 2 ? link_names[k] : "link_l" + std::to_string(k + 1);
    links_.push_back(
        {ticks_of_us(s.idle_us), 0, ticks_of_us(s.exit_us), &stats.busy(name), &stats.counter(name + "_entries")});
  }
}

void IdlePowerStates::idle_from(std::uint64_t at) {
  idle_ = true;
  idle_since_ = at;
}

std::uint64_t IdlePowerStates::wake(std::uint64_t at) {
  idle_ = false;
  // The drive's states: each entered (entry begins) once the previous one has been idle its time.
  std::uint64_t t = idle_since_, ready = at, asleep_from = at;  // asleep_from: in PS1 (the link's end)
  for (std::size_t k = 0; k < states_.size(); ++k) {
    const Level& s = states_[k];
    const std::uint64_t entering = t + s.idle, in = entering + s.entry;
    if (entering > at) break;
    ++*s.entries;
    if (k == 0) asleep_from = std::min(in, at);
    if (in > at) {  // still entering: finish, then leave
      ready = in + s.exit;
      break;
    }
    const bool deeper_follows = k + 1 < states_.size() && in + states_[k + 1].idle <= at;
    const std::uint64_t out = deeper_follows ? in + states_[k + 1].idle : at;
    s.residency->add(in, out);
    if (!deeper_follows) ready = at + s.exit;
    t = in;
  }
  // The link's states, while the drive is still in PS0.
  t = idle_since_;
  for (std::size_t k = 0; k < links_.size(); ++k) {
    const Level& l = links_[k];
    const std::uint64_t in = t + l.idle;
    if (in > at) break;
    ++*l.entries;
    const bool deeper_follows = k + 1 < links_.size() && in + links_[k + 1].idle <= at;
    const std::uint64_t out = deeper_follows ? in + links_[k + 1].idle : at;
    l.residency->add(std::min(in, asleep_from), std::min(out, asleep_from));
    if (!deeper_follows) ready = std::max(ready, at + l.exit);
    t = in;
  }
  *wake_ticks_ += ready - at;
  return ready;
}

}  // namespace ssd::hw
