// One channel of the default platform, 1 to 16 ways, against the closed-form bound of its
// limiting resource (issue 13). Every transfer on the channel is 16 KiB (a two-plane operation
// of 8 KiB pages at 400 MB/s: 40.96 us); a die's cycle is its command cycles (7 x 10 ns per
// plane), its array time (tR 50/75 us, tPROG 600/750 us: LSB and MSB pages alike) and its
// transfer. Bound = min(ways x 16 KiB / cycle, 400 MB/s). The DMA between controller and DRAM
// and the firmware are left out of the bound, so the model may fall short of it but never
// exceed it; the core runs at 1.6 GHz to stay out of the way (at 400 MHz the default platform's
// calibrated firmware costs cap one core's 128 KiB writes below one channel's 400 MB/s). Without
// word-line safety: write-through, each write would else also wait for its word line's padding.
#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

constexpr double kBusBytesPerSecond = 400e6, kTransfer = 16384 / kBusBytesPerSecond, kCommand = 0.14e-6;

double run_mb_per_s(const TempDir& dir, std::uint32_t ways, double read_fraction, const std::string& precondition) {
  const std::string report = dir.file("w" + std::to_string(ways) + ".json");
  const Result r = run_ssdsim({"run", "-p", default_platform(), "--set", "firmware.write_buffer=off", "--set",
                               "firmware.word_line_safety=false", "--set", "core.clock_mhz=1600", "--set", "geometry.channels=1", "--set",
                               "geometry.ways=" + std::to_string(ways), "--synthetic", "sequential", "--read-fraction",
                               std::to_string(read_fraction), "--request-bytes", "131072", "--qd", "64", "--count",
                               read_fraction > 0 ? "2000" : "1000", "--precondition", precondition, "--no-vcd", "-q",
                               "-r", report},
                              dir, 300);
  INFO(r.describe());
  REQUIRE(r.exit_code == 0);
  return load_json(report)["host"]["mb_per_s"].get<double>();
}

void check_sweep(double read_fraction, double array_seconds, const std::string& precondition) {
  TempDir dir;
  for (std::uint32_t ways : {1u, 2u, 3u, 4u, 8u, 16u}) {
    const double cycle = kCommand + array_seconds + kTransfer;
    const double bound = std::min(ways * 16384 / cycle, kBusBytesPerSecond) / 1e6;
    const double measured = run_mb_per_s(dir, ways, read_fraction, precondition);
    INFO("ways " << ways << ": " << measured << " MB/s, bound " << bound << " MB/s ("
                 << (ways * 16384 / cycle < kBusBytesPerSecond ? "dies" : "channel") << ")");
    CHECK(measured <= bound * 1.001);
    CHECK(measured >= bound * 0.95);
  }
}

}  // namespace

TEST_CASE("one channel, sequential 128 KiB reads: within 5% of min(dies, channel) at 1-16 ways",
          "[cli][channel][sweep]") {
  check_sweep(1.0, 62.5e-6, "fill");
}

TEST_CASE("one channel, sequential 128 KiB writes on a fresh drive: within 5% of min(dies, channel) at 1-16 ways",
          "[cli][channel][sweep]") {
  check_sweep(0.0, 675e-6, "none");
}

// The machine-repairman (finite-source queue) throughput of `dies` dies sharing one bus: each die
// works alone for a mean `think` seconds (exponentially distributed), then holds the bus for a
// mean `service` seconds. X = (1 - P0) / service, P0 = 1 / sum_n dies! / (dies - n)! (think^-1 x
// service)^n. It counts the time a die waits for the bus behind other dies' transfers, which
// the min(dies, bus) bound leaves out.
static double repairman_ops_per_second(std::uint32_t dies, double think, double service) {
  const double r = service / think;
  double sum = 0, term = 1;
  for (std::uint32_t n = 0; n <= dies; ++n) {
    sum += term;
    term *= double(dies - n) * r;
  }
  return (1 - 1 / sum) / service;
}

