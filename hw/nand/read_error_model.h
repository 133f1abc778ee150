// Whether a page read decodes: the page's raw bit error rate from its block's wear, its age and
// the reads its block has seen since the erase (hw/nand/reliability_config.h), the ECC's
// capability at the decode attempt (the first hard decode, one after each read-retry step, the
// soft decode), and one uniform draw from the channel's seeded stream per attempt. No SystemC:
// the channel controller (hw/channel/channel_controller.h) times the attempts.
//
// Attempts are independent draws: each re-read senses the cells again, and its errors are those
// of its own (lower) RBER, as the simulators the model follows assume.
#pragma once

#include <cstdint>
#include <optional>
#include <random>

#include "hw/nand/codeword_failure.h"
#include "hw/nand/reliability_config.h"

namespace ssd::hw {

// What a page's raw bit error rate depends on at the moment it is read.
struct PageCondition {
  double pe_cycles = 0;       // the block's erase count
  double retention_days = 0;  // since the block was programmed (preconditioned data: plus its age at time 0)
  double block_reads = 0;     // reads of the block since its erase, this one included
  std::uint32_t page_in_block = 0;
};

class ReadErrorModel {
 public:
  ReadErrorModel(const ReliabilityConfig& config, std::uint32_t page_bytes, std::uint64_t stream);

  // The RBER after `retry_step` retry steps (0: the first read).
  double rber(const PageCondition& page, std::uint32_t retry_step) const;
  // The probability that the page fails the hard decode after `retry_step` steps, or (soft) the
  // soft decode after the last step.
  double failure_probability(const PageCondition& page, std::uint32_t retry_step, bool soft) const {
    return failure_probability(rber(page, retry_step), soft);
  }
  double failure_probability(double rber, bool soft) const;  // of a page read at that RBER
  // One decode attempt of a page read at `rber` (rber(page, step)), drawn.
  bool decodes(double rber, bool soft) { return uniform_(rng_) >= failure_probability(rber, soft); }

  const ReliabilityConfig& config() const { return cfg_; }
  std::uint32_t codewords_per_page() const { return codewords_; }

 private:
  ReliabilityConfig cfg_;
  std::uint32_t codewords_;
  CodewordFailure hard_;
  std::optional<CodewordFailure> soft_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
};

}  // namespace ssd::hw
