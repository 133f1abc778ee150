#include "fw/ftl/hybrid/mnk.h"

#include <algorithm>
#include <limits>

#include "common/narrow_division.h"

namespace ssd::fw {

MnkParams MnkParams::parse(MnkVariant variant, FtlOptions& o, const FlashGeometry& g) {
  static const char* const names[] = {"mnk", "mcsplit"};
  const std::string name = names[static_cast<int>(variant)];
  MnkParams p;
  // MNK stripes over the channels by default, and so does MCSplit: it is MNK's baseline, which the
  // MNK paper runs at the same M (a like-for-like default; M = 1 gives BAST's single blocks).
  p.base = HybridParams::parse(name, o, g, 1, HybridBlockDefault::kChannelStripe);
  const std::uint32_t m = p.base.segment_planes;
  p.gc_free_blocks = static_cast<std::uint32_t>(
      o.integer("gc_free_blocks", p.base.free_blocks + 2, p.base.free_blocks, 1024,
                "below this many free (striped) blocks the least recently used logical group is reclaimed"));
  if (variant != MnkVariant::kMnk) {  // exclusive log blocks in arrival order, no recycling, static modules
    p.n = 1;
    p.k = m;
    p.recycle_threshold = 0;
    p.sequential_threshold_pages = std::numeric_limits<std::uint32_t>::max();
    p.allocation = ModuleAllocation::kStatic;
    o.reject_unread(name);
    return p;
  }
  // Defaults: the paper's (8, 32, 64), i.e. N = 32 and K = 8 M, within what the drive holds.
  p.n = static_cast<std::uint32_t>(o.integer("n", std::min<std::uint32_t>(32, p.base.logical_blocks), 1,
                                             p.base.logical_blocks, "N: logical blocks per logical group"));
  const std::uint32_t most_k = p.base.log_blocks * m;
  p.k = static_cast<std::uint32_t>(
      o.integer("k", std::min<std::uint32_t>(8 * m, most_k), 1, most_k,
                "K: most log blocks (physical, M per striped log block) a logical group may hold"));
  if (p.k % m != 0)
    throw FtlOptionError("ftl.k = " + std::to_string(p.k) + " must be a multiple of M = ftl.segment_planes = " +
                         std::to_string(m) + " (log blocks are allocated M at a time)");
  p.recycle_threshold = o.real("recycle_threshold", 0.1, 0.0, 1.0,
                               "RECYCLE_TH: a reclaimed log block written below this share is reused as a random "
                               "log block instead of erased (0: never, 1: any with unwritten pages)");
  p.sequential_threshold_pages = static_cast<std::uint32_t>(
      o.integer("sequential_threshold_pages", 2, 1, m * g.pages_per_block,
                "requests of more pages are sequential (their own in-order log block)"));
  p.allocation = o.choice_of<ModuleAllocation>(
      "module_allocation", "balanced",
      {{"balanced", ModuleAllocation::kBalanced},
       {"round_robin", ModuleAllocation::kRoundRobin},
       {"static", ModuleAllocation::kStatic}},
      "where log blocks come from: balanced (fewest free blocks for sequential, fewest erases for random), "
      "round_robin, or static (logical group mod module groups, as MCSplit)");
  o.reject_unread(name);
  return p;
}

MnkFtl::MnkFtl(FtlContext& ctx, const MnkParams& params)
    : HybridFtl(ctx, params.base),
      p_(params),
      sequential_(params.base.blocks),
      group_reclaims_(ctx.metrics.counter("group_reclaims")),
      cap_reclaims_(ctx.metrics.counter("group_reclaims_at_k")),
      pressure_reclaims_(ctx.metrics.counter("group_reclaims_for_space")),
      recycled_reuses_(ctx.metrics.counter("recycled_log_block_reuses")),
      static_fallbacks_(ctx.metrics.counter("static_allocation_fallbacks")),
      utilization_(ctx.metrics.histogram("log_block_utilization_at_reclaim_pct")) {
  groups_.resize((params.base.logical_blocks + params.n - 1) / params.n);
  role_.assign(params.base.blocks, kNoRole);
  owner_.assign(params.base.blocks, kNone);
  free_used_.assign(plane_groups(), 0);
  erase_used_.assign(plane_groups(), 0);
  for (std::uint32_t m = 0; m < plane_groups(); ++m) {
    module_erases_.push_back(&ctx.metrics.gauge("module_group_" + std::to_string(m) + "_erases"));
    module_copies_.push_back(&ctx.metrics.counter("module_group_" + std::to_string(m) + "_copies"));
  }
  // Its reclaim starts below gc_free_blocks free blocks: what it needs kept free is that many.
  segment_space()->set_capacity_need(params.base.logical_blocks + params.base.log_blocks + params.gc_free_blocks);
}

void MnkFtl::touch(std::uint32_t group) {
  Group& g = groups_[group];
  if (g.in_lru) lru_.erase(g.lru);
  g.lru = lru_.insert(lru_.end(), group);
  g.in_lru = true;
}

// ---- where a page goes ---------------------------------------------------------------------------

HybridFtl::LogTarget MnkFtl::log_target(const PageWrite& page) {
  const std::uint32_t lbn = lbn_of(page.lpn), group = lbn / p_.n;
  if (reclaiming_ != kNone) {  // a group being reclaimed: its next log block
    if (!groups_[reclaiming_].logs.empty()) return LogTarget{kNone, groups_[reclaiming_].logs.front()};
    reclaiming_ = kNone;
  }
  if (free_blocks() < p_.gc_free_blocks) {
    const LogTarget t = reclaim_oldest();
    if (t.victim != kNone) return t;
  }
  touch(group);
  Group& g = groups_[group];
  const bool large = std::uint64_t(page.request.sectors) * 512 >
                     std::uint64_t(p_.sequential_threshold_pages) * context().hal.geometry().page_bytes;
  if (large) {
    std::uint32_t own = kNone;
    switch (sequential_step(sequential_, page.lpn, false, own)) {
      case SequentialLog::Step::kAppend:
        return LogTarget{own, kNone};
      case SequentialLog::Step::kMergeOwn:
        return LogTarget{kNone, own};
      case SequentialLog::Step::kMisfit:
        return random_target(group);
      case SequentialLog::Step::kOpen:
        break;
    }
    if (g.logs.size() >= p_.stripes_per_group()) {
      ++cap_reclaims_;
      return reclaim(group);
    }
    const std::uint32_t b = open_log(true, group);
    if (b == kNone) return reclaim_oldest();  // the log space (ftl.log_share) or the free pool is used up
    role_[b] = kSequential;
    owner_[b] = group;
    g.logs.push_back(b);
    sequential_.add(b, lbn);
    return LogTarget{b, kNone};
  }
  return random_target(group);
}

HybridFtl::LogTarget MnkFtl::random_target(std::uint32_t group) {
  Group& g = groups_[group];
  if (g.random != kNone && !full(g.random)) return LogTarget{g.random, kNone};
  if (g.logs.size() >= p_.stripes_per_group()) {
    ++cap_reclaims_;
    return reclaim(group);
  }
  std::uint32_t b = kNone;
  if (!recycled_.empty()) {  // a recycled block first (never full: only blocks with room are kept)
    b = recycled_.back();
    recycled_.pop_back();
  }
  if (b != kNone) {
    ++recycled_reuses_;
  } else {
    b = open_log(false, group);
    if (b == kNone) return reclaim_oldest();
  }
  role_[b] = kRandom;
  owner_[b] = group;
  g.logs.push_back(b);
  g.random = b;
  return LogTarget{b, kNone};
}

HybridFtl::LogTarget MnkFtl::reclaim_oldest() {
  for (std::uint32_t oldest : lru_)
    if (!groups_[oldest].logs.empty()) {
      ++pressure_reclaims_;
      return reclaim(oldest);
    }
  // Only recycled blocks hold the log space (and a sequential block cannot use one): erase one.
  if (!recycled_.empty()) {
    erasing_ = recycled_.back();
    return LogTarget{kNone, erasing_};
  }
  return LogTarget{};
}

HybridFtl::LogTarget MnkFtl::reclaim(std::uint32_t group) {
  ++group_reclaims_;
  for (std::uint32_t m = 0; m < plane_groups(); ++m) *module_erases_[m] = double(erases_in_group(m));
  reclaiming_ = group;
  Group& g = groups_[group];
  if (g.in_lru) {
    lru_.erase(g.lru);
    g.in_lru = false;
  }
  for (std::uint32_t b : g.logs) free_used_[plane_group_of(b)] = erase_used_[plane_group_of(b)] = ++clock_;
  if (g.logs.empty()) {  // nothing to merge (a group that lost its blocks to merges of others)
    reclaiming_ = kNone;
    return LogTarget{};
  }
  return LogTarget{kNone, g.logs.front()};
}

std::uint32_t MnkFtl::open_log(bool sequential, std::uint32_t group) {
  const std::uint32_t modules = plane_groups();
  switch (p_.allocation) {
    case ModuleAllocation::kBalanced:
      return open_balanced(sequential);
    case ModuleAllocation::kRoundRobin:
      return open_log_block();
    case ModuleAllocation::kStatic: {
      const std::uint32_t module = group % modules;
      const std::uint32_t b = open_log_block_in(module);
      if (b != kNone || free_blocks_in_group(module) > 0) return b;
      // Data blocks (merge destinations) go round-robin, so the module may hold no free block:
      // then any module's (best effort, counted).
      ++static_fallbacks_;
      return open_log_block();
    }
  }
  return kNone;
}

std::uint32_t MnkFtl::open_balanced(bool sequential) {
  // Sequential: the module group with the fewest free blocks; random: the fewest erases. Ties:
  // the least recently used in that ordering.
  std::uint32_t best = kNone;
  auto key = [&](std::uint32_t m) {
    return sequential ? std::uint64_t(free_blocks_in_group(m)) : erases_in_group(m);
  };
  std::vector<std::uint64_t>& used = sequential ? free_used_ : erase_used_;
  for (std::uint32_t m = 0; m < plane_groups(); ++m) {
    if (free_blocks_in_group(m) == 0) continue;
    if (best == kNone || key(m) < key(best) || (key(m) == key(best) && used[m] < used[best])) best = m;
  }
  if (best == kNone) return kNone;
  const std::uint32_t b = open_log_block_in(best);
  if (b == kNone) return kNone;
  used[best] = ++clock_;
  if (!sequential) free_used_[best] = clock_;  // a random allocation moves it in both orderings
  return b;
}

// ---- reclaim -------------------------------------------------------------------------------------

void MnkFtl::before_merge(std::uint32_t victim) {
  utilization_.record(quotient_of(std::uint64_t(write_pointer(victim)) * 100, pages_per_block()));
}

void MnkFtl::on_log_block_gone(std::uint32_t block) {
  if (role_[block] == kNoRole) return;
  if (owner_[block] != kNone) {
    Group& g = groups_[owner_[block]];
    g.logs.erase(std::remove(g.logs.begin(), g.logs.end(), block), g.logs.end());
    if (g.random == block) g.random = kNone;
  }
  if (role_[block] == kRecycled) recycled_.erase(std::remove(recycled_.begin(), recycled_.end(), block), recycled_.end());
  sequential_.remove(block);
  role_[block] = kNoRole;
  owner_[block] = kNone;
}

bool MnkFtl::recycles(std::uint32_t block) {
  const double written = double(write_pointer(block)) / double(pages_per_block());
  if (block == erasing_) {  // a recycled block given up for the log space
    erasing_ = kNone;
    return false;
  }
  if (full(block) || written >= p_.recycle_threshold) return false;
  role_[block] = kRecycled;
  owner_[block] = kNone;
  recycled_.push_back(block);
  return true;
}

}  // namespace ssd::fw
