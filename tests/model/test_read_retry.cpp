// The ECC engine in the channel controller (reliability.errors): the decode latency, read-retry
// steps, soft decoding and uncorrectable reads against their closed forms, where the error rates
// are set so that every decode outcome is certain (the error model's draws: test_read_error_model).
#include <catch2/catch.hpp>

#include "flash_bench.h"

using namespace ssd;
using namespace ssd::test;
using tlmx::FlashOpcode;

namespace {
// Only the retention term, constant (c^0 t^0): a first read at rber_first; retry step s at
// rber_first x factor^s. 1 KiB + 70 B codewords (8,752 bits) correcting 40: at 0.02 (175 errors
// expected) a codeword fails for certain, at 0.002 (17.5) it fails with probability about 1e-6.
ChannelBenchConfig with_errors(double rber_first, double factor, std::uint32_t steps) {
  ChannelBenchConfig c = mlc_channel(1, 1);
  hw::ReliabilityConfig& r = c.reliability;
  r.errors = true;
  r.rber = {0, 0, 0, rber_first, 0, 0, 0, 0, 0};
  r.ecc.codeword_bytes = 1024;
  r.ecc.parity_bytes = 70;
  r.ecc.correctable_bits = 40;
  r.ecc.t_decode_us = 3;
  r.ecc.retry_steps = steps;
  r.ecc.retry_factor = factor;
  r.ecc.retry_cmd_cycles = 6;
  r.ecc.t_retry_setup_us = 1;
  return c;
}
sc_time read_at() { return sc_time(1, sc_core::SC_MS); }  // (no sc_time before the kernel sets its resolution)
std::uint64_t stage(const tlmx::FlashCommand& c, Stage s) { return c.trail.ticks[static_cast<std::size_t>(s)]; }
// Programs block 0's first page (logical page 5, token 55), reads it at read_at() and runs the
// simulation; returns the read's tag.
std::uint32_t program_then_read(ChannelBench& b) {
  const Ppn page = b.cfg.geometry.first_page(0);
  b.script.post(FlashOpcode::Program, page, sc_core::SC_ZERO_TIME, 5, 55);
  const auto r = b.script.post(FlashOpcode::Read, page, read_at());
  sc_core::sc_start();
  return r;
}
// Closed forms on an LSB page (tR 50 us), decode 3 us, SET FEATURES 6 cycles and 1 us: a first
// read up to its decode, and one retry step.
sc_time first_read(const ChannelBench& b) { return b.cmd(7) + sc_time(50, SC_US) + b.transfer() + sc_time(3, SC_US); }
sc_time retry_step(const ChannelBench& b) {
  return b.cmd(7 + 6) + sc_time(1, SC_US) + sc_time(50, SC_US) + b.transfer() + sc_time(3, SC_US);
}
std::uint64_t die_counter(ChannelBench& b, const char* name) {
  return b.metrics.set(std::string(b.ctrl.name()) + ".die0").counter(name);
}
}  // namespace

TEST_CASE("A read that decodes at once pays the hard decode before its DMA", "[model][reliability][timing]") {
  ChannelBench b(with_errors(1e-6, 0.5, 4));
  const auto r = program_then_read(b);
  CHECK(diff_ticks(b.script.done_at(r) - read_at(), first_read(b) + b.dma()) <= 1);
  CHECK(b.script.result(r).token == 55);
  CHECK(stage(b.script.result(r), Stage::EccDecode) == sc_time(3, SC_US).value());
  CHECK(die_counter(b, "read_retries") == 0);
  CHECK(b.array.reads_since_erase(0) == 1);
}

TEST_CASE("A read that fails its first decode is read again with SET FEATURES once", "[model][reliability][timing]") {
  ChannelBench b(with_errors(0.02, 0.1, 4));
  const auto r = program_then_read(b);
  const sc_time retry = retry_step(b);
  CHECK(diff_ticks(b.script.done_at(r) - read_at(), first_read(b) + retry + b.dma()) <= 1);
  const tlmx::FlashCommand& c = b.script.result(r);
  CHECK(c.token == 55);
  CHECK(c.retry_step == 1);
  CHECK(stage(c, Stage::EccDecode) == sc_time(3, SC_US).value());
  CHECK(diff_ticks(sc_time::from_value(stage(c, Stage::ReadRetry)), retry) <= 1);
  CHECK(die_counter(b, "read_retries") == 1);
  CHECK(die_counter(b, "uncorrectable_reads") == 0);
  CHECK(b.array.reads_since_erase(0) == 2);  // each sensing counts
  CHECK(b.metrics.set(b.ctrl.name()).histogram("retry_steps").exact_count(1) == 1);
}

