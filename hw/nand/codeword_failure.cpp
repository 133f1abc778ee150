#include "hw/nand/codeword_failure.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ssd::hw {

namespace {
const double kHighest = std::log10(0.5);  // (not constexpr: clang has no constexpr log10)

double log_binomial_pmf(std::uint32_t n, std::uint32_t i, double p) {
  return std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) + i * std::log(p) +
         (n - i) * std::log1p(-p);
}

// log of sum_{i in [from, to]} pmf(i), walking away from `from` (where the terms are largest)
// until they no longer count.
double log_sum_from(std::uint32_t n, double p, std::uint32_t from, std::uint32_t to, bool upward) {
  const double first = log_binomial_pmf(n, from, p);
  double sum = 1, term = 1;  // relative to exp(first)
  const double odds = p / (1 - p);
  for (std::uint32_t i = from; upward ? i < to : i > to;) {
    term *= upward ? double(n - i) / double(i + 1) * odds : double(i) / double(n - i + 1) / odds;
    i = upward ? i + 1 : i - 1;
    sum += term;
    if (term < sum * 1e-18) break;
  }
  return first + std::log(sum);
}
}  // namespace

double CodewordFailure::exact(std::uint32_t bits, std::uint32_t correctable, double rber) {
  if (correctable >= bits || rber <= 0) return 0;
  if (rber >= 1) return 1;
  const double mean = bits * rber;
  if (correctable + 1 >= mean)  // the tail's terms fall from its first: sum it upward
    return std::exp(log_sum_from(bits, rber, correctable + 1, bits, true));
  // The body's terms fall from `correctable` down: the tail is one minus the body.
  return -std::expm1(log_sum_from(bits, rber, correctable, 0, false));
}

CodewordFailure::CodewordFailure(std::uint32_t bits, std::uint32_t correctable)
    : bits_(bits), correctable_(correctable) {
  const auto points = static_cast<std::size_t>(std::ceil((kHighest - kLowest) / kStep)) + 1;
  log_tail_.resize(points);
  for (std::size_t i = 0; i < points; ++i) {
    const double rber = std::pow(10.0, std::min(kHighest, kLowest + double(i) * kStep));
    const double tail = exact(bits, correctable, rber);
    log_tail_[i] = tail > 1e-300 ? std::log(tail) : -std::numeric_limits<double>::infinity();
  }
}

double CodewordFailure::probability(double rber) const {
  if (rber <= 0) return 0;
  const double x = (std::log10(rber) - kLowest) / kStep;
  if (x <= 0) return exact(bits_, correctable_, rber);  // below the table: rare, computed
  if (x >= double(log_tail_.size() - 1)) return std::exp(log_tail_.back());
  const auto i = static_cast<std::size_t>(x);
  const double f = x - double(i), a = log_tail_[i], b = log_tail_[i + 1];
  if (std::isinf(a) || std::isinf(b)) return std::isinf(b) ? 0 : std::exp(b) * f;
  return std::exp(a + (b - a) * f);
}

double page_failure(double codeword_failure, std::uint32_t codewords) {
  if (codeword_failure >= 1) return 1;
  return -std::expm1(double(codewords) * std::log1p(-codeword_failure));
}

}  // namespace ssd::hw
