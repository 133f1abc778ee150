#include "platforms/run/liveness_guard.h"

#include <fmt/format.h>

#include <time.h>

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

namespace {
// The CPU time the whole process has used: a spinning kernel burns it, a suspended, starved or
// sleeping process does not (so a loaded machine or a SIGSTOP never passes for a stall).
double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
}  // namespace

void LivenessGuard::watch(double stall_seconds, StallAction on_stall, WhereProbe where) {
  std::uint64_t last_beats = beats_.load(std::memory_order_relaxed);
  double last_change = process_cpu_seconds();
  const auto tick = std::chrono::duration<double>(std::min(1.0, stall_seconds / 4));
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, tick, [this] { return stop_; })) {
    const std::uint64_t beats = beats_.load(std::memory_order_relaxed);
    if (beats != last_beats) {
      last_beats = beats;
      last_change = process_cpu_seconds();
      continue;
    }
    const double idle = process_cpu_seconds() - last_change;
    if (idle < stall_seconds) continue;
    on_stall(fmt::format(
        "the run stalled: no request completed for {:.0f} s of CPU time (--stall-seconds {:g}); the last progress: "
        "{} requests done at {:.6f} s simulated; the kernel is in {}",
        idle, stall_seconds, completed_.load(std::memory_order_relaxed), simulated_s_.load(std::memory_order_relaxed),
        where ? where() : std::string("(unknown)")));
    return;
  }
}

}  // namespace ssd::platform
