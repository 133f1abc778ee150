// The SLC cache's idle clock (fw/ftl/common/slc_cache.h): tells an FTL that the host has gone
// quiet, so it may fold its cache in the background.
//
// A firmware timer (OpScheduler::timer) ticks every quarter of the idle time while the FTL says
// the cache holds data. A tick sees the host active when a command reached the FTL since the
// tick before (its activity lies in the past quarter) or when host work is under way (a host
// program in flight, a write waiting for room: its activity goes on past this tick); the drive is
// idle once 4, respectively 5, quiet ticks have followed, so on_idle runs between 1 and 1.25 times
// the idle time after the host's last command or the completion of its last program, whichever
// is later. (A host whose writes are all queued behind flash work sends no more commands for a
// while: no idle drive.) The clock then stops until the next command.
#pragma once

#include <cstdint>
#include <functional>

#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

class IdleClock {
 public:
  struct Hooks {
    std::function<bool()> holds_data;    // the clock ticks only while this holds
    std::function<bool()> host_working;  // host work under way beside the programs in flight
    std::function<void()> on_idle;       // the drive went idle
  };
  // idle_ns = 0: the drive is never idle (the clock never starts).
  IdleClock(OpScheduler& ops, std::uint32_t idle_ns, Hooks hooks)
      : ops_(ops), idle_ns_(idle_ns), hooks_(std::move(hooks)) {}

  // A host command reached the FTL: idle time starts again.
  void note_command() {
    ++commands_;
    idle_ = false;
    if (!ticking_ && hooks_.holds_data()) arm();
  }
  // The cache took data: the clock runs (if it does not already).
  void start() {
    if (!ticking_) arm();
  }
  // Since on_idle, no command has come.
  bool idle() const { return idle_; }

 private:
  void arm();
  void tick();

  OpScheduler& ops_;
  std::uint32_t idle_ns_;
  Hooks hooks_;
  std::uint64_t commands_ = 0, commands_at_tick_ = 0;
  std::uint32_t quiet_ticks_ = 0, quiet_ticks_needed_ = 4;
  bool ticking_ = false, idle_ = false;
};

}  // namespace ssd::fw
