#include "hw/nand/block_failures.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ssd::hw {

BlockFailures::BlockFailures(const FailureConfig& config, const FlashGeometry& geometry)
    : config_(config), pages_per_block_(geometry.pages_per_block), rng_(config.seed) {
  if (config.factory_bad_share <= 0 && config.factory_bad_blocks.empty()) return;
  factory_bad_.assign(geometry.total_blocks(), false);
  // Its own stream, so the factory's map does not shift the grown failures' draws.
  std::mt19937_64 factory(config.seed ^ 0x5bd1e995f00dULL);
  std::bernoulli_distribution bad(std::min(1.0, std::max(0.0, config.factory_bad_share)));
  for (BlockId b = 0; b < geometry.total_blocks(); ++b) factory_bad_[b] = config.factory_bad_share > 0 && bad(factory);
  for (std::uint64_t b : config.factory_bad_blocks) {
    if (b >= geometry.total_blocks())
      throw std::invalid_argument("failures.factory_bad_blocks names block " + std::to_string(b) + ", beyond the " +
                                  std::to_string(geometry.total_blocks()) + " blocks of the array");
    factory_bad_[b] = true;
  }
  for (BlockId b = 0; b < geometry.total_blocks(); ++b)
    if (factory_bad_[b]) factory_bad_list_.push_back(b);
}

double BlockFailures::hazard(double cycles) const {
  if (!config_.grown) return 0;
  const double R = config_.rated_pe_cycles, k = config_.wear_exponent;
  return config_.grown_bad_share * (k + 1) / R * std::pow(std::max(0.0, cycles) / R, k);
}

double BlockFailures::failed_by(double cycles) const {
  if (!config_.grown) return 0;
  return std::min(1.0, config_.grown_bad_share *
                           std::pow(std::max(0.0, cycles) / config_.rated_pe_cycles, config_.wear_exponent + 1));
}

bool BlockFailures::program_fails(double cycles) {
  ++programs_;
  if (config_.fail_program && programs_ % config_.fail_program == 0) return true;
  return config_.grown && draw((1 - config_.erase_share) * hazard(cycles) / pages_per_block_);
}

bool BlockFailures::erase_fails(double cycles) {
  ++erases_;
  if (config_.fail_erase && erases_ % config_.fail_erase == 0) return true;
  return config_.grown && draw(config_.erase_share * hazard(cycles));
}

}  // namespace ssd::hw
