// NAND command options against their closed forms: cache read, cache program, and program/erase
// suspend for reads (hw/nand/nand_timing.h). One channel, one single-plane die, command_first
// arbitration; c = command/address cycles, x = one page on the bus, d = one page's DMA.
#include <catch2/catch.hpp>

#include "flash_bench.h"

using namespace ssd;
using namespace ssd::test;
using tlmx::FlashOpcode;

namespace {

ChannelBenchConfig one_die(sc_time t_read, double rate_mts) {
  ChannelBenchConfig c = mlc_channel(1, 1);
  c.nand.t_read = {t_read};
  c.nand.t_prog = {sc_time(600, SC_US)};
  c.bus_timing.rate_mts = rate_mts;
  return c;
}

// Posts N reads of the die's first N pages at 0 (call before simulating).
void post_read_burst(ChannelBench& b, std::uint32_t n) {
  const Ppn first = b.cfg.geometry.first_page(0);
  for (std::uint32_t p = 0; p < n; ++p) b.array.program(first + p, p, 1);
  for (std::uint32_t p = 0; p < n; ++p) b.script.post(FlashOpcode::Read, first + p, sc_core::SC_ZERO_TIME);
}

}  // namespace

TEST_CASE("Cache read overlaps the next tR with the last page's data out", "[model][nand][timing]") {
  constexpr std::uint32_t N = 16;
  const sc_time tR(50, SC_US);
  // 400 MT/s: x = 20.48 us < tR, the array bounds: each read costs c + tR, the last page's data
  // out follows. 100 MT/s: x = 81.92 us > tR, the bus bounds: each read costs c + x (the next
  // read's command goes ahead of each data out but the last), the first tR is not hidden.
  const std::vector<double> rates = {400, 100};
  std::vector<std::unique_ptr<ChannelBench>> plain, cached;  // one simulation for all benches
  for (double rate : rates) {
    ChannelBenchConfig p = one_die(tR, rate), c = p;
    c.nand.cache_read = true;
    plain.push_back(std::make_unique<ChannelBench>(p, ("plain" + std::to_string(int(rate))).c_str()));
    cached.push_back(std::make_unique<ChannelBench>(c, ("cached" + std::to_string(int(rate))).c_str()));
    post_read_burst(*plain.back(), N);
    post_read_burst(*cached.back(), N);
  }
  sc_core::sc_start();
  for (std::size_t i = 0; i < rates.size(); ++i) {
    ChannelBench &a = *plain[i], &b = *cached[i];
    REQUIRE(a.script.completed() == N);
    REQUIRE(b.script.completed() == N);
    const sc_time c = a.cmd(7), x = a.transfer(), d = a.dma();
    const sc_time without = a.script.last_done(), with = b.script.last_done();
    INFO("rate " << rates[i] << " MT/s: without " << without << ", with " << with);
    CHECK(diff_ticks(without, (c + tR + x) * N + d) <= N);
    const sc_time expected = x < tR ? (c + tR) * N + x + d : (c + x) * N + tR + d;
    CHECK(diff_ticks(with, expected) <= N);
    CHECK(b.metrics.set(std::string(b.ctrl.name()) + ".die0").counters().at("cache_operations") == N);
  }
}

TEST_CASE("Cache program loads the next page while the array programs", "[model][nand][timing]") {
  constexpr std::uint32_t N = 12;
  ChannelBenchConfig plain = one_die(sc_time(50, SC_US), 400), cached = plain;
  cached.nand.cache_program = true;
  ChannelBench a(plain, "plain"), b(cached, "cached");
  const sc_time c = a.cmd(7), x = a.transfer(), d = a.dma(), tP(600, SC_US);
  for (ChannelBench* bench : {&a, &b})
    for (std::uint32_t p = 0; p < N; ++p)
      bench->script.post(FlashOpcode::Program, bench->cfg.geometry.first_page(0) + p, sc_core::SC_ZERO_TIME, p, 1);
  sc_core::sc_start();
  REQUIRE(a.script.completed() == N);
  REQUIRE(b.script.completed() == N);
  // Without: every program pays its DMA and data in before its tPROG. With: only the first; the
  // others' (d + c + x, well under tPROG) hide under the program before them.
  CHECK(diff_ticks(a.script.last_done(), (d + c + x + tP) * N) <= N);
  CHECK(diff_ticks(b.script.last_done(), d + c + x + tP * N) <= N);
  for (std::uint32_t p = 0; p < N; ++p) CHECK(b.array.read(b.cfg.geometry.first_page(0) + p).lpn == p);
}

