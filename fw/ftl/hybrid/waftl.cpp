#include "fw/ftl/hybrid/waftl.h"

#include <algorithm>

namespace ssd::fw {

WaftlParams WaftlParams::parse(FtlOptions& o, const FlashGeometry& g) {
  WaftlParams p;
  // ftl.log_share sizes the buffer zone (the paper's 3%)
  p.base = HybridParams::parse("waftl", o, g, 2, HybridBlockDefault::kChannelStripe);
  p.buffer_blocks = p.base.log_blocks;
  const std::int64_t room = std::int64_t(p.base.blocks) - p.base.logical_blocks - p.buffer_blocks - p.base.free_blocks;
  if (room < 1)
    throw FtlOptionError("waftl: no block is left for page-mapped data blocks after " +
                         std::to_string(p.base.logical_blocks) + " logical blocks, a buffer zone of " +
                         std::to_string(p.buffer_blocks) + " (ftl.log_share) and " + std::to_string(p.base.free_blocks) +
                         " free (ftl.free_blocks): raise ftl.overprovisioning or lower ftl.log_share");
  p.pmb_blocks = static_cast<std::uint32_t>(
      o.integer("pmb_blocks", room, 1, room,
                "most page-mapped data blocks (PMB); default: the over-provisioning beyond the buffer zone and the "
                "free pool"));
  p.hot_writes = static_cast<std::uint32_t>(
      o.integer("hot_writes", 2, 1, 255,
                "recent writes (halved at each migration) that make a buffered page frequently accessed: it "
                "migrates to a PMB, the others to their BMBs"));
  p.base.log_blocks += p.pmb_blocks;
  p.base.log_blocks_needed = p.buffer_blocks + 1;  // the PMB count is a cap: one will do
  o.reject_unread("waftl");
  return p;
}

WaftlFtl::WaftlFtl(FtlContext& ctx, const WaftlParams& params)
    : HybridFtl(ctx, params.base),
      p_(params),
      migrations_(ctx.metrics.counter("migrations")),
      to_pmb_(ctx.metrics.counter("pages_to_pmb")),
      pmb_reclaims_(ctx.metrics.counter("pmb_reclaims")),
      hot_without_room_(ctx.metrics.counter("hot_pages_without_pmb_room")),
      buffer_gauge_(ctx.metrics.gauge("buffer_zone_blocks")),
      pmb_gauge_(ctx.metrics.gauge("pmb_blocks")) {
  role_.assign(params.base.blocks, kNoRole);
  writes_.assign(params.base.logical_pages, 0);
  epoch_of_.assign(params.base.logical_pages, 0);
  counter_table_ = ctx.hal.place_table("waftl_access_counts", params.base.logical_pages, MemoryKind::Dram);
  buffer_trace_ = ctx.hal.trace_state("ftl.buffer_zone_blocks", 32);
  pmb_trace_ = ctx.hal.trace_state("ftl.pmb_blocks", 32);
  publish();
}

void WaftlFtl::publish() {
  buffer_gauge_ = double(buffer_.size());
  pmb_gauge_ = double(pmb_.size());
  context().hal.note_state(buffer_trace_, buffer_.size());
  context().hal.note_state(pmb_trace_, pmb_.size());
}

// ---- access frequency ---------------------------------------------------------------------------

std::uint32_t WaftlFtl::recent_writes(Lpn lpn) const {
  const std::uint32_t age = std::min<std::uint32_t>(8, epoch_ - epoch_of_[lpn]);
  return writes_[lpn] >> age;  // halved once per migration since it was last counted
}

void WaftlFtl::on_host_write(const PageWrite& page) {
  context().hal.touch(counter_table_, page.lpn, 1, Access::Write);
  writes_[page.lpn] = static_cast<std::uint8_t>(std::min<std::uint32_t>(255, recent_writes(page.lpn) + 1));
  epoch_of_[page.lpn] = static_cast<std::uint16_t>(epoch_);
}

void WaftlFtl::on_sequential_fill() {
  for (Lpn lpn = 0; lpn < writes_.size(); ++lpn) {
    writes_[lpn] = static_cast<std::uint8_t>(std::min<std::uint32_t>(255, recent_writes(lpn) + 1));
    epoch_of_[lpn] = static_cast<std::uint16_t>(epoch_);
  }
}

// ---- where a page goes --------------------------------------------------------------------------

HybridFtl::LogTarget WaftlFtl::log_target(const PageWrite& page) {
  (void)page;
  if (migrating_) {  // flushing: every buffer block in fill order
    if (!buffer_.empty()) return LogTarget{kNone, buffer_.front()};
    migrating_ = false;
    // Counts age once the migration is over (its merges still see them as they were). 16-bit
    // stamps: at their limit every count is decayed to now and the stamps restart from 0.
    if (++epoch_ == 0xffff) {
      for (Lpn lpn = 0; lpn < writes_.size(); ++lpn) writes_[lpn] = static_cast<std::uint8_t>(recent_writes(lpn));
      std::fill(epoch_of_.begin(), epoch_of_.end(), 0);
      epoch_ = 0;
    }
    publish();
  }
  if (!buffer_.empty() && !full(buffer_.back())) return LogTarget{buffer_.back(), kNone};
  if (buffer_.size() < p_.buffer_blocks) {
    const std::uint32_t block = open_log_block();
    if (block == kNone) return LogTarget{};
    role_[block] = kBuffer;
    buffer_.push_back(block);
    publish();
    return LogTarget{block, kNone};
  }
  // The buffer zone is full: make room in the PMBs for its hot pages, then flush all of it.
  if (hot_buffered_pages() > pmb_room()) {
    const std::uint32_t victim = pmb_reclaim_victim();
    if (victim != kNone) {
      ++pmb_reclaims_;
      return LogTarget{kNone, victim};
    }
  }
  move_hot_pages_to_pmb();
  ++migrations_;
  migrating_ = true;
  return LogTarget{kNone, buffer_.front()};
}

std::uint32_t WaftlFtl::hot_buffered_pages() const {
  std::uint32_t hot = 0;
  for (const std::uint32_t block : buffer_) {
    const Spn first = first_spn(block);
    for (std::uint32_t k = 0; k < write_pointer(block); ++k)
      if (valid(first + k) && recent_writes(log_page_lpn(first + k)) >= p_.hot_writes) ++hot;
  }
  return hot;
}

std::uint32_t WaftlFtl::pmb_room() const {
  const std::uint32_t open = pmb_.empty() || full(pmb_.back()) ? 0 : pages_per_block() - write_pointer(pmb_.back());
  return open + (p_.pmb_blocks - std::uint32_t(pmb_.size())) * pages_per_block();
}

std::uint32_t WaftlFtl::pmb_reclaim_victim() const {
  std::uint32_t best = kNone;
  for (const std::uint32_t block : pmb_)
    if (full(block) && valid_pages(block) < pages_per_block() &&
        (best == kNone || valid_pages(block) < valid_pages(best)))
      best = block;
  return best;
}

void WaftlFtl::move_hot_pages_to_pmb() {
  for (const std::uint32_t block : buffer_) {
    const Spn first = first_spn(block);
    for (std::uint32_t k = 0; k < write_pointer(block); ++k) {
      const Spn spn = first + k;
      if (!valid(spn) || recent_writes(log_page_lpn(spn)) < p_.hot_writes) continue;
      if (pmb_.empty() || full(pmb_.back())) {
        const std::uint32_t fresh = pmb_.size() < p_.pmb_blocks ? open_log_block() : kNone;
        if (fresh == kNone) {
          ++hot_without_room_;  // merged into its BMB with the cold pages
          continue;
        }
        role_[fresh] = kPmb;
        pmb_.push_back(fresh);
      }
      copy_to_log(spn, pmb_.back());
      ++to_pmb_;
    }
  }
  publish();
}

void WaftlFtl::on_log_block_gone(std::uint32_t block) {
  role_[block] = kNoRole;
  buffer_.erase(std::remove(buffer_.begin(), buffer_.end(), block), buffer_.end());
  pmb_.erase(std::remove(pmb_.begin(), pmb_.end(), block), pmb_.end());
  publish();
}

}  // namespace ssd::fw
