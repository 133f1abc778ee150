#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "platforms/run/liveness_guard.h"

using ssd::platform::LivenessGuard;

namespace {

struct Recorder {
  std::mutex mutex;
  std::string message;
  std::atomic<int> calls{0};
  LivenessGuard::StallAction action() {
    return [this](const std::string& m) {
      std::lock_guard<std::mutex> lock(mutex);
      message = m;
      ++calls;
    };
  }
};

}  // namespace

TEST_CASE("liveness guard: a run without completions is stopped, naming where the kernel is", "[liveness]") {
  Recorder r;
  LivenessGuard guard;
  guard.beat(4096, 1.25);  // progress before the stall: reported
  guard.arm(0.2, r.action(), [] { return std::string("process ssd.bus.spinner"); });
  // A spinning kernel burns CPU time: spin until detected (at most 20 s of wall time).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  volatile std::uint64_t spin = 0;
  while (r.calls == 0 && std::chrono::steady_clock::now() < give_up) ++spin;
  guard.disarm();
  REQUIRE(r.calls == 1);
  CHECK_THAT(r.message, Catch::Contains("the run stalled: no request completed"));
  CHECK_THAT(r.message, Catch::Contains("4096 requests done at 1.250000 s simulated"));
  CHECK_THAT(r.message, Catch::Contains("the kernel is in process ssd.bus.spinner"));
}

TEST_CASE("liveness guard: completions keep a run alive, and disarming stops the watch", "[liveness]") {
  Recorder r;
  LivenessGuard guard;
  guard.arm(2.0, r.action());
  for (int i = 1; i <= 60; ++i) {  // a beat every 50 ms for 3 s: past the limit, never idle for it
    guard.beat(std::uint64_t(i), i * 1e-3);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  guard.disarm();
  CHECK(r.calls == 0);
  guard.arm(0, r.action());  // 0: off
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  guard.disarm();
  CHECK(r.calls == 0);
}

TEST_CASE("liveness guard: a process that waits without using CPU is not stalled", "[liveness]") {
  // Suspended (SIGSTOP), starved on a loaded machine, or sleeping: no completion, but no CPU
  // time spent either. 1.5 s of sleep against a 0.3 s limit is not a stall.
  Recorder r;
  LivenessGuard guard;
  guard.arm(0.3, r.action());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  guard.disarm();
  CHECK(r.calls == 0);
}
