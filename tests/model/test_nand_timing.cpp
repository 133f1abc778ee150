// Single-operation latencies against their closed forms, NAND rules in the timed model,
// multi-plane operation and the read-first scheduler.
#include <catch2/catch.hpp>

#include "flash_bench.h"

using namespace ssd;
using namespace ssd::test;
using tlmx::FlashOpcode;

TEST_CASE("Single flash operations take exactly their closed-form latency", "[model][nand][timing]") {
  ChannelBench b(mlc_channel(2, 1));
  const FlashGeometry& g = b.cfg.geometry;
  const Ppn lsb = g.first_page(0), msb = lsb + 1;
  // program = DMA from DRAM + (command/address cycles + data in) on the bus + tPROG(page type)
  const sc_time prog_lsb = b.dma() + b.cmd(7) + b.transfer() + sc_time(600, SC_US);
  const sc_time prog_msb = b.dma() + b.cmd(7) + b.transfer() + sc_time(750, SC_US);
  // read = command/address cycles + tR(page type) + data out + DMA to DRAM
  const sc_time read_lsb = b.cmd(7) + sc_time(50, SC_US) + b.transfer() + b.dma();
  const sc_time read_msb = b.cmd(7) + sc_time(75, SC_US) + b.transfer() + b.dma();
  const sc_time erase = b.cmd(5) + sc_time(3, sc_core::SC_MS);

  const sc_time t1(1, sc_core::SC_MS), t2(3, sc_core::SC_MS), t3(5, sc_core::SC_MS), t4(6, sc_core::SC_MS),
      t5(7, sc_core::SC_MS);
  auto p0 = b.script.post(FlashOpcode::Program, lsb, sc_core::SC_ZERO_TIME, 11, 111);
  auto p1 = b.script.post(FlashOpcode::Program, msb, t1, 12, 222);
  auto r0 = b.script.post(FlashOpcode::Read, lsb, t2);
  auto r1 = b.script.post(FlashOpcode::Read, msb, t3);
  auto e0 = b.script.post(FlashOpcode::Erase, lsb, t4);
  auto r2 = b.script.post(FlashOpcode::Read, lsb, t5 + sc_time(4, sc_core::SC_MS));
  sc_core::sc_start();

  CHECK(diff_ticks(b.script.done_at(p0), prog_lsb) <= 1);
  CHECK(diff_ticks(b.script.done_at(p1) - t1, prog_msb) <= 1);
  CHECK(diff_ticks(b.script.done_at(r0) - t2, read_lsb) <= 1);
  CHECK(diff_ticks(b.script.done_at(r1) - t3, read_msb) <= 1);
  CHECK(diff_ticks(b.script.done_at(e0) - t4, erase) <= 1);
  // Data and OOB come back from the array; an erased page reads as unwritten.
  CHECK(b.script.result(r0).lpn == 11);
  CHECK(b.script.result(r0).token == 111);
  CHECK(b.script.result(r1).token == 222);
  CHECK(b.script.result(r2).lpn == kNoLpn);
  CHECK(b.array.erase_count(0) == 1);
}

TEST_CASE("A NAND rule violation stops the timed model with a message naming the operation", "[model][nand]") {
  ChannelBench b(mlc_channel(1, 1));
  b.script.post(FlashOpcode::Program, b.cfg.geometry.first_page(2) + 1, sc_core::SC_ZERO_TIME);
  try {
    sc_core::sc_start();
    FAIL("the out-of-order program was not reported");
  } catch (const std::exception& e) {
    CHECK_THAT(e.what(),
               Catch::Contains("NAND program of ch0/way0/die0/plane0/block2/page1") && Catch::Contains("out of order"));
  }
}

TEST_CASE("Multi-plane program runs both planes in one array time", "[model][nand][timing]") {
  ChannelBenchConfig c = mlc_channel(1, 2);
  ChannelBench b(c);
  const FlashGeometry& g = b.cfg.geometry;
  const Ppn plane0 = g.first_page(g.block_at(0, 3)), plane1 = g.first_page(g.block_at(1, 5));
  auto a = b.script.post(FlashOpcode::Program, plane0, sc_core::SC_ZERO_TIME);
  auto d = b.script.post(FlashOpcode::Program, plane1, sc_core::SC_ZERO_TIME);
  sc_core::sc_start();
  // One DMA of both pages, command cycles and data for each plane, one tPROG.
  const sc_time expected = b.dma(2) + (b.cmd(7) + b.transfer()) * 2.0 + sc_time(600, SC_US);
  CHECK(diff_ticks(b.script.done_at(a), expected) <= 1);
  CHECK(b.script.done_at(d) == b.script.done_at(a));
  CHECK(b.metrics.set(std::string(b.ctrl.name()) + ".die0").counter("multiplane_operations") == 1);
}

