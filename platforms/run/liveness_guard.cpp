#include "platforms/run/liveness_guard.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "platforms/sim/exit_codes.h"

namespace ssd::platform {

void LivenessGuard::arm(double stall_seconds, StallAction on_stall, WhereProbe where) {
  disarm();
  if (stall_seconds <= 0) return;
  if (!on_stall)
    on_stall = [](const std::string& message) {
      std::fprintf(stderr, "ssdsim: %s\n", message.c_str());
      std::fflush(stderr);
      std::_Exit(kExitInternal);  // the kernel is stuck in another thread: nothing can unwind it
    };
  stop_ = false;
  thread_ = std::thread([this, stall_seconds, on_stall, where] { watch(stall_seconds, on_stall, where); });
}

void LivenessGuard::disarm() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void LivenessGuard::watch(double stall_seconds, StallAction on_stall, WhereProbe where) {
  using clock = std::chrono::steady_clock;
  std::uint64_t last_beats = beats_.load(std::memory_order_relaxed);
  auto last_change = clock::now();
  const auto tick = std::chrono::duration<double>(std::min(1.0, stall_seconds / 4));
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, tick, [this] { return stop_; })) {
    const std::uint64_t beats = beats_.load(std::memory_order_relaxed);
    if (beats != last_beats) {
      last_beats = beats;
      last_change = clock::now();
      continue;
    }
    const double idle = std::chrono::duration<double>(clock::now() - last_change).count();
    if (idle < stall_seconds) continue;
    on_stall(fmt::format(
        "the run stalled: no request completed for {:.0f} s of wall time (--stall-seconds {:g}); the last progress: "
        "{} requests done at {:.6f} s simulated; the kernel is in {}",
        idle, stall_seconds, completed_.load(std::memory_order_relaxed), simulated_s_.load(std::memory_order_relaxed),
        where ? where() : std::string("(unknown)")));
    return;
  }
}

}  // namespace ssd::platform
