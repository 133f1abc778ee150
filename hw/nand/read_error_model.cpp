#include "hw/nand/read_error_model.h"

#include <algorithm>
#include <cmath>

namespace ssd::hw {

namespace {
std::mt19937_64 seeded(std::uint64_t seed, std::uint64_t stream) {
  std::seed_seq seq{std::uint32_t(seed), std::uint32_t(seed >> 32), std::uint32_t(stream), std::uint32_t(stream >> 32)};
  return std::mt19937_64(seq);
}
}  // namespace

ReadErrorModel::ReadErrorModel(const ReliabilityConfig& config, std::uint32_t page_bytes, std::uint64_t stream)
    : cfg_(config),
      codewords_((page_bytes + config.ecc.codeword_bytes - 1) / config.ecc.codeword_bytes),
      hard_(config.ecc.codeword_bits(), config.ecc.correctable_bits),
      rng_(seeded(config.seed, stream)) {
  if (cfg_.ecc.soft_levels > 0) soft_.emplace(cfg_.ecc.codeword_bits(), cfg_.ecc.soft_correctable_bits);
}

double ReadErrorModel::rber(const PageCondition& page, std::uint32_t retry_step) const {
  const RberCoefficients& k = cfg_.rber;
  const double c = std::max(1.0, page.pe_cycles);
  const double t = std::max(0.0, page.retention_days), r = page.block_reads / cfg_.disturb_read_unit;
  const double fixed = k.epsilon + k.alpha * std::pow(c, k.k);
  const double shift = k.beta * std::pow(c, k.m) * std::pow(t, k.n) + k.gamma * std::pow(c, k.p) * std::pow(r, k.q);
  const double factor = cfg_.page_type_factor[page.page_in_block % cfg_.page_type_factor.size()];
  return std::min(0.5, factor * (fixed + shift * std::pow(cfg_.ecc.retry_factor, double(retry_step))));
}

double ReadErrorModel::failure_probability(double rber, bool soft) const {
  const CodewordFailure& code = soft ? *soft_ : hard_;
  return page_failure(code.probability(rber), codewords_);
}

}  // namespace ssd::hw
