#include "fw/precondition/steady_state_fill.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "common/log_structured_model.h"

namespace ssd::fw {

SteadyStateFill::SteadyStateFill(std::uint64_t logical_pages, std::uint64_t physical_pages, std::uint64_t seed)
    : logical_(logical_pages), rng_(seed) {
  if (logical_pages == 0 || physical_pages <= logical_pages)
    throw std::invalid_argument("steady-state fill: needs 0 < logical pages (" + std::to_string(logical_pages) +
                                ") < physical pages (" + std::to_string(physical_pages) + ")");
  u_ = fifo_victim_valid_share(double(physical_pages) / double(logical_pages));
  const double k = (1.0 - u_) / double(logical_pages);
  final_.assign(physical_pages, false);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uint64_t finals = 0;
  for (std::uint64_t i = 0; i < physical_pages; ++i) {
    const double age = double(physical_pages - 1 - i);
    if (unit(rng_) < std::exp(-age * k)) {
      final_[i] = true;
      ++finals;
    }
  }
  if (!final_.back()) {
    final_.back() = true;
    ++finals;
  }
  // Correct the count to exactly U; positions are flipped uniformly, the last one never.
  std::uniform_int_distribution<std::uint64_t> position(0, physical_pages - 2);
  while (finals > logical_pages) {
    const std::uint64_t i = position(rng_);
    if (final_[i]) final_[i] = false, --finals;
  }
  while (finals < logical_pages) {
    const std::uint64_t i = position(rng_);
    if (!final_[i]) final_[i] = true, ++finals;
  }
  order_.resize(logical_pages);
  std::iota(order_.begin(), order_.end(), 0u);
  std::shuffle(order_.begin(), order_.end(), rng_);
}

bool SteadyStateFill::next(Lpn& lpn) {
  if (at_ >= final_.size()) return false;
  if (final_[at_]) {
    lpn = order_[finals_done_++];
  } else {
    // A page whose final write is still to come (there is one: the last position is final).
    std::uniform_int_distribution<std::uint64_t> later(finals_done_, logical_ - 1);
    lpn = order_[later(rng_)];
  }
  ++at_;
  return true;
}

std::string SteadyStateFill::describe() const {
  return "steady-state fill: " + std::to_string(final_.size()) + " page writes over " + std::to_string(logical_) +
         " logical pages";
}

}  // namespace ssd::fw