// A lone program waits for its partner up to the deadline; the partner arrives just before it
// and their DMA ends after it. The die must still wake at the DMA's end (the deadline's wake-up
// once hid it: the die stayed in dma-in for ever, found by a 200,000-write ISS run).
TEST_CASE("A partner arriving just before the multi-plane deadline still runs", "[model][nand][timing]") {
  ChannelBenchConfig c = mlc_channel(1, 2);
  c.nand.multiplane_wait = sc_time(10, SC_US);
  ChannelBench b(c);
  const FlashGeometry& g = b.cfg.geometry;
  const sc_time partner_at = c.nand.multiplane_wait - b.dma(2) / 2.0;
  REQUIRE(partner_at + b.dma(2) > c.nand.multiplane_wait);
  auto a = b.script.post(FlashOpcode::Program, g.first_page(g.block_at(0, 3)), sc_core::SC_ZERO_TIME);
  auto d = b.script.post(FlashOpcode::Program, g.first_page(g.block_at(1, 5)), partner_at);
  sc_core::sc_start();
  REQUIRE(b.script.completed() == 2);
  const sc_time expected = partner_at + b.dma(2) + (b.cmd(7) + b.transfer()) * 2.0 + sc_time(600, SC_US);
  CHECK(diff_ticks(b.script.done_at(a), expected) <= 1);
  CHECK(b.script.done_at(d) == b.script.done_at(a));
}

TEST_CASE("Without multi-plane the same two programs take two array times", "[model][nand][timing]") {
  ChannelBenchConfig c = mlc_channel(1, 2);
  c.nand.multiplane = false;
  ChannelBench b(c);
  const FlashGeometry& g = b.cfg.geometry;
  auto a = b.script.post(FlashOpcode::Program, g.first_page(g.block_at(0, 3)), sc_core::SC_ZERO_TIME);
  auto d = b.script.post(FlashOpcode::Program, g.first_page(g.block_at(1, 5)), sc_core::SC_ZERO_TIME);
  sc_core::sc_start();
  const sc_time one = b.dma() + b.cmd(7) + b.transfer() + sc_time(600, SC_US);
  CHECK(diff_ticks(b.script.done_at(a), one) <= 1);
  CHECK(diff_ticks(b.script.done_at(d), one * 2.0) <= 1);
}

TEST_CASE("Read-first lets a read overtake programs of other blocks, never of its own block", "[model][nand]") {
  ChannelBenchConfig c = mlc_channel(1, 1);
  c.scheduler = "read_first";
  ChannelBench b(c);
  const FlashGeometry& g = b.cfg.geometry;
  const sc_time t(2, sc_core::SC_MS);
  b.script.post(FlashOpcode::Program, g.first_page(1), sc_core::SC_ZERO_TIME, 5, 55);  // block 1 holds data
  // At t the die is idle; queued in this order: block 0 programs, a read of block 1, a program
  // of block 1 page 1 and then a read of block 1 page 1 (same block: must wait for it).
  auto w0 = b.script.post(FlashOpcode::Program, g.first_page(0), t);
  auto w1 = b.script.post(FlashOpcode::Program, g.first_page(0) + 1, t);
  auto r_other = b.script.post(FlashOpcode::Read, g.first_page(1), t);
  auto w2 = b.script.post(FlashOpcode::Program, g.first_page(1) + 1, t, 6, 66);
  auto r_same = b.script.post(FlashOpcode::Read, g.first_page(1) + 1, t);
  sc_core::sc_start();
  const sc_time read_lsb = b.cmd(7) + sc_time(50, SC_US) + b.transfer() + b.dma();
  CHECK(diff_ticks(b.script.done_at(r_other) - t, read_lsb) <= 1);  // went first
  CHECK(b.script.done_at(w0) < b.script.done_at(w1));
  CHECK(b.script.done_at(w2) < b.script.done_at(r_same));
  CHECK(b.script.result(r_same).token == 66);
  CHECK(b.script.result(r_other).token == 55);
}

// A die busy with a program until t0 + 675 us; at t GC reads block 1 and programs block 0, then
// the host reads block 1 (reads pass reads) and programs block 0 (held behind GC's program of its
// block) and block 3.
static ChannelBenchConfig host_first_channel(sc_time gc_max_wait) {
  ChannelBenchConfig c = mlc_channel(1, 1);
  c.scheduler = "host_first";
  c.nand.multiplane = false;
  c.bus_timing.gc_max_wait = gc_max_wait;
  return c;
}

struct HostFirstScene {
  std::uint32_t gc_read, gc_program, host_read, host_program_same_block, host_program;
  explicit HostFirstScene(ChannelBench& b) {
    const FlashGeometry& g = b.cfg.geometry;
    b.script.post(FlashOpcode::Program, g.first_page(1), sc_core::SC_ZERO_TIME, 5, 55);  // block 1 holds data
    b.script.post(FlashOpcode::Program, g.first_page(2), sc_time(1, sc_core::SC_MS));   // busy from 1 ms
    const sc_time t(1100, SC_US);
    gc_read = b.script.post(FlashOpcode::Read, g.first_page(1), t, 0, 1, true);
    gc_program = b.script.post(FlashOpcode::Program, g.first_page(0), t, 7, 77, true);
    host_read = b.script.post(FlashOpcode::Read, g.first_page(1), t);
    host_program_same_block = b.script.post(FlashOpcode::Program, g.first_page(0) + 1, t, 8, 88);
    host_program = b.script.post(FlashOpcode::Program, g.first_page(3), t, 9, 99);
  }
};