TEST_CASE("A read no retry step decodes is uncorrectable without soft decoding", "[model][reliability][timing]") {
  ChannelBench b(with_errors(0.02, 1.0, 2));
  const auto r = program_then_read(b);
  CHECK(diff_ticks(b.script.done_at(r) - read_at(), first_read(b) + retry_step(b) * 2.0 + b.dma()) <= 1);
  CHECK(b.script.result(r).token == kUncorrectableToken);
  CHECK(b.script.result(r).lpn == 5);  // the spare area's own code still decodes
  CHECK(die_counter(b, "read_retries") == 2);
  CHECK(die_counter(b, "soft_decodes") == 0);
  CHECK(die_counter(b, "uncorrectable_reads") == 1);
}

TEST_CASE("Soft decoding after the retries senses more levels and moves the soft bits", "[model][reliability][timing]") {
  ChannelBenchConfig c = with_errors(0.02, 1.0, 1);
  c.reliability.ecc.soft_levels = 2;
  c.reliability.ecc.soft_correctable_bits = 500;  // 175 errors expected: decodes for certain
  c.reliability.ecc.t_soft_sense_us = 10;
  c.reliability.ecc.t_soft_decode_us = 8;
  ChannelBench b(c);
  const auto r = program_then_read(b);
  // soft: SET FEATURES, tR and two 10 us levels, the page and two pages of soft bits out, an 8 us decode
  const sc_time soft = b.cmd(13) + sc_time(1, SC_US) + sc_time(50, SC_US) + sc_time(20, SC_US) + b.transfer(3) +
                       sc_time(8, SC_US);
  CHECK(diff_ticks(b.script.done_at(r) - read_at(), first_read(b) + retry_step(b) + soft + b.dma()) <= 1);
  const tlmx::FlashCommand& cmd = b.script.result(r);
  CHECK(cmd.token == 55);
  CHECK(cmd.soft);
  CHECK(diff_ticks(sc_time::from_value(stage(cmd, Stage::SoftDecode)), soft) <= 1);
  CHECK(die_counter(b, "soft_decodes") == 1);
  CHECK(die_counter(b, "uncorrectable_reads") == 0);
  CHECK(b.array.reads_since_erase(0) == 1 + 1 + 3);  // first, retry, soft: the page and two more levels
  CHECK(b.metrics.set(b.ctrl.name()).histogram("retry_steps").exact_count(2) == 1);  // soft = steps + 1
}

TEST_CASE("Retried reads keep their order and each reads its page alone", "[model][reliability][timing]") {
  ChannelBenchConfig c = mlc_channel(1, 2);
  c.reliability = with_errors(0.02, 0.1, 4).reliability;
  ChannelBench b(c);
  const FlashGeometry& g = b.cfg.geometry;
  const Ppn p0 = g.first_page(g.block_at(0, 1)), p1 = g.first_page(g.block_at(1, 1));
  b.script.post(FlashOpcode::Program, p0, sc_core::SC_ZERO_TIME, 1, 11);
  b.script.post(FlashOpcode::Program, p1, sc_core::SC_ZERO_TIME, 2, 22);
  // Both planes' reads run as one multi-plane read and both fail; each is read again alone, in
  // the order they were queued: the second retry's command waits for the first's data out.
  const auto a = b.script.post(FlashOpcode::Read, p0, read_at());
  const auto d = b.script.post(FlashOpcode::Read, p1, read_at());
  sc_core::sc_start();
  const sc_time first = b.cmd(14) + sc_time(50, SC_US) + b.transfer(2) + sc_time(3, SC_US);  // both planes
  const sc_time retry = retry_step(b);
  CHECK(b.script.result(a).retry_step == 1);
  CHECK(b.script.result(d).retry_step == 1);
  CHECK(b.script.result(a).token == 11);
  CHECK(b.script.result(d).token == 22);
  CHECK(diff_ticks(b.script.done_at(a) - read_at(), first + retry + b.dma()) <= 1);
  CHECK(b.script.done_at(d) > b.script.done_at(a));
  // the programs and the first reads: two multi-plane operations, no more
  CHECK(b.metrics.set(std::string(b.ctrl.name()) + ".die0").counter("multiplane_operations") == 2);
}
