#include "fw/ftl/hybrid/last.h"

#include <algorithm>
#include <limits>

namespace ssd::fw {

LastParams LastParams::parse(FtlOptions& o, const FlashGeometry& g) {
  LastParams p;
  p.base = HybridParams::parse("last", o, g, 4, HybridBlockDefault::kChannelStripe);  // 1 sequential + 3 random blocks at least
  const std::uint32_t log = p.base.log_blocks;
  p.size_threshold_pages = static_cast<std::uint32_t>(
      o.integer("size_threshold_pages", 2, 1, g.pages_per_block,
                "locality detector: requests of more pages are sequential (the paper's 4 KiB on 2 KiB pages)"));
  p.close_on_misfit = o.choice("sequential_misfit", "random", {"random", "close"},
                               "a large request's page that does not continue its sequential block in order: "
                               "to the random buffer, or close (merge) that block first") == "close";
  p.sequential_blocks = static_cast<std::uint32_t>(
      o.integer("sequential_blocks", std::max<std::uint32_t>(1, log / 16), 1, log - 3,
                "log blocks of the sequential log buffer (the rest are random)"));
  const std::uint64_t random_pages =
      std::uint64_t(log - p.sequential_blocks) * p.base.segment_planes * g.pages_per_block;
  p.initial_k = static_cast<std::uint64_t>(o.integer(
      "initial_k", std::max<std::uint64_t>(1, random_pages / 4), 1, std::int64_t(1) << 40,
      "starting k: update interval (log pages) below which a page is hot"));
  p.hot_age_pages = static_cast<std::uint64_t>(o.integer(
      "hot_age_pages", random_pages, 1, std::int64_t(1) << 40,
      "a hot block not updated for this many log page writes is evicted first"));
  p.adapt_interval_pages = static_cast<std::uint64_t>(o.integer(
      "adapt_interval_pages", std::max<std::uint64_t>(1, random_pages / 2), 1, std::int64_t(1) << 40,
      "random log page writes between adjustments of k and the hot partition"));
  p.low_utilization = o.real("low_utilization", 0.5, 0.0, 1.0, "U_hot below this is low (k halves)");
  o.reject_unread("last");
  return p;
}

LastFtl::LastFtl(FtlContext& ctx, const LastParams& params)
    : HybridFtl(ctx, params.base),
      p_(params),
      random_cap_(params.base.log_blocks - params.sequential_blocks),
      hot_target_(std::max<std::uint32_t>(1, random_cap_ / 2)),
      k_(params.initial_k),
      sequential_(params.base.blocks),
      threshold_bytes_(std::uint64_t(params.size_threshold_pages) * ctx.hal.geometry().page_bytes),
      dead_hot_victims_(ctx.metrics.counter("dead_hot_victims")),
      hot_pages_(ctx.metrics.counter("hot_log_writes")),
      cold_pages_(ctx.metrics.counter("cold_log_writes")),
      sequential_pages_(ctx.metrics.counter("sequential_log_writes")),
      misfit_pages_(ctx.metrics.counter("sequential_misfits")),
      k_gauge_(ctx.metrics.gauge("last_k")),
      hot_blocks_gauge_(ctx.metrics.gauge("last_hot_partition_blocks")) {
  role_.assign(params.base.blocks, kNoRole);
  updated_at_.assign(params.base.blocks, 0);
  written_at_.assign(std::size_t(params.base.blocks) * pages_per_block(), 0);
  next_adapt_ = p_.adapt_interval_pages;
  k_gauge_ = double(k_);
  hot_blocks_gauge_ = hot_target_;
}

std::uint32_t LastFtl::count(Role role) const {
  return static_cast<std::uint32_t>(
      std::count_if(members_.begin(), members_.end(), [&](std::uint32_t b) { return role_[b] == role; }));
}

HybridFtl::LogTarget LastFtl::log_target(const PageWrite& page) {
  if (std::uint64_t(page.request.sectors) * 512 > threshold_bytes_) return sequential_target(page.lpn);
  return random_target(page.lpn);
}

HybridFtl::LogTarget LastFtl::sequential_target(Lpn lpn) {
  const std::uint32_t lbn = lbn_of(lpn);
  std::uint32_t own = kNone;
  switch (sequential_step(sequential_, lpn, p_.close_on_misfit, own)) {
    case SequentialLog::Step::kAppend:
      return LogTarget{own, kNone};
    case SequentialLog::Step::kMergeOwn:  // restarts (or misfit, close): merge it
      return LogTarget{kNone, own};
    case SequentialLog::Step::kMisfit: {
      const LogTarget t = random_target(lpn);
      if (t.block != kNone) ++misfit_pages_;  // programmed there at once
      return t;
    }
    case SequentialLog::Step::kOpen:
      break;
  }
  if (sequential_.size() < p_.sequential_blocks) {
    const std::uint32_t b = open_log_block();
    if (b == kNone) return LogTarget{};
    join(b, kSequential);
    sequential_.add(b, lbn);
    return LogTarget{b, kNone};
  }
  return LogTarget{kNone, sequential_.victim([this](std::uint32_t b) { return switchable(b); })};
}

HybridFtl::LogTarget LastFtl::random_target(Lpn lpn) {
  const Spn previous = log_copy(lpn);
  const bool hot = previous != kNoSpn &&
                   (role_[block_of(previous)] == kHot || log_clock_ - written_at_[previous] < k_);
  const Role role = hot ? kHot : kCold;
  std::uint32_t& current = hot ? current_hot_ : current_cold_;
  if (current != kNone && !full(current)) return LogTarget{current, kNone};
  if (count(kHot) + count(kCold) < random_cap_) {
    const std::uint32_t b = open_log_block();
    if (b == kNone) return LogTarget{};
    join(b, role);
    current = b;
    return LogTarget{b, kNone};
  }
  return LogTarget{kNone, random_victim()};
}

std::uint32_t LastFtl::random_victim() {
  // Step 1: the victim partition. Step 2: the victim block in it (section 3.4.3).
  context().hal.charge_cycles(std::uint64_t(context().costs.gc_scan_per_block) * random_cap_, FirmwareWork::GcScan);
  std::uint32_t dead = kNone, stale = kNone, oldest_hot = kNone, hot = 0;
  for (std::uint32_t b : members_) {
    if (role_[b] != kHot) continue;
    ++hot;
    if (valid_pages(b) == 0 && write_pointer(b) > 0 && dead == kNone) dead = b;
    if (b == current_hot_ && !full(b)) continue;
    if (log_clock_ - updated_at_[b] >= p_.hot_age_pages && stale == kNone) stale = b;
    if (oldest_hot == kNone || updated_at_[b] < updated_at_[oldest_hot]) oldest_hot = b;
  }
  std::uint32_t victim = kNone;
  if (dead != kNone) {
    victim = dead;
    ++dead_hot_victims_;
    hot_target_ = std::max<std::uint32_t>(1, hot_target_ - 1);  // enough dead blocks: cold gets the block
  } else {
    if (stale != kNone)
      victim = stale;
    else if (hot > hot_target_ && oldest_hot != kNone)
      victim = oldest_hot;
    else {  // the cold block with the lowest merge cost (fewest associated data blocks)
      std::uint32_t best = std::numeric_limits<std::uint32_t>::max();
      for (std::uint32_t b : members_) {
        if (role_[b] != kCold || (b == current_cold_ && !full(b))) continue;
        const std::uint32_t cost = associativity(b);
        context().hal.charge_cycles(context().costs.gc_scan_per_block, FirmwareWork::GcScan);
        if (cost < best) {
          best = cost;
          victim = b;
        }
      }
      if (victim == kNone) victim = oldest_hot != kNone ? oldest_hot : current_cold_;
    }
    hot_target_ = std::min<std::uint32_t>(random_cap_ - 1, hot_target_ + 1);  // the hot partition gets it
  }
  if (victim == kNone) victim = current_hot_;
  hot_blocks_gauge_ = hot_target_;
  return victim;
}

void LastFtl::join(std::uint32_t block, Role role) {
  role_[block] = role;
  members_.insert(std::lower_bound(members_.begin(), members_.end(), block), block);  // block order, as ties break
}

void LastFtl::on_log_block_gone(std::uint32_t block) {
  if (role_[block] == kNoRole) return;
  members_.erase(std::find(members_.begin(), members_.end(), block));
  role_[block] = kNoRole;
  sequential_.remove(block);
  if (current_hot_ == block) current_hot_ = kNone;
  if (current_cold_ == block) current_cold_ = kNone;
}

void LastFtl::on_log_page(Spn spn, bool copied) {
  (void)copied;
  const std::uint32_t block = block_of(spn);
  written_at_[spn] = ++log_clock_;
  updated_at_[block] = log_clock_;
  switch (role_[block]) {
    case kSequential:
      sequential_.written(block, log_clock_);
      ++sequential_pages_;
      break;
    case kHot:
      ++hot_pages_;
      break;
    default:
      ++cold_pages_;
  }
  if (role_[block] != kSequential && log_clock_ >= next_adapt_) {
    next_adapt_ = log_clock_ + p_.adapt_interval_pages;
    adapt();
  }
}

void LastFtl::adapt() {
  std::uint64_t hot_valid = 0, hot_written = 0, cold_valid = 0, cold_written = 0;
  std::uint32_t dead = 0;
  for (std::uint32_t b : members_) {
    if (role_[b] == kHot) {
      hot_valid += valid_pages(b);
      hot_written += write_pointer(b);
      dead += valid_pages(b) == 0 && write_pointer(b) > 0;
    } else if (role_[b] == kCold) {
      cold_valid += valid_pages(b);
      cold_written += write_pointer(b);
    }
  }
  const double u_hot = hot_written ? double(hot_valid) / hot_written : 0.0;
  const double u_cold = cold_written ? double(cold_valid) / cold_written : 0.0;
  const std::uint64_t random_pages = std::uint64_t(random_cap_) * pages_per_block();
  if (dead > last_dead_) {
    hot_target_ = std::max<std::uint32_t>(1, hot_target_ - 1);  // too many blocks for hot data
  } else if (dead < last_dead_ && u_hot > last_u_hot_) {
    hot_target_ = std::min<std::uint32_t>(random_cap_ - 1, hot_target_ + 1);  // hot data lacks room
  } else {
    if (dead < last_dead_ && u_hot < p_.low_utilization) k_ = std::max<std::uint64_t>(1, k_ / 2);  // cold pages in hot
    if (u_cold < last_u_cold_) k_ = std::min<std::uint64_t>(random_pages, k_ * 2);  // hot pages in cold
  }
  last_dead_ = dead;
  last_u_hot_ = u_hot;
  last_u_cold_ = u_cold;
  k_gauge_ = double(k_);
  hot_blocks_gauge_ = hot_target_;
}

}  // namespace ssd::fw
