#include "fw/ftl/hybrid/fast.h"

#include <algorithm>

namespace ssd::fw {

HybridParams FastFtl::parse(FtlOptions& o, const FlashGeometry& g, bool second_chance, std::uint32_t* sequential) {
  const char* name = second_chance ? "faster" : "fast";
  const auto blocks = static_cast<std::uint32_t>(
      o.integer("sequential_blocks", 1, 1, 64, "sequential log blocks (FAST: 1)"));
  // at least 2 random log blocks beside the sequential ones
  HybridParams p = HybridParams::parse(name, o, g, blocks + 2, HybridBlockDefault::kChannelStripe);
  o.reject_unread(name);
  if (sequential) *sequential = blocks;
  return p;
}

FastFtl::FastFtl(FtlContext& ctx, bool second_chance)
    : HybridFtl(ctx, parse(ctx.options, ctx.hal.geometry(), second_chance, &sequential_cap_)),
      second_chance_(second_chance),
      second_chance_copies_(ctx.metrics.counter("second_chance_copies")) {
  random_cap_ = params().log_blocks - sequential_cap_;
  if (second_chance_) chanced_.assign(std::size_t(params().blocks) * pages_per_block(), false);
}

HybridFtl::LogTarget FastFtl::log_target(const PageWrite& page) {
  const std::uint32_t lbn = lbn_of(page.lpn), off = offset_of(page.lpn);
  for (Sequential& s : sequential_)  // appends in order to its logical block's sequential block
    if (s.lbn == lbn && write_pointer(s.block) == off && !full(s.block)) {
      s.last_write = ++clock_;
      return LogTarget{s.block, kNone};
    }
  if (off == 0) {  // starts a new sequential block
    if (sequential_.size() < sequential_cap_) {
      const std::uint32_t block = open_log_block();
      if (block == kNone) return LogTarget{};
      sequential_.push_back(Sequential{block, lbn, ++clock_});
      return LogTarget{block, kNone};
    }
    const auto lru = std::min_element(sequential_.begin(), sequential_.end(),
                                      [](const Sequential& a, const Sequential& b) { return a.last_write < b.last_write; });
    return LogTarget{kNone, lru->block};
  }
  if (!random_.empty() && !full(random_.back())) return LogTarget{random_.back(), kNone};
  if (random_.size() < random_cap_) {
    const std::uint32_t block = open_log_block();
    if (block == kNone) return LogTarget{};
    random_.push_back(block);
    return LogTarget{block, kNone};
  }
  return LogTarget{kNone, random_.front()};
}

void FastFtl::on_log_block_gone(std::uint32_t block) {
  sequential_.erase(std::remove_if(sequential_.begin(), sequential_.end(),
                                   [block](const Sequential& s) { return s.block == block; }),
                    sequential_.end());
  random_.erase(std::remove(random_.begin(), random_.end(), block), random_.end());
}

void FastFtl::on_log_page(Spn spn, bool copied) {
  if (second_chance_) chanced_[spn] = copied;
}

void FastFtl::before_merge(std::uint32_t victim) {
  if (!second_chance_ || random_.empty() || random_.front() != victim) return;
  const Spn first = first_spn(victim);
  for (std::uint32_t k = 0; k < write_pointer(victim); ++k) {
    const Spn spn = first + k;
    if (!valid(spn) || chanced_[spn]) continue;
    std::uint32_t rear = random_.back();
    if (rear == victim || full(rear)) {
      rear = open_log_block(true);  // the head's erase returns it to the pool
      if (rear == kNone) return;    // no free block: merge the rest
      random_.push_back(rear);
    }
    copy_to_log(spn, rear);
    ++second_chance_copies_;
  }
}

}  // namespace ssd::fw