TEST_CASE("A read suspends a program or an erase and the operation resumes owing what it had left",
          "[model][nand][timing]") {
  struct Case {
    FlashOpcode op;
    std::unique_ptr<ChannelBench> plain, suspending;
    std::uint32_t write = 0, read = 0;
  };
  std::vector<Case> cases;  // one simulation for all benches
  const sc_time at(200, SC_US);
  for (FlashOpcode op : {FlashOpcode::Program, FlashOpcode::Erase}) {
    const std::string kind = op == FlashOpcode::Program ? "program" : "erase";
    ChannelBenchConfig plain = one_die(sc_time(50, SC_US), 400), suspending = plain;
    suspending.nand.program_suspend = suspending.nand.erase_suspend = true;
    suspending.nand.t_suspend = sc_time(20, SC_US);
    suspending.nand.t_resume = sc_time(10, SC_US);
    Case c{op, std::make_unique<ChannelBench>(plain, ("plain_" + kind).c_str()),
           std::make_unique<ChannelBench>(suspending, ("suspending_" + kind).c_str())};
    for (ChannelBench* bench : {c.plain.get(), c.suspending.get()}) {
      const FlashGeometry& g = bench->cfg.geometry;
      bench->array.program(g.first_page(1), 7, 77);  // the page read, in another block
      c.write = bench->script.post(op, g.first_page(0), sc_core::SC_ZERO_TIME);
      c.read = bench->script.post(FlashOpcode::Read, g.first_page(1), at);
    }
    cases.push_back(std::move(c));
  }
  sc_core::sc_start();
  for (const Case& c : cases) {
    ChannelBench &a = *c.plain, &b = *c.suspending;
    const sc_time c_read = a.cmd(7), x = a.transfer(), d = a.dma(), tR(50, SC_US);
    const sc_time busy_phase = c.op == FlashOpcode::Program ? d + a.cmd(7) + x : a.cmd(5);
    const sc_time array = c.op == FlashOpcode::Program ? sc_time(600, SC_US) : sc_time(3, sc_core::SC_MS);
    const sc_time op_end = busy_phase + array, read_alone = c_read + tR + x + d;
    INFO(tlmx::to_string(c.op));
    // Without suspend the read waits for the whole operation.
    CHECK(diff_ticks(a.script.done_at(c.write), op_end) <= 1);
    CHECK(diff_ticks(a.script.done_at(c.read), op_end + read_alone) <= 2);
    // With it: t_suspend, the read, then the operation's remaining array time plus t_resume.
    const sc_time read_done = at + sc_time(20, SC_US) + read_alone;
    const sc_time resumed = at + sc_time(20, SC_US) + c_read + tR + x;
    CHECK(diff_ticks(b.script.done_at(c.read), read_done) <= 2);
    CHECK(diff_ticks(b.script.done_at(c.write), resumed + (op_end - at) + sc_time(10, SC_US)) <= 2);
    CHECK(b.script.result(c.read).token == 77);
    CHECK(b.metrics.set(std::string(b.ctrl.name()) + ".die0").counters().at("suspensions") == 1);
  }
}

TEST_CASE("At most suspend_max_reads reads pass one program", "[model][nand][timing]") {
  ChannelBenchConfig cfg = one_die(sc_time(50, SC_US), 400);
  cfg.nand.program_suspend = true;
  cfg.nand.suspend_max_reads = 3;
  ChannelBench b(cfg);
  const FlashGeometry& g = b.cfg.geometry;
  const sc_time c = b.cmd(7), x = b.transfer(), d = b.dma(), tR(50, SC_US), tP(600, SC_US), at(100, SC_US);
  for (std::uint32_t p = 0; p < 6; ++p) b.array.program(g.first_page(1) + p, p, 1);
  const auto write = b.script.post(FlashOpcode::Program, g.first_page(0), sc_core::SC_ZERO_TIME);
  std::vector<std::uint32_t> reads;
  for (std::uint32_t p = 0; p < 6; ++p) reads.push_back(b.script.post(FlashOpcode::Read, g.first_page(1) + p, at));
  sc_core::sc_start();
  const sc_time op_end = d + c + x + tP, read = c + tR + x;
  const sc_time resumed = at + b.cfg.nand.t_suspend + read * 3;  // three reads passed, one suspension
  const sc_time write_done = resumed + (op_end - at) + b.cfg.nand.t_resume;
  CHECK(diff_ticks(b.script.done_at(write), write_done) <= 3);
  CHECK(diff_ticks(b.script.done_at(reads[2]), resumed + d) <= 3);
  // The fourth read waits for the program, then the rest go one after another.
  CHECK(diff_ticks(b.script.done_at(reads[3]), write_done + read + d) <= 3);
  CHECK(b.metrics.set(std::string(b.ctrl.name()) + ".die0").counters().at("suspensions") == 1);
}
