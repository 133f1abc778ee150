// System-bus arbitration: initiators that saturate one target share it.
#include <tlm_utils/simple_initiator_socket.h>

#include <catch2/catch.hpp>

#include "hw/bus/system_bus.h"
#include "hw/memory/memory_target.h"

using namespace ssd;
using sc_core::sc_time;

namespace {

// Issues `count` back-to-back transfers of `bytes`, each after the previous one completed.
struct Streamer : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Streamer> socket;
  std::uint32_t bytes, count;
  std::uint64_t base;
  sc_time finished;
  int errors = 0;
  std::vector<unsigned char> data;
  SC_HAS_PROCESS(Streamer);
  Streamer(sc_core::sc_module_name n, std::uint64_t base_addr, std::uint32_t b, std::uint32_t c)
      : sc_module(n), socket("socket"), bytes(b), count(c), base(base_addr), data(b) {
    SC_THREAD(run);
  }
  void run() {
    tlm::tlm_generic_payload t;
    for (std::uint32_t i = 0; i < count; ++i) {
      t.set_command(tlm::TLM_WRITE_COMMAND);
      t.set_address(base + (i % 16) * bytes);
      t.set_data_ptr(data.data());
      t.set_data_length(bytes);
      t.set_streaming_width(bytes);
      t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(t, delay);
      if (t.is_response_error()) ++errors;  // recorded here, asserted after sc_start
      wait(delay);
    }
    finished = sc_core::sc_time_stamp();
  }
};

}  // namespace

TEST_CASE("Two initiators saturating one target each get half of its bandwidth", "[model][bus][timing]") {
  MetricsRegistry m;
  hw::SystemBus bus("bus", hw::SystemBusConfig{16, 400}, m);  // 6.4 GB/s
  hw::MemoryConfig dram_cfg{std::uint64_t(1) << 20, sc_time(60, sc_core::SC_NS), 6400};
  hw::MemoryTarget dram("dram", dram_cfg, m);
  bus.targets.bind(dram.socket);
  bus.map(0, dram_cfg.size_bytes, 0, "dram");
  const std::uint32_t bytes = 4096, count = 2000;
  Streamer a("a", 0, bytes, count), b("b", 0x10000, bytes, count), alone("alone", 0x20000, bytes, 0);
  a.socket.bind(bus.initiators);
  b.socket.bind(bus.initiators);
  alone.socket.bind(bus.initiators);
  sc_core::sc_start();

  // The DRAM is the bottleneck: each access holds it for latency + bytes / bandwidth.
  const double per_access = 60e-9 + bytes / 6400e6;
  const double target_bw = bytes / per_access;
  const double bw_a = double(bytes) * count / a.finished.to_seconds();
  const double bw_b = double(bytes) * count / b.finished.to_seconds();
  INFO("a " << bw_a / 1e6 << " MB/s, b " << bw_b / 1e6 << " MB/s, target " << target_bw / 1e6 << " MB/s");
  CHECK(bw_a == Approx(target_bw / 2).epsilon(0.02));
  CHECK(bw_b == Approx(target_bw / 2).epsilon(0.02));
  CHECK(bw_a + bw_b == Approx(target_bw).epsilon(0.01));
  CHECK(m.set("bus").duration("wait") > 0);  // the arbitration shows in timing
  CHECK(a.errors + b.errors == 0);
}

TEST_CASE("One initiator alone gets the whole target bandwidth", "[model][bus][timing]") {
  MetricsRegistry m;
  hw::SystemBus bus("bus", hw::SystemBusConfig{16, 400}, m);
  hw::MemoryConfig dram_cfg{std::uint64_t(1) << 20, sc_time(60, sc_core::SC_NS), 6400};
  hw::MemoryTarget dram("dram", dram_cfg, m);
  bus.targets.bind(dram.socket);
  bus.map(0, dram_cfg.size_bytes, 0, "dram");
  Streamer a("a", 0, 4096, 1000);
  a.socket.bind(bus.initiators);
  sc_core::sc_start();
  // Bus beats then DRAM access, in series for a lone initiator.
  const double per = 4096.0 / 16 * 2.5e-9 + 60e-9 + 4096 / 6400e6;
  CHECK(a.finished.to_seconds() == Approx(1000 * per).epsilon(1e-9));
  CHECK(a.errors == 0);
}
