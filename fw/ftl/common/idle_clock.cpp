#include "fw/ftl/common/idle_clock.h"

namespace ssd::fw {

void IdleClock::arm() {
  if (idle_ns_ == 0) return;
  ticking_ = true;
  OpScheduler::Attribution no_request(ops_, LatencyTrail{});  // the clock is no host command's work
  OpRef tick = ops_.timer(idle_ns_ / 4);
  ops_.on_complete(tick, [this](const HalResult&) { this->tick(); });
  ops_.submit(tick);
}

void IdleClock::tick() {
  ticking_ = false;
  const bool working = hooks_.host_working() || ops_.host_programs_in_flight() > 0;
  if (working || commands_ != commands_at_tick_) {
    commands_at_tick_ = commands_;
    quiet_ticks_ = 0;
    quiet_ticks_needed_ = working ? 5 : 4;
  } else if (++quiet_ticks_ == quiet_ticks_needed_) {
    quiet_ticks_ = 0;
    idle_ = true;
    hooks_.on_idle();
    return;  // the next command starts the clock again
  }
  if (hooks_.holds_data()) arm();
}

}  // namespace ssd::fw
