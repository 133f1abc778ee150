// The direct path for table accesses (tlm/direct_access.h) books exactly what a transaction
// through the bus's sockets books: the same end for every access, and the same bus, SRAM and
// DRAM figures, with other initiators' transactions contending on the way. Its annotated form
// (core.table_access_timing = annotated) takes the uncontended time and books nothing.
#include <tlm_utils/simple_initiator_socket.h>

#include <catch2/catch.hpp>

#include <random>

#include "hw/bus/system_bus.h"
#include "hw/memory/memory_target.h"
#include "tlm/bus_access.h"

using namespace ssd;
using sc_core::sc_time;

namespace direct_access_test {

constexpr std::uint64_t kSramBase = 0, kSramBytes = 1 << 20, kDramBase = 1ull << 32, kDramBytes = 64 << 20;

// A bus with an SRAM and a DRAM behind it, and two initiators: one whose accesses are under
// test (by transaction or by the direct path), one that competes with 4 KiB transfers.
struct Rig : sc_core::sc_module {
  Rig(sc_core::sc_module_name name, MetricsRegistry& m)
      : sc_module(name),
        bus("bus", hw::SystemBusConfig{16, 400}, m),
        sram("sram", hw::MemoryConfig{kSramBytes, sc_time(5, sc_core::SC_NS), 3200, 2, 3, 0, 0}, m),
        dram("dram", hw::MemoryConfig{kDramBytes, sc_time(45, sc_core::SC_NS), 6400, 20, 25, 900, 2048}, m),
        tables("tables"),
        dma("dma") {
    bus.targets.bind(sram.socket);
    bus.targets.bind(dram.socket);
    bus.map(kSramBase, kSramBytes, 0, "sram", &sram);
    bus.map(kDramBase, kDramBytes, 1, "dram", &dram);
    tables.bind(bus.initiators);
    dma.bind(bus.initiators);
  }
  // An access at `offset` past now: its end, in ticks past now.
  std::uint64_t transact(tlm_utils::simple_initiator_socket<Rig>& socket, std::uint64_t address, std::uint32_t bytes,
                         bool write, std::uint64_t offset) {
    if (bytes > scratch.size()) scratch.resize(bytes);
    tlm::tlm_generic_payload t;
    tlmx::prepare_bus_access(t, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, address, scratch.data(), bytes);
    sc_time delay = sc_time::from_value(offset);
    socket->b_transport(t, delay);
    REQUIRE_FALSE(t.is_response_error());
    return delay.value();
  }
  std::uint64_t direct(std::uint64_t address, std::uint32_t bytes, bool write, std::uint64_t offset) {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    const std::uint64_t end = bus.direct_access(address, bytes, write, now, now + offset);
    REQUIRE(end != tlmx::DirectAccess::kRefused);
    return end - now;
  }

