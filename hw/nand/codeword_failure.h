// The probability that a codeword fails to decode: that more than `correctable` of its `bits`
// bits are wrong when each is wrong independently with probability `rber` (the binomial tail).
//
// Drawing a binomial error count per codeword and comparing the largest with the capability
// gives exactly the same outcome distribution; the tail is tabulated once over log10(RBER)
// (1e-9 .. 0.5, 200 points a decade) and interpolated in log space, so a read costs a lookup and
// one uniform draw instead of a binomial draw per codeword.
#pragma once

#include <cstdint>
#include <vector>

namespace ssd::hw {

class CodewordFailure {
 public:
  CodewordFailure(std::uint32_t bits, std::uint32_t correctable);

  // P(more than `correctable` errors), interpolated from the table (exact at its points).
  double probability(double rber) const;
  // The binomial tail computed directly (log-space sums, no cancellation on either side).
  static double exact(std::uint32_t bits, std::uint32_t correctable, double rber);

 private:
  static constexpr double kLowest = -9;  // log10 of the smallest RBER tabulated
  static constexpr double kStep = 0.005;
  std::uint32_t bits_, correctable_;
  std::vector<double> log_tail_;  // natural log of the tail at each point (-inf: below 1e-300)
};

// A page of `codewords` codewords fails when any of them does.
double page_failure(double codeword_failure, std::uint32_t codewords);

}  // namespace ssd::hw
