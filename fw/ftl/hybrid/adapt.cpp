#include "fw/ftl/hybrid/adapt.h"

#include <algorithm>

#include "common/narrow_division.h"

namespace ssd::fw {

AdaptParams AdaptParams::parse(FtlOptions& o, const FlashGeometry& g) {
  AdaptParams p;
  p.base = HybridParams::parse("adapt", o, g, 3, HybridBlockDefault::kChannelStripe);  // 1 sequential + 2 random
  const std::uint32_t log = p.base.log_blocks;
  const std::uint32_t block_pages = p.base.segment_planes * g.pages_per_block;
  p.max_sequential_blocks = static_cast<std::uint32_t>(
      o.integer("max_sequential_blocks", std::max<std::uint32_t>(1, log / 16), 1, log - 2,
                "upper bound of the sequential area, in log blocks (the paper's 1/16 of the log)"));
  p.adaptive_partition = o.flag("adaptive_partition", true,
                                "move log blocks between the areas every interval (false: one sequential block, ADAPT-sw)");
  p.adaptive_threshold = o.flag("adaptive_threshold", true,
                                "switch the sequential threshold between its bounds when delta < 0.1 (false: ADAPT-2/-32)");
  p.threshold_low = static_cast<std::uint32_t>(
      o.integer("threshold_low_pages", 2, 1, block_pages, "lower bound of the sequential threshold (pages)"));
  p.threshold_high = static_cast<std::uint32_t>(o.integer("threshold_high_pages", std::min<std::uint32_t>(32, block_pages),
                                                          p.threshold_low, block_pages,
                                                          "upper bound of the sequential threshold (pages)"));
  p.initial_threshold = static_cast<std::uint32_t>(
      o.integer("sequential_threshold_pages", p.threshold_low, 1, block_pages,
                "requests of more pages are sequential: the starting threshold (the fixed one without adaptation)"));
  p.interval_writes = static_cast<std::uint32_t>(
      o.integer("interval_writes", 4000, 1, 100000000, "host write requests between adjustments (INTERVAL)"));
  const auto hat_bytes = o.integer("hat_bytes", 1024, 6, 1 << 24,
                                   "Historical Access Table size; 6 bytes per recent write request");
  p.hat_entries = static_cast<std::uint32_t>(hat_bytes / 6);
  p.hat_covers_range = o.choice("hat_match", "covered", {"covered", "base"},
                                "a page hits the HAT when a recent request covered it, or only when it was "
                                "a request's first page") == "covered";
  p.hat_key_has_size = o.choice("hat_key", "base_and_size", {"base_and_size", "base"},
                                "a write request moves its HAT entry to the rear when one has its base address and "
                                "size (the paper's), or its base address alone (base)") == "base_and_size";
  p.misfits_count_in_delta =
      o.choice("misfit_delta", "allocation", {"allocation", "ignore"},
               "a request classified sequential whose pages could not continue a sequential block counts in delta "
               "as a sequential allocation without switch or partial merge (allocation), or not at all (ignore)") ==
      "allocation";
  p.idle_interval_lowers =
      o.choice("idle_interval", "lower", {"lower", "keep"},
               "an interval without a sequential allocation lowers a threshold at its upper bound (lower), or "
               "changes nothing (keep)") == "lower";
  p.tau = static_cast<std::uint32_t>(o.integer("aggregate_threshold_pages", block_pages * 7 / 8, 1, block_pages,
                                               "tau: a head block with this many valid pages moves whole to the rear "
                                               "when the next one has fewer (the paper's 56 of 64)"));
  p.early_reuse = o.flag("early_reuse", true, "reclaim random log blocks with no valid page first (false: ADAPT-nd)");
  o.reject_unread("adapt");
  return p;
}

AdaptFtl::AdaptFtl(FtlContext& ctx, const AdaptParams& params)
    : HybridFtl(ctx, params.base),
      p_(params),
      sequential_cap_(1),
      random_cap_(params.base.log_blocks - 1),
      threshold_(params.initial_threshold),
      threshold_bytes_(std::uint64_t(params.initial_threshold) * ctx.hal.geometry().page_bytes),
      sequential_(params.base.blocks),
      aggregated_moves_(ctx.metrics.counter("aggregated_moves")),
      second_chance_copies_(ctx.metrics.counter("second_chance_copies")),
      second_chance_rewrites_(ctx.metrics.counter("second_chance_rewrites")),
      hat_lookups_(ctx.metrics.counter("hat_lookups")),
      hat_hits_(ctx.metrics.counter("hat_hits")),
      early_reuses_(ctx.metrics.counter("early_reuses")),
      to_sequential_(ctx.metrics.counter("blocks_to_sequential_area")),
      to_random_(ctx.metrics.counter("blocks_to_random_area")),
      threshold_changes_(ctx.metrics.counter("threshold_changes")),
      sequential_log_writes_(ctx.metrics.counter("sequential_log_writes")),
      misfits_(ctx.metrics.counter("sequential_misfits")),
      misfit_requests_(ctx.metrics.counter("sequential_misfit_requests")),
      sequential_allocations_(ctx.metrics.counter("sequential_allocations")),
      switch_partial_merges_(ctx.metrics.counter("sequential_switch_partial_merges")),
      sequential_gauge_(ctx.metrics.gauge("sequential_area_blocks")),
      random_gauge_(ctx.metrics.gauge("random_area_blocks")),
      threshold_gauge_(ctx.metrics.gauge("sequential_threshold_pages")),
      hit_rate_gauge_(ctx.metrics.gauge("prediction_hit_rate")),
      precision_gauge_(ctx.metrics.gauge("second_chance_precision")),
      delta_gauge_(ctx.metrics.gauge("last_interval_delta")),
      hat_used_gauge_(ctx.metrics.gauge("hat_entries_used")) {
  role_.assign(params.base.blocks, kNoRole);
  chanced_.assign(std::size_t(params.base.blocks) * pages_per_block(), false);
  hat_table_ = ctx.hal.place_table("adapt_hat", std::uint64_t(params.hat_entries) * 6, MemoryKind::Sram);
  valid_count_table_ = ctx.hal.place_table("log_valid_counts", params.base.blocks, MemoryKind::Sram);
  sequential_trace_ = ctx.hal.trace_state("ftl.sequential_area_blocks", 32);
  random_trace_ = ctx.hal.trace_state("ftl.random_area_blocks", 32);
  threshold_trace_ = ctx.hal.trace_state("ftl.sequential_threshold_pages", 32);
  publish_partition();
}

void AdaptFtl::publish_partition() {
  sequential_gauge_ = sequential_cap_;
  random_gauge_ = random_cap_;
  threshold_gauge_ = threshold_;
  Hal& hal = context().hal;
  hal.note_state(sequential_trace_, sequential_cap_);
  hal.note_state(random_trace_, random_cap_);
  hal.note_state(threshold_trace_, threshold_);
}

// ---- request history (HAT) and the interval ----------------------------------------------------

void AdaptFtl::on_host_write(const PageWrite& page) {
  if (page.lpn != page.request.first_lpn) return;  // once per request, at its first page
  const std::uint32_t page_bytes = context().hal.geometry().page_bytes;
  const auto pages = static_cast<std::uint32_t>(
      std::max<std::uint64_t>(1, quotient_of(std::uint64_t(page.request.sectors) * 512 + page_bytes - 1, page_bytes)));
  // The interval ends when the request after its last arrives, so that its last request is
  // placed under the threshold it was counted with.
  if (writes_in_interval_ >= p_.interval_writes) end_of_interval();
  ++writes_in_interval_;
  record_request(page.lpn, pages);
}

// A sequential fill writes every page in place, one page per request: the intervals it ends see
// no sequential allocation (delta unknown) and no merge (phi 0), so they move no block, and the
// threshold comes down if it is above its lower bound (idle_interval=lower) and else stays; the
// HAT, a FIFO here (no base repeats), keeps the last hat_entries requests.
void AdaptFtl::on_sequential_fill() {
  const Lpn pages = logical_pages();
  for (Lpn lpn = pages > p_.hat_entries ? pages - p_.hat_entries : 0; lpn < pages; ++lpn) record_request(lpn, 1);
  if (pages == 0) return;
  writes_in_interval_ = static_cast<std::uint32_t>((pages - 1) % p_.interval_writes + 1);
  if (pages <= p_.interval_writes) return;
  // The first interval the fill ends is idle: a threshold above its lower bound comes down.
  if (p_.adaptive_threshold && p_.idle_interval_lowers && threshold_ > p_.threshold_low) flip_threshold();
  publish_partition();
}

std::uint64_t AdaptFtl::hat_key(const HatEntry& e) const {
  return p_.hat_key_has_size ? (std::uint64_t(e.base) << 16) | e.pages : std::uint64_t(e.base);
}

void AdaptFtl::record_request(Lpn base, std::uint32_t pages) {
  context().hal.charge_cycles(context().costs.map_update, FirmwareWork::MapUpdate);
  context().hal.touch(hat_table_, std::uint64_t(remainder_of(base, p_.hat_entries)) * 6, 6, Access::Write);
  auto cover = [&](const HatEntry& e, int delta) {
    if (!p_.hat_covers_range) return;
    for (std::uint32_t k = 0; k < e.pages; ++k) {
      auto it = hat_cover_.find(e.base + k);
      if (delta > 0) {
        ++hat_cover_[e.base + k];
      } else if (it != hat_cover_.end() && --it->second == 0) {
        hat_cover_.erase(it);
      }
    }
  };
  auto drop = [&](std::deque<HatEntry>::iterator it) {
    cover(*it, -1);
    const auto key = hat_keys_.find(hat_key(*it));
    if (--key->second == 0) hat_keys_.erase(key);
    const auto b = hat_bases_.find(it->base);
    if (--b->second == 0) hat_bases_.erase(b);
    hat_.erase(it);
  };
  const HatEntry entry{base, std::min<std::uint32_t>(pages, 0xffff)};
  if (hat_keys_.count(hat_key(entry))) {  // cached: to the rear (hat_key=base: with the newest size)
    drop(std::find_if(hat_.begin(), hat_.end(), [&](const HatEntry& e) { return hat_key(e) == hat_key(entry); }));
  } else if (hat_.size() >= p_.hat_entries) {  // full: the least recent request leaves
    drop(hat_.begin());
  }
  hat_.push_back(entry);
  ++hat_keys_[hat_key(entry)];
  ++hat_bases_[base];
  cover(entry, +1);
  hat_used_gauge_ = double(hat_.size());
}

bool AdaptFtl::hat_hit(Lpn lpn) {
  ++hat_lookups_;
  context().hal.touch(hat_table_, (std::uint64_t(lpn) % p_.hat_entries) * 6, 6, Access::Read);
  const bool hit = p_.hat_covers_range ? hat_cover_.count(lpn) != 0 : hat_bases_.count(lpn) != 0;
  if (hit) ++hat_hits_;
  hit_rate_gauge_ = double(hat_hits_) / double(hat_lookups_);
  return hit;
}

void AdaptFtl::end_of_interval() {
  writes_in_interval_ = 0;
  const double half_block = pages_per_block() / 2.0;
  const double phi = full_merges_ ? double(merged_pages_) / double(full_merges_) : 0.0;
  // Algorithm 1's counts over the interval: the totals since its start.
  const std::uint64_t allocations = sequential_allocations_ - interval_start_.allocations;
  const std::uint64_t switch_partial = switch_partial_merges_ - interval_start_.switch_partial;
  const bool known_delta = allocations > 0;
  const double delta = known_delta ? double(switch_partial) / double(allocations) : 0.0;
  if (known_delta) delta_gauge_ = delta;
  if (p_.adaptive_partition) {  // Algorithm 1: delta first, then phi; one block per interval
    if (known_delta && delta > p_.grow_delta && sequential_cap_ < p_.max_sequential_blocks && random_cap_ > 2) {
      ++sequential_cap_;
      --random_cap_;
      ++to_sequential_;
    } else if (phi >= half_block && sequential_cap_ > 1) {
      --sequential_cap_;
      ++random_cap_;
      ++to_random_;
    }
  }
  const bool idle_at_top = !known_delta && p_.idle_interval_lowers && threshold_ > p_.threshold_low;
  if (p_.adaptive_threshold && ((known_delta && delta < p_.threshold_delta) || idle_at_top)) flip_threshold();
  interval_start_ = {sequential_allocations_, switch_partial_merges_};
  full_merges_ = merged_pages_ = 0;
  publish_partition();
}

// The threshold jumps between its bounds: up from the lower one, else down (section III-B).
void AdaptFtl::flip_threshold() {
  threshold_ = threshold_ <= p_.threshold_low ? p_.threshold_high : p_.threshold_low;
  threshold_bytes_ = std::uint64_t(threshold_) * context().hal.geometry().page_bytes;
  ++threshold_changes_;
}

// Our measure: second-chance copies the host rewrote while they were still in the log.
void AdaptFtl::publish_precision() {
  precision_gauge_ = second_chance_copies_ ? double(second_chance_rewrites_) / double(second_chance_copies_) : 0.0;
}

// ---- where a page goes ------------------------------------------------------------------------------

HybridFtl::LogTarget AdaptFtl::log_target(const PageWrite& page) {
  if (std::uint64_t(page.request.sectors) * 512 > threshold_bytes_) return sequential_target(page);
  return random_target(page.lpn);
}

// A request classified sequential with a page the sequential area could not take: once per
// request, a sequential allocation that ended without a switch or partial merge (misfit_delta).
void AdaptFtl::count_misfit(const PageWrite& page) {
  const RequestKey key{page.request.first_lpn, page.request.sectors, page.request.issuer};
  if (key == last_misfit_request_) return;
  last_misfit_request_ = key;
  ++misfit_requests_;
  if (p_.misfits_count_in_delta) ++sequential_allocations_;
}

HybridFtl::LogTarget AdaptFtl::sequential_target(const PageWrite& page) {
  const Lpn lpn = page.lpn;
  const std::uint32_t lbn = lbn_of(lpn);
  std::uint32_t own = kNone;
  switch (sequential_step(sequential_, lpn, false, own)) {
    case SequentialLog::Step::kAppend:
      return LogTarget{own, kNone};
    case SequentialLog::Step::kMergeOwn:
      return LogTarget{kNone, own};
    case SequentialLog::Step::kMisfit: {
      const LogTarget t = random_target(lpn);
      if (t.block != kNone) {
        ++misfits_;
        count_misfit(page);
      }
      return t;
    }
    case SequentialLog::Step::kOpen:
      break;
  }
  if (sequential_.size() >= sequential_cap_) return LogTarget{kNone, sequential_.victim([this](std::uint32_t b) { return switchable(b); })};
  const std::uint32_t b = open_log_block();
  if (b == kNone) {  // the log is at its cap: the random area still holds a block it gave up
    if (random_.size() > random_cap_) return LogTarget{kNone, random_.front()};
    return LogTarget{};
  }
  role_[b] = kSequential;
  sequential_.add(b, lbn);
  ++sequential_allocations_;
  return LogTarget{b, kNone};
}

std::uint32_t AdaptFtl::dead_random_block() {
  while (!dead_.empty()) {
    const std::uint32_t b = dead_.back();
    if (role_[b] == kRandom && valid_pages(b) == 0 && full(b)) return b;
    dead_.pop_back();  // merged, reused or rewritten since
  }
  return kNone;
}

HybridFtl::LogTarget AdaptFtl::random_target(Lpn lpn) {
  (void)lpn;
  if (!random_.empty() && !full(random_.back())) return LogTarget{random_.back(), kNone};
  if (p_.early_reuse) {
    const std::uint32_t dead = dead_random_block();
    if (dead != kNone) {
      if (dead != random_.front()) ++early_reuses_;
      return LogTarget{kNone, dead};
    }
  }
  if (random_.size() < random_cap_) {
    const std::uint32_t b = open_log_block();
    if (b == kNone) {  // the log is at its cap: the sequential area still holds a block it gave up
      if (sequential_.size() > sequential_cap_) return LogTarget{kNone, sequential_.victim([this](std::uint32_t b) { return switchable(b); })};
      return LogTarget{};
    }
    role_[b] = kRandom;
    random_.push_back(b);
    return LogTarget{b, kNone};
  }
  // Algorithm 2: the head L0 moves whole to the rear when it is nearly all valid and L1 is not.
  const std::uint32_t head = random_.front();
  if (random_.size() >= 2) {
    const std::uint32_t next = random_[1];
    context().hal.touch(valid_count_table_, head, 1, Access::Read);
    context().hal.touch(valid_count_table_, next, 1, Access::Read);
    if (valid_pages(head) >= p_.tau && valid_pages(next) < p_.tau) {
      random_.pop_front();
      random_.push_back(head);
      ++aggregated_moves_;
      return LogTarget{kNone, next};
    }
  }
  return LogTarget{kNone, head};
}

// ---- merges ---------------------------------------------------------------------------------------

void AdaptFtl::before_merge(std::uint32_t victim) {
  if (role_[victim] == kSequential) {
    if (merges_as_prefix(victim)) ++switch_partial_merges_;
    return;
  }
  if (role_[victim] != kRandom || valid_pages(victim) == 0) return;
  // Predictive transfer (section III-C): recently written pages get a second chance at the rear.
  const Spn first = first_spn(victim);
  std::vector<Spn> chance;
  for (std::uint32_t k = 0; k < write_pointer(victim); ++k)
    if (valid(first + k) && hat_hit(log_page_lpn(first + k))) chance.push_back(first + k);
  if (chance.size() == write_pointer(victim)) chance.clear();  // moving all would free nothing
  std::uint32_t merged = valid_pages(victim);
  for (Spn spn : chance) {
    std::uint32_t rear = random_.back();
    if (rear == victim || full(rear)) {
      rear = open_log_block(true);  // the victim's erase gives it back
      if (rear == kNone) break;     // no free block: merge the rest
      role_[rear] = kRandom;
      random_.push_back(rear);
    }
    copy_to_log(spn, rear);
    ++second_chance_copies_;
    publish_precision();
    --merged;
  }
  if (merged > 0) {
    ++full_merges_;
    merged_pages_ += merged;
  }
}

void AdaptFtl::on_log_block_gone(std::uint32_t block) {
  if (role_[block] == kSequential)
    sequential_.remove(block);
  else if (role_[block] == kRandom)
    random_.erase(std::find(random_.begin(), random_.end(), block));
  role_[block] = kNoRole;
}

void AdaptFtl::on_log_page(Spn spn, bool copied) {
  chanced_[spn] = copied;
  const std::uint32_t block = block_of(spn);
  context().hal.touch(valid_count_table_, block, 1, Access::Write);
  if (role_[block] == kSequential) {
    sequential_.written(block, ++clock_);
    ++sequential_log_writes_;
  }
}

void AdaptFtl::on_invalidated(Spn spn, bool by_host) {
  const std::uint32_t block = block_of(spn);
  if (role_[block] == kNoRole) return;  // a data block
  context().hal.touch(valid_count_table_, block, 1, Access::Write);
  if (chanced_[spn]) {
    chanced_[spn] = false;
    if (by_host) ++second_chance_rewrites_;  // the second chance was deserved: rewritten while in the log
    publish_precision();
  }
  if (role_[block] == kRandom && p_.early_reuse && valid_pages(block) == 0 && full(block)) dead_.push_back(block);
}

}  // namespace ssd::fw
