// The NAND error model without the channel: the binomial tail behind a codeword's failure, the
// RBER power law, and the seeded decode draws (hw/nand/read_error_model.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "hw/nand/nand_array.h"
#include "hw/nand/read_error_model.h"

using namespace ssd;
using hw::CodewordFailure;

TEST_CASE("a codeword fails with the binomial tail beyond its correction capability", "[reliability]") {
  // n = 10, t = 1, p = 0.1: P(X > 1) = 1 - 0.9^10 - 10 x 0.1 x 0.9^9
  CHECK(CodewordFailure::exact(10, 1, 0.1) == Approx(1 - std::pow(0.9, 10) - std::pow(0.9, 9)).epsilon(1e-12));
  // t = 0: any error fails it
  CHECK(CodewordFailure::exact(100, 0, 1e-3) == Approx(1 - std::pow(1 - 1e-3, 100)).epsilon(1e-12));
  // far beyond the capability the tail is all but certain, summed from the body without cancellation
  CHECK(CodewordFailure::exact(8752, 40, 0.02) == Approx(1.0).epsilon(1e-15));
  // a deep tail stays positive and tiny: P(X > 40) with mean 0.73 (the brief's fresh 2x-nm MLC, 3.3e-56)
  const double deep = CodewordFailure::exact(8752, 40, 8.34e-5);
  CHECK(deep > 1e-57);
  CHECK(deep < 1e-55);
  CHECK(CodewordFailure::exact(8752, 40, 0) == 0);
  CHECK(CodewordFailure::exact(8752, 40, 1) == 1);
}

TEST_CASE("the tabulated codeword failure follows the exact tail", "[reliability]") {
  const CodewordFailure code(8752, 40);
  for (double rber = 1e-6; rber < 0.4; rber *= 1.37) {
    const double exact = CodewordFailure::exact(8752, 40, rber);
    if (exact < 1e-280) continue;
    INFO("rber " << rber);
    CHECK(code.probability(rber) == Approx(exact).epsilon(0.01));
  }
  CHECK(code.probability(0) == 0);
  CHECK(code.probability(1e-12) == 0);  // below the table: computed, and far below any double
}

TEST_CASE("the failure probability is what drawing each codeword's errors gives", "[reliability]") {
  // 4 codewords of 8,752 bits, t = 40, RBER 4.2e-3 (mean 36.8 errors): Monte Carlo with binomial
  // draws against the model's page failure, within four standard errors.
  const std::uint32_t bits = 8752, t = 40, codewords = 4;
  const double rber = 4.2e-3;
  std::mt19937_64 rng(7);
  std::binomial_distribution<std::uint32_t> errors(bits, rber);
  const int trials = 20000;
  int failed = 0;
  for (int i = 0; i < trials; ++i) {
    bool fail = false;
    for (std::uint32_t c = 0; c < codewords; ++c) fail |= errors(rng) > t;
    failed += fail;
  }
  const double p = hw::page_failure(CodewordFailure(bits, t).probability(rber), codewords);
  const double sigma = std::sqrt(p * (1 - p) / trials);
  CHECK(double(failed) / trials == Approx(p).margin(4 * sigma));
  CHECK(hw::page_failure(0.1, 3) == Approx(1 - 0.9 * 0.9 * 0.9));
}

namespace {
hw::ReliabilityConfig test_model() {
  hw::ReliabilityConfig c;
  c.errors = true;
  c.rber = {1e-4, 1e-10, 2, 1e-6, 1, 0.5, 1e-9, 1, 1};
  c.ecc.codeword_bytes = 1024;
  c.ecc.parity_bytes = 70;
  c.ecc.correctable_bits = 40;
  c.ecc.retry_steps = 3;
  c.ecc.retry_factor = 0.5;
  return c;
}
}  // namespace

TEST_CASE("the RBER is the power law in wear, retention and reads, and retries shrink only the shifts", "[reliability]") {
  hw::ReliabilityConfig cfg = test_model();
  const hw::ReadErrorModel m(cfg, 8192, 0);
  const hw::PageCondition page{1000, 4, 500, 0};
  const double fixed = 1e-4 + 1e-10 * 1000 * 1000;           // epsilon + alpha c^k
  const double shift = 1e-6 * 1000 * 2 + 1e-9 * 1000 * 500;  // beta c^m t^n + gamma c^p r^q
  CHECK(m.rber(page, 0) == Approx(fixed + shift));
  CHECK(m.rber(page, 2) == Approx(fixed + shift * 0.25));
  // c is at least one: a fresh block's wear, retention and disturb terms are not zero
  CHECK(m.rber(hw::PageCondition{0, 4, 0, 0}, 0) == Approx(1e-4 + 1e-10 + 1e-6 * 2));
  // the page type scales the whole rate
  cfg.page_type_factor = {1, 3};
  const hw::ReadErrorModel typed(cfg, 8192, 0);
  CHECK(typed.rber(hw::PageCondition{1000, 4, 500, 1}, 0) == Approx(3 * (fixed + shift)));
  CHECK(typed.rber(hw::PageCondition{1000, 4, 500, 2}, 0) == Approx(fixed + shift));
  CHECK(m.codewords_per_page() == 8);  // 8 KiB of 1 KiB codewords
}

TEST_CASE("decode draws are reproducible per seed and stream, and follow the failure probability", "[reliability]") {
  hw::ReliabilityConfig cfg = test_model();
  cfg.rber = {3.9e-3, 0, 0, 0, 0, 0, 0, 0, 0};  // most 8 KiB pages, not all, fail their first decode
  const hw::PageCondition page{1, 0, 0, 0};
  auto outcomes = [&](std::uint64_t seed, std::uint64_t stream) {
    cfg.seed = seed;
    hw::ReadErrorModel m(cfg, 8192, stream);
    std::vector<bool> v;
    for (int i = 0; i < 4000; ++i) v.push_back(m.decodes(m.rber(page, 0), false));
    return v;
  };
  const std::vector<bool> a = outcomes(1, 0);
  CHECK(a == outcomes(1, 0));
  CHECK(a != outcomes(1, 1));
  CHECK(a != outcomes(2, 0));
  const double p = hw::ReadErrorModel(cfg, 8192, 0).failure_probability(page, 0, false);
  REQUIRE(p > 0.2);
  REQUIRE(p < 0.9);
  const double failed = double(std::count(a.begin(), a.end(), false)) / double(a.size());
  CHECK(failed == Approx(p).margin(4 * std::sqrt(p * (1 - p) / double(a.size()))));
}

TEST_CASE("a block counts its reads and its first program's time until its erase", "[reliability][nand]") {
  FlashGeometry g;
  g.blocks_per_plane = 2;
  g.pages_per_block = 4;
  hw::NandArray a(g);
  a.program(0, 1, 1, 5000);
  a.program(1, 2, 2, 9000);  // a later page keeps the block's first time
  a.count_read(0);
  a.count_read(0);
  CHECK(a.programmed_at(0) == 5000);
  CHECK(a.reads_since_erase(0) == 2);
  a.erase(0);
  CHECK(a.reads_since_erase(0) == 0);
  CHECK(a.programmed_at(0) == 0);
}
