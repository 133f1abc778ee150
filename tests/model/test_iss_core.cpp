// The instruction-set-simulator core: a closed-form loop takes the cycles the model says.
#include <catch2/catch.hpp>

#include <systemc>

#include "hw/bus/system_bus.h"
#include "hw/iss/iss_core.h"
#include "hw/memory/memory_target.h"

using namespace ssd;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

// tests/data/iss/loop.S (or `image`) on a core alone on its bus with 64 KiB of SRAM behind it (at the core's
// 0x20000000): bus 8 bytes at 200 MHz, SRAM 10 ns plus 4,000 MB/s. `name` prefixes the models, so
// several rigs can share one elaboration.
struct LoopRig {
  hw::SystemBus bus;
  hw::MemoryTarget sram;
  hw::IssCore core;
  LoopRig(const std::string& name, MetricsRegistry& m, sc_time quantum = sc_time(1, sc_core::SC_US),
          std::uint32_t dcache_bytes = 0, const char* image = SSD_ISS_LOOP_ELF)
      : bus((name + "bus").c_str(), hw::SystemBusConfig{8, 200}, m),
        sram((name + "sram").c_str(), hw::MemoryConfig{64 << 10, sc_time(10, SC_NS), 4000}, m),
        core((name + "core").c_str(), config(quantum, dcache_bytes)) {
    core.bus.bind(bus.initiators);
    bus.targets.bind(sram.socket);
    bus.map(0, 64 << 10, 0, "sram");
    core.load_elf(image);
  }
  static hw::IssConfig config(sc_time quantum, std::uint32_t dcache_bytes) {
    hw::IssConfig c;
    c.clock_mhz = 400;
    c.tcm_bytes = 64 << 10;
    c.bus_windows.push_back({"sram", 0x20000000u, 64 << 10, 0});
    c.quantum = quantum;
    c.dcache_bytes = dcache_bytes;
    return c;
  }
};

}  // namespace

TEST_CASE("ISS core: a loop of N loads and stores over the bus takes its instructions' cycles plus the bus time",
          "[model][iss]") {
  // tests/data/iss/loop.S, from the TCM: 2 set-up moves (the SRAM address, the count), then
  // N = 100 times load / add / store / subtract / branch, then BKPT: 2 + 5 N + 1 instructions, one
  // issue cycle each at the default CPI table, 2 N of them SRAM accesses over the system bus.
  // Core 400 MHz (2.5 ns a cycle); bus 8 bytes at 200 MHz (a 4-byte access holds it one 5 ns
  // beat); SRAM 10 ns a access plus 4 bytes at 4,000 MB/s (1 ns). One initiator: no contention,
  // so each access adds 5 + 10 + 1 = 16 ns.
  constexpr std::uint64_t N = 100;
  MetricsRegistry metrics;
  LoopRig rig("", metrics);
  hw::IssCore& core = rig.core;
  sc_core::sc_start();

  REQUIRE(core.halted());
  const auto& c = core.counts();
  CHECK(c.instructions == 2 + 5 * N + 1);
  auto of = [&c](hw::InstructionClass k) { return c.per_class[static_cast<std::size_t>(k)]; };
  CHECK(of(hw::InstructionClass::Load) == N);
  CHECK(of(hw::InstructionClass::Store) == N);
  CHECK(of(hw::InstructionClass::Branch) == N);
  CHECK(of(hw::InstructionClass::Alu) == 2 * N + 3);  // mov.w, movs, adds, subs, bkpt
  CHECK(c.issue_cycles == double(2 + 5 * N + 1));
  CHECK(c.bus_accesses == 2 * N);
  CHECK(c.bus_stall == sc_time(16.0 * 2 * N, SC_NS));
  CHECK(core.halted_at() == sc_time(2.5 * double(2 + 5 * N + 1) + 16.0 * 2 * N, SC_NS));
  std::uint32_t counter = 0;
  core.read_memory(0x20000000u, &counter, 4);
  CHECK(counter == N);
}

TEST_CASE("ISS core: with a data cache the loop's loads and stores hit after one line fill", "[model][iss]") {
  // The loop above with a 4 KiB, 4-way data cache of 32-byte lines: the first load misses and
  // fills its line in one 32-byte burst (4 beats of 5 ns, SRAM 10 ns + 32 bytes at 4,000 MB/s =
  // 8 ns: 38 ns); every later load and store hits (the store dirties the line, which is never
  // evicted, so nothing is written back).
  constexpr std::uint64_t N = 100;
  MetricsRegistry metrics;
  LoopRig rig("", metrics, sc_time(1, sc_core::SC_US), 4096);
  hw::IssCore& core = rig.core;
  sc_core::sc_start();
  REQUIRE(core.halted());
  CHECK(core.counts().instructions == 2 + 5 * N + 1);
  CHECK(core.counts().bus_accesses == 1);
  CHECK(core.counts().bus_stall == sc_time(38, SC_NS));
  CHECK(core.halted_at() == sc_time(2.5 * double(2 + 5 * N + 1) + 38, SC_NS));
}

