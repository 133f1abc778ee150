// Stops a run that no longer makes progress, instead of letting it hang.
//
// A model bug can leave the kernel spinning inside one process (a resource model walking an
// ever longer list, a zero-delay loop) or waiting forever with work queued: simulated time then
// stops advancing and no request completes, while the process burns CPU. A watchdog thread
// checks a heartbeat the host model sends (every 1,024 completions, with the simulated time);
// when none arrives while the process spends `stall_seconds` of CPU time, it reports the
// simulated time and requests of the last beat and the SystemC process running now, and ends
// the run (exit code 3). A beat every 1,024 requests makes the floor about 1,024 / stall_seconds
// requests per CPU-second. CPU time, not wall time: a process that is suspended, or waits for a
// core on a loaded machine, makes no progress but is not stalled (a wall-time guard ended such
// runs when they resumed).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace ssd::platform {

class LivenessGuard {
 public:
  // What to do on a stall; the default prints the message and ends the process.
  using StallAction = std::function<void(const std::string& message)>;
  // Where the kernel is spinning (read from the watchdog thread: a diagnostic only).
  using WhereProbe = std::function<std::string()>;

  LivenessGuard() = default;
  ~LivenessGuard() { disarm(); }
  LivenessGuard(const LivenessGuard&) = delete;
  LivenessGuard& operator=(const LivenessGuard&) = delete;

  // Starts watching (stall_seconds <= 0: off).
  void arm(double stall_seconds, StallAction on_stall = {}, WhereProbe where = {});
  void disarm();
  void beat(std::uint64_t completed, double simulated_s) {
    completed_.store(completed, std::memory_order_relaxed);
    simulated_s_.store(simulated_s, std::memory_order_relaxed);
    beats_.fetch_add(1, std::memory_order_relaxed);
  }

 private:
  void watch(double stall_seconds, StallAction on_stall, WhereProbe where);

  std::atomic<std::uint64_t> beats_{0}, completed_{0};
  std::atomic<double> simulated_s_{0.0};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
};

}  // namespace ssd::platform