TEST_CASE("one channel, mixed 128 KiB reads and writes: within 5% of the finite-source queue, never falling",
          "[cli][channel][sweep]") {
  // Half reads (a die cycle of 103.6 us), half writes (716 us). Near balance (8-12 ways) the
  // min(dies, channel) bound is not reachable: a die holds its page register until its transfer
  // is done, so it idles while other dies use the bus, and with read and write cycles this
  // different no order of the bus lets every die avoid that (measured 0.92-0.94 of the bound
  // with every arbitration policy). The machine-repairman model counts that wait (exponential
  // array times of mean 368.9 us, the mix's spread being close to it; a 40.96 us transfer):
  // 40.0, 79.2, 154.4, 284.2, 366.7, 395.6 MB/s at 1, 2, 4, 8, 12, 16 ways. Its exponential
  // transfers wait longer than our fixed ones, so the model should reach it, less the DMA and
  // firmware the bound leaves out (fifo arbitration gives 286 MB/s at 8 ways, command_first 293).
  TempDir dir;
  double previous = 0;
  for (std::uint32_t ways : {1u, 2u, 4u, 8u, 12u, 16u}) {
    const double measured = run_mb_per_s(dir, ways, 0.5, "fill");
    const double cycle = kCommand + (62.5e-6 + 675e-6) / 2 + kTransfer;
    const double bound = std::min(ways * 16384 / cycle, kBusBytesPerSecond) / 1e6;
    const double queue = repairman_ops_per_second(ways, kCommand + (62.5e-6 + 675e-6) / 2, kTransfer) * 16384 / 1e6;
    INFO("ways " << ways << ": " << measured << " MB/s, finite-source queue " << queue << ", bound " << bound
                 << ", with fewer ways " << previous);
    CHECK(measured <= bound * 1.001);
    CHECK(measured >= queue * 0.95);
    CHECK(measured >= previous);
    previous = measured;
  }
}

TEST_CASE("random 8 KiB writes at QD64 on a fresh drive: more dies never lose throughput, 90% of the bound",
          "[cli][channel][sweep][multiplane]") {
  // Each die programs its two planes together when its queue holds a pair (ftl.allocation =
  // adaptive): a die's cycle is two 8 KiB transfers (40.96 us) and the mean tPROG (675 us) for
  // 16 KiB. With 64 one-page writes in flight, each taking at least tPROG + its transfer, the
  // queue depth bounds the drive at 64 x 8 KiB / 695.48 us. Bound = min(dies x 16 KiB / 715.96
  // us, 64 x 8 KiB / 695.48 us); the channels (400 MB/s each) never limit here. Before adaptive
  // placement no die on 32 or more held two writes to pair: 8 x 4 gave 375 MB/s (0.51). The core
  // runs at 1.6 GHz to stay out of the way: the default platform's calibrated firmware costs cap
  // one 400 MHz core below these bounds from 16 dies on.
  TempDir dir;
  double previous = 0;
  for (auto [channels, ways] : std::vector<std::pair<int, int>>{{1, 1}, {1, 2}, {2, 2}, {2, 4}, {4, 4}, {8, 4}, {8, 8}, {16, 8}}) {
    const std::string report = dir.file("g" + std::to_string(channels) + "x" + std::to_string(ways) + ".json");
    const Result r = run_ssdsim({"run", "-p", default_platform(), "--set", "firmware.write_buffer=off", "--set",
                                 "firmware.word_line_safety=false", "--set",
                                 "core.clock_mhz=1600", "--set", "geometry.channels=" + std::to_string(channels),
                                 "--set", "geometry.ways=" + std::to_string(ways), "--synthetic", "random",
                                 "--read-fraction", "0", "--request-bytes", "8192", "--qd", "64", "--count", "20000",
                                 "--precondition", "none", "--no-vcd", "-q", "-r", report},
                                dir, 300);
    INFO(r.describe());
    REQUIRE(r.exit_code == 0);
    const double measured = load_json(report)["host"]["mb_per_s"].get<double>();
    const double dies = channels * ways;
    const double bound = std::min(dies * 16384 / 715.96e-6, 64 * 8192 / 695.48e-6) / 1e6;
    INFO(channels << " x " << ways << ": " << measured << " MB/s, bound " << bound << ", with fewer dies " << previous);
    CHECK(measured <= bound * 1.001);
    CHECK(measured >= bound * 0.90);
    // Past the queue-depth bound more dies change only the order completions arrive in (0.1%).
    CHECK(measured >= previous * 0.995);
    previous = measured;
  }
}