TEST_CASE("ISS core: the data cache writes a dirty victim back before it fills its line", "[model][iss]") {
  // Direct: a 2-way cache of one set (64 bytes, 32-byte lines). Three lines a, b, c of the same
  // set: write a (miss: fill), read b (miss: fill), read c (miss: evicts a, the least recently
  // used, which is dirty: written back first), read a again (miss: evicts b, clean).
  hw::DataCache cache(64, 2, 32);
  const auto a = cache.access(0x000, true);
  CHECK_FALSE(a.hit);
  CHECK_FALSE(a.writeback);
  CHECK(cache.access(0x004, false).hit);  // same line as a
  const auto b = cache.access(0x040, false);
  CHECK_FALSE(b.hit);
  const auto c = cache.access(0x080, false);
  CHECK_FALSE(c.hit);
  CHECK(c.writeback);
  CHECK(c.writeback_line == 0x000);
  CHECK(c.fill_line == 0x080);
  const auto again = cache.access(0x010, false);
  CHECK_FALSE(again.hit);
  CHECK_FALSE(again.writeback);  // b was clean
  CHECK_THROWS_AS(hw::DataCache(100, 4, 32), std::invalid_argument);
}

TEST_CASE("ISS core: temporal decoupling does not change the time of a core alone on its bus", "[model][iss]") {
  // The same loop on two independent cores, one synchronising every 1 us and one every 20 ns:
  // with no other initiator nothing contends, so both halt at the same time with the same counts.
  MetricsRegistry metrics;
  LoopRig coarse("coarse_", metrics, sc_time(1, sc_core::SC_US)), fine("fine_", metrics, sc_time(20, SC_NS));
  sc_core::sc_start();
  REQUIRE(coarse.core.halted());
  REQUIRE(fine.core.halted());
  CHECK(coarse.core.halted_at() == fine.core.halted_at());
  CHECK(coarse.core.counts().instructions == fine.core.counts().instructions);
  CHECK(coarse.core.counts().bus_stall == fine.core.counts().bus_stall);
}

TEST_CASE("ISS core: IT blocks run once each and count whatever quantum interrupts them", "[model][iss]") {
  // tests/data/iss/it_blocks.S: N = 200 iterations of 9 instructions, two IT blocks among them and
  // a conditional 32-bit add across a 1 KiB page. Unicorn 2.0.1 hooks only an IT block's first
  // instruction and, stopped right after such a block, resumes inside it: the add ran twice and
  // unconditionally (DFTL's mapping cache corrupted the image's heap so). A 5 ns quantum (two
  // cycles at 400 MHz) tries to stop the core at every other instruction; a 1 us one rarely.
  constexpr std::uint64_t N = 200, kInstructions = 5 + 9 * N + 5;
  MetricsRegistry metrics;
  LoopRig fine("it_fine_", metrics, sc_time(5, SC_NS), 0, SSD_ISS_IT_BLOCKS_ELF);
  LoopRig coarse("it_coarse_", metrics, sc_time(1, sc_core::SC_US), 0, SSD_ISS_IT_BLOCKS_ELF);
  sc_core::sc_start();
  for (LoopRig* rig : {&fine, &coarse}) {
    hw::IssCore& core = rig->core;
    REQUIRE(core.halted());
    std::uint32_t results[3] = {};
    core.read_memory(0x20000000u, results, sizeof results);
    CHECK(results[0] == 8 * (N / 2));  // the straddling add, on odd iterations only
    CHECK(results[1] == N / 2);        // ite: even iterations
    CHECK(results[2] == N / 2);        // ite: odd iterations
    // Every instruction counted once, the IT blocks' too; one cycle each; three stores of 16 ns.
    CHECK(core.counts().instructions == kInstructions);
    CHECK(core.counts().issue_cycles == double(kInstructions));
    CHECK(core.halted_at() == sc_time(2.5 * double(kInstructions) + 16.0 * 3, SC_NS));
  }
}

TEST_CASE("ISS core: a C++ image boots through picolibc's start-up code and runs to its exit", "[model][iss]") {
  // tests/data/iss/boot.cpp: start-up (stack, FPU, .data, .bss, static constructors), a heap
  // allocation and library algorithms; exit halts the core. The image's RAM sits in an SRAM window
  // over the bus, so its data accesses are bus transactions.
  MetricsRegistry metrics;
  hw::SystemBus bus("bus", hw::SystemBusConfig{8, 200}, metrics);
  hw::MemoryTarget sram("sram", hw::MemoryConfig{256 << 10, sc_time(10, SC_NS), 4000}, metrics);
  hw::IssConfig config;
  config.tcm_bytes = 256 << 10;
  config.bus_windows.push_back({"sram", 0x20000000u, 256 << 10, 0});
  hw::IssCore core("core", config);
  core.bus.bind(bus.initiators);
  bus.targets.bind(sram.socket);
  bus.map(0, 256 << 10, 0, "sram");
  core.load_elf(SSD_ISS_BOOT_ELF);
  sc_core::sc_start(sc_time(10, sc_core::SC_MS));
  INFO("instructions " << core.counts().instructions << ", bus accesses " << core.counts().bus_accesses << ", pc "
                        << core.pc());
  REQUIRE(core.halted());
  std::uint32_t result = 0;
  core.read_memory(core.symbol("result"), &result, 4);
  CHECK(result == 5050 + 7);
  CHECK(core.counts().bus_accesses > 200);  // the vector's 100 words written and summed, at least
  CHECK(core.counts().instructions > 500);
  CHECK_THROWS_WITH(core.symbol("no_such_symbol"), Catch::Contains("no symbol 'no_such_symbol'"));
}