TEST_CASE("Host-first: host commands pass GC work of other blocks, never of their own", "[model][nand]") {
  ChannelBench b(host_first_channel(sc_time(10, sc_core::SC_MS)));  // no aging in this scene
  const HostFirstScene s(b);
  sc_core::sc_start();
  // After the busy program: host read, host program of block 3, then GC's read and program, then
  // the host program of block 0 (behind GC's program of block 0).
  CHECK(b.script.done_at(s.host_read) < b.script.done_at(s.host_program));
  CHECK(b.script.done_at(s.host_program) < b.script.done_at(s.gc_read));
  CHECK(b.script.done_at(s.gc_read) < b.script.done_at(s.gc_program));
  CHECK(b.script.done_at(s.gc_program) < b.script.done_at(s.host_program_same_block));
  CHECK(b.script.result(s.host_read).token == 55);
  CHECK(b.script.result(s.gc_read).token == 55);
}

TEST_CASE("Host-first: a GC command that has waited gc_max_wait goes before host work", "[model][nand]") {
  ChannelBench b(host_first_channel(sc_time(100, SC_US)));  // the busy program outlasts it
  const HostFirstScene s(b);
  sc_core::sc_start();
  // Queued at 1.1 ms, the die free after 1.6 ms: both GC commands have aged and keep their order.
  CHECK(b.script.done_at(s.gc_read) < b.script.done_at(s.host_read));
  CHECK(b.script.done_at(s.gc_program) < b.script.done_at(s.host_read));
  CHECK(b.script.done_at(s.host_read) < b.script.done_at(s.host_program_same_block));
}

TEST_CASE("FIFO serves a die's queue in arrival order", "[model][nand]") {
  ChannelBench b(mlc_channel(1, 1));
  const FlashGeometry& g = b.cfg.geometry;
  b.script.post(FlashOpcode::Program, g.first_page(1), sc_core::SC_ZERO_TIME);
  const sc_time t(2, sc_core::SC_MS);
  auto w0 = b.script.post(FlashOpcode::Program, g.first_page(0), t);
  auto r = b.script.post(FlashOpcode::Read, g.first_page(1), t);
  sc_core::sc_start();
  const sc_time prog = b.dma() + b.cmd(7) + b.transfer() + sc_time(600, SC_US);
  const sc_time read_lsb = b.cmd(7) + sc_time(50, SC_US) + b.transfer() + b.dma();
  CHECK(diff_ticks(b.script.done_at(w0) - t, prog) <= 1);
  CHECK(diff_ticks(b.script.done_at(r) - t, prog + read_lsb) <= 1);
}

TEST_CASE("Multi-plane read returns both planes' data after one array time", "[model][nand][timing]") {
  ChannelBench b(mlc_channel(1, 2));
  const FlashGeometry& g = b.cfg.geometry;
  const Ppn plane0 = g.first_page(g.block_at(0, 1)), plane1 = g.first_page(g.block_at(1, 6));
  b.array.program(plane0, 3, 33);
  b.array.program(plane1, 4, 44);
  auto a = b.script.post(tlmx::FlashOpcode::Read, plane0, sc_core::SC_ZERO_TIME);
  auto d = b.script.post(tlmx::FlashOpcode::Read, plane1, sc_core::SC_ZERO_TIME);
  sc_core::sc_start();
  // Command cycles per plane, one tR, data out per plane, one DMA of both pages.
  const sc_time expected = b.cmd(7) * 2.0 + sc_time(50, SC_US) + b.transfer(2) + b.dma(2);
  CHECK(diff_ticks(b.script.done_at(a), expected) <= 1);
  CHECK(b.script.done_at(d) == b.script.done_at(a));
  CHECK(b.script.result(a).token == 33);
  CHECK(b.script.result(d).token == 44);
}

TEST_CASE("An OOB read moves only the spare area", "[model][nand][timing]") {
  ChannelBench b(mlc_channel(1, 1));
  const FlashGeometry& g = b.cfg.geometry;
  b.array.program(g.first_page(2), 12, 120);
  auto r = b.script.post(tlmx::FlashOpcode::ReadOob, g.first_page(2), sc_core::SC_ZERO_TIME);
  sc_core::sc_start();
  // command cycles + tR + spare bytes out + DMA of the spare bytes (bus beats, DRAM latency + bytes/bandwidth)
  const double oob = g.oob_bytes;
  const sc_time out = b.cfg.bus_timing.transfer(g.oob_bytes);
  const sc_time dma = sc_time(1e6 / b.cfg.system_bus.clock_mhz, SC_PS) * std::ceil(oob / b.cfg.system_bus.width_bytes) +
                      b.cfg.dram.latency + sc_time(oob / (b.cfg.dram.bandwidth_mbps * 1e6) * 1e12, SC_PS);
  CHECK(diff_ticks(b.script.done_at(r), b.cmd(7) + sc_time(50, SC_US) + out + dma) <= 1);
  CHECK(b.script.result(r).lpn == 12);
  CHECK(b.script.result(r).token == 120);
}
