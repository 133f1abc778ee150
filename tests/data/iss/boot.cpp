// A C++ image for the ISS core's boot test (tests/model/test_iss_core.cpp): picolibc's start-up
// code (stack, FPU, .data copy, .bss zero, static constructors), the heap (std::vector) and the
// library (std::iota, std::accumulate) on a Cortex-R5F, the result left in `result`.
#include <cstdint>
#include <numeric>
#include <vector>

volatile std::uint32_t result __attribute__((used)) = 0;

struct Init {
  std::uint32_t v;
  Init() : v(7) {}
} init;  // a static constructor: result is 5057 only if crt0 ran it

// The target's system calls: exit halts the core (BKPT), and abort's raise has no process.
extern "C" void _exit(int) {
  for (;;) asm volatile("bkpt #0");
}
extern "C" int getpid() { return 1; }
extern "C" int kill(int, int) {
  for (;;) asm volatile("bkpt #1");
}

int main() {
  std::vector<std::uint32_t> v(100);
  std::iota(v.begin(), v.end(), 1u);
  result = std::accumulate(v.begin(), v.end(), 0u) + init.v;  // 5050 + 7
  _exit(0);  // picolibc's crt0 spins after main returns (firmware's main never does): halt here
}
