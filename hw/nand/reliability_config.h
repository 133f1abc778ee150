// The NAND error model's and the ECC engine's parameters (platform keys reliability.* and ecc.*),
// without SystemC: the error model (hw/nand/read_error_model.h) is tested on its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssd::hw {

// The raw bit error rate of a page read (Kim, Choi, Min, "Design Tradeoffs for SSD Reliability",
// FAST 2019, after Liu, Yang, Wu, FAST 2012):
//   RBER(c, t, r) = epsilon + alpha c^k + beta c^m t^n + gamma c^p r^q
// c: the block's program/erase cycles (at least 1: every term but epsilon has a power of c),
// t: days since the block was programmed, r: reads of the block since its erase, in units of
// `disturb_read_unit` reads.
struct RberCoefficients {
  double epsilon = 0, alpha = 0, k = 0, beta = 0, m = 0, n = 0, gamma = 0, p = 0, q = 0;
};

struct EccConfig {
  // A codeword: data bytes and parity bytes; a page holds ceil(page_bytes / codeword_bytes).
  std::uint32_t codeword_bytes = 1024;
  std::uint32_t parity_bytes = 42;
  // Hard-decision decoding corrects up to this many bit errors per codeword (BCH's t; LDPC's
  // hard-decision limit taken as an error count, the usual simulator abstraction).
  std::uint32_t correctable_bits = 24;
  double t_decode_us = 2;  // a hard decode's latency once the page's data is in the controller
  // Read-retry: after a failed hard decode, up to `retry_steps` re-reads with shifted read
  // reference voltages (SET FEATURES, then the read again: its command cycles plus
  // `retry_cmd_cycles`, t_retry_setup_us, tR, the data out, another hard decode). Step s
  // multiplies the retention and read-disturb terms of the RBER by retry_factor^s: moving the
  // reference voltages follows the threshold voltages' shift, not the wear's widening of their
  // distributions, nor the floor.
  std::uint32_t retry_steps = 0;
  double retry_factor = 0.5;
  std::uint32_t retry_cmd_cycles = 6;  // EFh, feature address, 4 parameter bytes
  double t_retry_setup_us = 1;         // tFEAT: the die is busy taking the new voltages
  // Soft-decision decoding, when the retries are spent: `soft_levels` extra sensings (each
  // t_soft_sense_us on the array and one more page of soft bits on the channel), then a soft
  // decode correcting up to soft_correctable_bits at the last retry step's RBER. 0: no soft
  // decoding (a BCH engine); the read is then uncorrectable after the retries.
  std::uint32_t soft_levels = 0;
  std::uint32_t soft_correctable_bits = 0;
  double t_soft_sense_us = 0;
  double t_soft_decode_us = 0;

  std::uint32_t codeword_bits() const { return (codeword_bytes + parity_bytes) * 8; }
};

// Bad blocks (platform keys failures.*): blocks bad from the factory, and blocks that go bad in use
// when a program or an erase reports a status failure (hw/nand/block_failures.h).
struct FailureConfig {
  // Factory bad blocks: each block bad with this probability (seeded), plus the listed blocks.
  double factory_bad_share = 0;
  std::vector<std::uint64_t> factory_bad_blocks;
  // Grown bad blocks: a block's chance to fail per P/E cycle at cycle c is
  //   h(c) = grown_bad_share (k + 1) / R (c / R)^k,  R = rated_pe_cycles, k = wear_exponent,
  // so that grown_bad_share of the blocks have failed once every block reached R cycles (a
  // datasheet's bound on the blocks that go bad over the rated endurance); erase_share of h is an
  // erase's chance to fail, the rest spread over the block's programs.
  bool grown = false;
  double grown_bad_share = 0.015;
  double rated_pe_cycles = 3000;
  double wear_exponent = 3;
  double erase_share = 0.5;
  // How much an SLC-mode program/erase cycle (a block programmed one bit a cell since its erase)
  // wears the block, as a share of a native cycle: the cycles the RBER law and the hazard above
  // see are the native ones plus this share of the SLC ones (NandArray::wear). 1: a cycle is a
  // cycle, whatever the mode.
  double slc_cycle_wear = 1.0;
  // Closed-form studies and tests: every N-th program / erase the array performs during the run
  // reports failure (the N-th, 2N-th, ...; 0: none).
  std::uint64_t fail_program = 0, fail_erase = 0;
  std::uint64_t seed = 1;

  bool any() const { return factory_bad_share > 0 || !factory_bad_blocks.empty() || grown || fail_program || fail_erase; }
};

struct ReliabilityConfig {
  bool errors = false;  // reliability.errors: reads see bit errors; off, every read decodes at once
  RberCoefficients rber;
  std::string rber_source;  // where the coefficients come from (echoed in the report)
  // RBER multiplier per page type (index = page % size: LSB, CSB, MSB), e.g. MSB pages err more.
  std::vector<double> page_type_factor{1.0};
  double disturb_read_unit = 1;   // r counts reads in units of this many
  std::uint64_t seed = 1;         // the decode outcomes' random stream (one per channel from it)
  EccConfig ecc;
  FailureConfig failures;
};

}  // namespace ssd::hw
