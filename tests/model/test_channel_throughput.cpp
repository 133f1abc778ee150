// Way interleaving and channel saturation against the closed-form bounds.
//
// One channel, W single-plane dies, each given N programs at once. In this model a die's
// program cycle is DMA-in + bus phase b (command cycles + data in) + tPROG, and the channel
// carries one bus phase at a time, so throughput = min(W / (dma + b + tPROG), 1 / b).
#include <catch2/catch.hpp>

#include "flash_bench.h"
#include "tlm/time_base.h"

using namespace ssd;
using namespace ssd::test;

// All way counts are elaborated side by side in one simulation (independent benches).
TEST_CASE("Way interleaving scales with W until the channel bus bound", "[model][channel][timing]") {
  const std::vector<std::uint32_t> ways = {1, 2, 4, 8, 16, 24};
  const std::uint32_t N = 256;  // programs per die (one block)
  std::vector<std::unique_ptr<ChannelBench>> benches;
  for (std::uint32_t W : ways) {
    ChannelBenchConfig c = mlc_channel(W, 1);
    c.nand.t_prog = {sc_time(200, SC_US)};
    benches.push_back(std::make_unique<ChannelBench>(c, ("ways" + std::to_string(W)).c_str()));
    ChannelBench& b = *benches.back();
    const FlashGeometry& g = b.cfg.geometry;
    for (std::uint32_t p = 0; p < N; ++p)
      for (std::uint32_t die = 0; die < W; ++die)
        b.script.post(tlmx::FlashOpcode::Program, g.first_page(g.block_at(die, 0)) + p, sc_core::SC_ZERO_TIME);
  }
  sc_core::sc_start();
  for (std::size_t i = 0; i < ways.size(); ++i) {
    const std::uint32_t W = ways[i];
    ChannelBench& b = *benches[i];
    REQUIRE(b.script.completed() == std::size_t(W) * N);

    const double bus = (b.cmd(7) + b.transfer()).to_seconds();
    const double cycle = (b.dma() + b.cmd(7) + b.transfer() + sc_time(200, SC_US)).to_seconds();
    const double closed_form = std::min(W / cycle, 1.0 / bus);  // programs per second
    const double measured = double(W) * N / b.script.last_done().to_seconds();
    INFO("W=" << W << " measured " << measured << "/s, closed form " << closed_form << "/s ("
              << (W / cycle < 1.0 / bus ? "die-bound" : "bus-bound") << ")");
    CHECK(measured == Approx(closed_form).epsilon(0.02));
    // The bus-bound regime is the one where the channel is (almost) always busy.
    const double bus_busy =
        ssd::tlmx::ticks_to_seconds(b.metrics.set(b.ctrl.name()).busy("busy_fraction").ticks()) / b.script.last_done().to_seconds();
    if (W / cycle > 1.0 / bus) CHECK(bus_busy > 0.97);
    if (W <= 4) CHECK(bus_busy < 0.5);
  }
}

namespace {

// One channel of W single-plane dies, each given N reads of one programmed page at time 0,
// under the given bus arbitration; returns reads per second for each W.
std::vector<double> read_throughput(const std::vector<std::uint32_t>& ways, std::uint32_t N,
                                    const std::string& arbitration, std::vector<std::unique_ptr<ChannelBench>>& benches) {
  for (std::uint32_t W : ways) {
    ChannelBenchConfig c = mlc_channel(W, 1);
    c.nand.t_read = {sc_time(50, SC_US)};
    c.arbitration = arbitration;
    benches.push_back(std::make_unique<ChannelBench>(c, (arbitration + std::to_string(W)).c_str()));
    ChannelBench& b = *benches.back();
    const FlashGeometry& g = b.cfg.geometry;
    for (std::uint32_t die = 0; die < W; ++die) b.array.program(g.first_page(g.block_at(die, 0)), 1, 1);
    for (std::uint32_t p = 0; p < N; ++p)
      for (std::uint32_t die = 0; die < W; ++die)
        b.script.post(tlmx::FlashOpcode::Read, g.first_page(g.block_at(die, 0)), sc_core::SC_ZERO_TIME);
  }
  sc_core::sc_start();
  std::vector<double> measured;
  for (std::size_t i = 0; i < ways.size(); ++i) {
    ChannelBench& b = *benches[benches.size() - ways.size() + i];
    REQUIRE(b.script.completed() == std::size_t(ways[i]) * N);
    measured.push_back(double(ways[i]) * N / b.script.last_done().to_seconds());
  }
  return measured;
}

}  // namespace

TEST_CASE("First-come first-served bus grants put reading dies in lockstep", "[model][channel][timing]") {
  const std::vector<std::uint32_t> ways = {1, 2, 8};
  std::vector<std::unique_ptr<ChannelBench>> benches;
  const std::vector<double> measured = read_throughput(ways, 200, "fifo", benches);
  for (std::size_t i = 0; i < ways.size(); ++i) {
    const std::uint32_t W = ways[i];
    const ChannelBench& b = *benches[i];
    // A read uses the bus twice (command, then data out); the die is free once its data is
    // out. Alone, a die cycles in cmd + tR + out. With W identical dies served first-come
    // first-served the dies fall into lockstep: each die's next command waits behind the
    // other dies' data out, so a round of W reads takes cmd + tR + W x out.
    const double out = b.transfer().to_seconds();
    const double alone = (b.cmd(7) + sc_time(50, SC_US) + b.transfer()).to_seconds();
    const double round = std::max(alone, (b.cmd(7) + sc_time(50, SC_US)).to_seconds() + W * out);
    INFO("W=" << W << " measured " << measured[i] << " closed form " << W / round);
    CHECK(measured[i] == Approx(W / round).epsilon(0.02));
  }
}

// Command/address cycles go ahead of data transfers, so a die's next tR overlaps the other dies'
// data out: reads per second = min(W / (cmd + tR + out), 1 / (cmd + out)), the die bound and
// the bus bound (each read holds the bus for its command and its data out).
void check_reads_reach_bound(const std::string& arbitration) {
  const std::vector<std::uint32_t> ways = {1, 2, 3, 4, 8, 16};
  std::vector<std::unique_ptr<ChannelBench>> benches;
  const std::vector<double> measured = read_throughput(ways, 200, arbitration, benches);
  for (std::size_t i = 0; i < ways.size(); ++i) {
    const std::uint32_t W = ways[i];
    const ChannelBench& b = *benches[i];
    const double cmd = b.cmd(7).to_seconds(), out = b.transfer().to_seconds(), t_r = 50e-6;
    const double bound = std::min(W / (cmd + t_r + out), 1.0 / (cmd + out));
    INFO(arbitration << " W=" << W << " measured " << measured[i] << " closed form " << bound);
    CHECK(measured[i] <= bound * 1.001);
    CHECK(measured[i] == Approx(bound).epsilon(0.03));
  }
}

TEST_CASE("Command-first bus grants keep every die reading until data out saturates the bus",
          "[model][channel][timing]") {
  check_reads_reach_bound("command_first");
}

TEST_CASE("Die-ready bus grants keep every die reading until data out saturates the bus", "[model][channel][timing]") {
  check_reads_reach_bound("die_ready");
}
