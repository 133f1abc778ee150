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
  // Detected within a few ticks; waits up to 20 s so a loaded machine cannot fail it.
  for (int i = 0; i < 400 && r.calls == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
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