  hw::SystemBus bus;
  hw::MemoryTarget sram, dram;
  tlm_utils::simple_initiator_socket<Rig> tables, dma;
  std::vector<unsigned char> scratch;
};

struct Driver : sc_core::sc_module {
  SC_HAS_PROCESS(Driver);
  Driver(sc_core::sc_module_name n, Rig& by_transaction, Rig& direct)
      : sc_module(n), a(by_transaction), b(direct) {
    SC_THREAD(run);
  }
  void run() {
    std::mt19937_64 rng(38);
    for (int step = 0; step < 4000; ++step) {
      const bool dram = rng() % 3 == 0;
      const std::uint32_t bytes = std::uint32_t(4) << (rng() % 5);  // 4 to 64 bytes
      const std::uint64_t address = (dram ? kDramBase : kSramBase) + rng() % ((dram ? kDramBytes : kSramBytes) - 64);
      const bool write = rng() % 2;
      const std::uint64_t offset = rng() % 200'000;  // up to 2 us ahead, as a job's local time runs
      ends_match += a.transact(a.tables, address, bytes, write, offset) == b.direct(address, bytes, write, offset);
      if (rng() % 4 == 0) {  // a DMA transfer contends for the bus and the DRAM
        const std::uint64_t at = kDramBase + rng() % (kDramBytes - 4096), dma_offset = rng() % 100'000;
        dma_ends_match += a.transact(a.dma, at, 4096, true, dma_offset) == b.transact(b.dma, at, 4096, true, dma_offset);
      }
      if (rng() % 8 == 0) wait(sc_time::from_value(rng() % 300'000));
    }
    // An address no target holds: refused before anything is booked.
    refused = b.bus.direct_access(kDramBase + kDramBytes + 64, 4, false, sc_core::sc_time_stamp().value(),
                                  sc_core::sc_time_stamp().value()) == tlmx::DirectAccess::kRefused;
  }
  Rig &a, &b;
  int ends_match = 0, dma_ends_match = 0;
  bool refused = false;
};

TEST_CASE("A table access by the direct path books what its transaction would", "[model][bus][direct_access]") {
  MetricsRegistry by_transaction, direct;
  Rig a("a", by_transaction), b("b", direct);
  Driver driver("driver", a, b);
  sc_core::sc_start();

  CHECK(driver.ends_match == 4000);
  CHECK(driver.dma_ends_match > 900);
  CHECK(driver.refused);
  for (const std::string part : {"bus", "sram", "dram"}) {
    INFO(part);
    MetricSet& x = by_transaction.set("a." + part);
    MetricSet& y = direct.set("b." + part);
    CHECK(x.duration("wait") == y.duration("wait"));
    CHECK(x.busy("busy_fraction").ticks() == y.busy("busy_fraction").ticks());
    CHECK(x.busy("busy_fraction").per_interval() == y.busy("busy_fraction").per_interval());
    CHECK(x.counter("bytes") == y.counter("bytes"));
  }
  CHECK(by_transaction.set("a.bus").counter("transfers") == direct.set("b.bus").counter("transfers"));
  for (const std::string memory : {"sram", "dram"}) {
    INFO(memory);
    MetricSet& x = by_transaction.set("a." + memory);
    MetricSet& y = direct.set("b." + memory);
    CHECK(x.counter("reads") == y.counter("reads"));
    CHECK(x.counter("writes") == y.counter("writes"));
    CHECK(x.energy("access").picojoules() == y.energy("access").picojoules());
    CHECK(x.energy("access").per_interval() == y.energy("access").per_interval());
  }
  CHECK(by_transaction.set("a.dram").duration("wait") > 0);  // the DMA's transfers did contend
}

// One DRAM write of 64 bytes annotated, then a 4 KiB DMA write and a contended 64-byte write,
// all arriving at time 0 (bus: 16 bytes a 2.5 ns cycle; DRAM: 45 ns + bytes at 6,400 MB/s).
struct AnnotatedDriver : sc_core::sc_module {
  SC_HAS_PROCESS(AnnotatedDriver);
  AnnotatedDriver(sc_core::sc_module_name n, Rig& rig) : sc_module(n), r(rig) { SC_THREAD(run); }
  void run() {
    annotated_end = r.bus.annotated_access(kDramBase, 64, true, 0);
    dma_end = r.transact(r.dma, kDramBase + 4096, 4096, true, 0);
    contended_end = r.direct(kDramBase + 128, 64, true, 0);
    refused = r.bus.annotated_access(kDramBase + kDramBytes + 64, 4, false, 0) == tlmx::DirectAccess::kRefused;
  }
  Rig& r;
  std::uint64_t annotated_end = 0, dma_end = 0, contended_end = 0;
  bool refused = false;
};

TEST_CASE("An annotated table access takes its uncontended time and delays nothing", "[model][bus][direct_access]") {
  MetricsRegistry metrics;
  Rig rig("rig", metrics);
  AnnotatedDriver driver("driver", rig);
  sc_core::sc_start();

  // 4 beats (10 ns) on the bus, then 45 + 10 ns in the DRAM (ticks of 10 ps).
  CHECK(driver.annotated_end == 1'000 + 5'500);
  // The DMA finds the bus and the DRAM free at 0, as if the annotated access had not been there:
  // 256 beats (640 ns), then 45 + 640 ns in the DRAM.
  CHECK(driver.dma_end == 64'000 + 68'500);
  // A contended access still waits for the DMA: the bus after its beats, the DRAM after its write.
  CHECK(driver.contended_end == 132'500 + 5'500);
  CHECK(driver.refused);
  // Counted as a transfer, its bytes and energy; not as busy time (it overlaps the DMA's, and the
  // busy fraction would pass 1); never waiting.
  CHECK(metrics.set("rig.bus").counter("transfers") == 3);
  CHECK(metrics.set("rig.bus").busy("busy_fraction").ticks() == 64'000 + 1'000);
  CHECK(metrics.set("rig.dram").counter("writes") == 3);
  CHECK(metrics.set("rig.dram").counter("bytes") == 64 + 4096 + 64);
  CHECK(metrics.set("rig.dram").busy("busy_fraction").ticks() == 68'500 + 5'500);
  // Only the contended access waits: on the bus for the DMA's beats, in the DRAM from the end of
  // its own beats (65,000) to the end of the DMA's write.
  CHECK(metrics.set("rig.bus").duration("wait") == 64'000);
  CHECK(metrics.set("rig.dram").duration("wait") == 132'500 - 65'000);
  // Energy per access: 25 pJ a 64-byte line written, 900 pJ a 2 KiB row opened. The annotated and
  // the contended write: 25 + 900 each; the DMA's 4 KiB: 64 lines and 2 rows.
  CHECK(metrics.set("rig.dram").energy("access").picojoules() == Approx(2 * (25 + 900) + 64 * 25 + 2 * 900));
}

}  // namespace direct_access_test
