// SLC mode of a part of several bits a cell in the timed model: a block programmed in SLC mode
// reads, programs and erases in nand.slc_t_*, whatever the page's type; a multi-plane operation
// never mixes modes.
#include <catch2/catch.hpp>

#include "flash_bench.h"

using namespace ssd;
using namespace ssd::test;
using tlmx::FlashOpcode;

namespace {
ChannelBenchConfig slc_capable_channel(std::uint32_t planes) {
  ChannelBenchConfig c = mlc_channel(1, planes);  // tR 50/75 us, tPROG 600/750 us, tBERS 3 ms
  c.nand.slc_t_read = sc_time(20, SC_US);
  c.nand.slc_t_prog = sc_time(150, SC_US);
  c.nand.slc_t_erase = sc_time(1, sc_core::SC_MS);
  return c;
}
}  // namespace

TEST_CASE("SLC-mode operations take the SLC times: an upper-page offset reads in slc_t_read, not tR(MSB)",
          "[model][nand][slc][timing]") {
  ChannelBench b(slc_capable_channel(1));
  b.array.set_bits_per_cell(2);
  const FlashGeometry& g = b.cfg.geometry;
  const Ppn slc = g.first_page(0), native = g.first_page(1);
  const sc_time t1(1, sc_core::SC_MS), t2(2, sc_core::SC_MS), t3(3, sc_core::SC_MS), t4(4, sc_core::SC_MS),
      t5(5, sc_core::SC_MS), t6(7, sc_core::SC_MS);
  auto p0 = b.script.post(FlashOpcode::Program, slc, sc_core::SC_ZERO_TIME, 1, 11, false, true);
  auto p1 = b.script.post(FlashOpcode::Program, slc + 1, t1, 2, 22, false, true);  // page type 1 (MSB) in native mode
  auto r1 = b.script.post(FlashOpcode::Read, slc + 1, t2);
  auto n0 = b.script.post(FlashOpcode::Program, native, t3, 3, 33);
  auto n1 = b.script.post(FlashOpcode::Program, native + 1, t4, 4, 44);
  auto e0 = b.script.post(FlashOpcode::Erase, slc, t5);
  auto en = b.script.post(FlashOpcode::Erase, native, t6);
  sc_core::sc_start();

  CHECK(diff_ticks(b.script.done_at(p0), b.dma() + b.cmd(7) + b.transfer() + sc_time(150, SC_US)) <= 1);
  CHECK(diff_ticks(b.script.done_at(p1) - t1, b.dma() + b.cmd(7) + b.transfer() + sc_time(150, SC_US)) <= 1);
  CHECK(diff_ticks(b.script.done_at(r1) - t2, b.cmd(7) + sc_time(20, SC_US) + b.transfer() + b.dma()) <= 1);
  CHECK(b.script.result(r1).token == 22);
  // The native block beside it keeps the part's own times per page type.
  CHECK(diff_ticks(b.script.done_at(n0) - t3, b.dma() + b.cmd(7) + b.transfer() + sc_time(600, SC_US)) <= 1);
  CHECK(diff_ticks(b.script.done_at(n1) - t4, b.dma() + b.cmd(7) + b.transfer() + sc_time(750, SC_US)) <= 1);
  CHECK(diff_ticks(b.script.done_at(e0) - t5, b.cmd(5) + sc_time(1, sc_core::SC_MS)) <= 1);
  CHECK(diff_ticks(b.script.done_at(en) - t6, b.cmd(5) + sc_time(3, sc_core::SC_MS)) <= 1);
  CHECK_FALSE(b.array.is_slc(0));  // erased: no mode
}

TEST_CASE("A multi-plane program pairs only programs of one mode", "[model][nand][slc][timing]") {
  ChannelBench b(slc_capable_channel(2));
  b.array.set_bits_per_cell(2);
  const FlashGeometry& g = b.cfg.geometry;
  const Ppn plane0 = g.first_page(g.block_at(0, 3)), plane1 = g.first_page(g.block_at(1, 5));
  auto a = b.script.post(FlashOpcode::Program, plane0, sc_core::SC_ZERO_TIME, 1, 1, false, true);
  auto d = b.script.post(FlashOpcode::Program, plane1, sc_core::SC_ZERO_TIME, 2, 2, false, false);
  sc_core::sc_start();
  // Not one multi-plane program: the SLC one first, then the native one on its own.
  CHECK(b.metrics.set(std::string(b.ctrl.name()) + ".die0").counter("multiplane_operations") == 0);
  CHECK(diff_ticks(b.script.done_at(a), b.dma() + b.cmd(7) + b.transfer() + sc_time(150, SC_US)) <= 1);
  CHECK(b.script.done_at(d) > b.script.done_at(a) + sc_time(600, SC_US));
}
