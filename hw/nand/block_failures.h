// Which blocks are bad and which operations fail (platform keys failures.*; FailureConfig in
// hw/nand/reliability_config.h): the factory's bad blocks, fixed when the array is made, and the
// status failures of programs and erases as blocks wear, drawn from one seeded stream in the
// order the array performs them, so a run is reproducible.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "common/geometry.h"
#include "hw/nand/reliability_config.h"

namespace ssd::hw {

class BlockFailures {
 public:
  BlockFailures() = default;  // nothing bad, nothing fails
  // Throws std::invalid_argument naming failures.factory_bad_blocks for a block beyond the array.
  BlockFailures(const FailureConfig& config, const FlashGeometry& geometry);

  bool factory_bad(BlockId b) const { return !factory_bad_.empty() && factory_bad_[b]; }
  const std::vector<BlockId>& factory_bad_blocks() const { return factory_bad_list_; }
  // A block's chance to fail per P/E cycle at `cycles` (the hazard h(c) of FailureConfig), and
  // its chance to have failed by then: the integral of h, grown_bad_share (c / R)^(k + 1).
  double hazard(double cycles) const;
  double failed_by(double cycles) const;
  // Whether this program / erase of a block that has been erased `cycles` times reports failure.
  bool program_fails(double cycles);
  bool erase_fails(double cycles);
  const FailureConfig& config() const { return config_; }

 private:
  bool draw(double probability) { return probability > 0 && uniform_(rng_) < probability; }

  FailureConfig config_;
  std::uint32_t pages_per_block_ = 1;
  std::vector<bool> factory_bad_;
  std::vector<BlockId> factory_bad_list_;
  std::uint64_t programs_ = 0, erases_ = 0;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
};

}  // namespace ssd::hw
