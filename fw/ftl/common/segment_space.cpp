#include "fw/ftl/common/segment_space.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "fw/hal/table_placer.h"

namespace ssd::fw {

namespace {
FlashGeometry checked(const FlashGeometry& g, std::uint32_t width) {
  if (width == 0 || g.total_planes() % width != 0)
    throw std::invalid_argument("segment_planes = " + std::to_string(width) + " does not divide the " +
                                std::to_string(g.total_planes()) + " planes");
  return g;
}

std::vector<std::uint32_t> channel_first_planes(const FlashGeometry& g) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t k = 0; k < g.total_planes(); ++k) order.push_back(g.channel_first_plane(k));
  return order;
}
}  // namespace

SegmentSpace::SegmentSpace(Hal& hal, const FirmwareCosts& costs, std::uint32_t segment_planes, bool striped,
                           std::uint32_t reserve, const char* table_name, std::uint32_t count_bytes)
    : hal_(hal),
      costs_(costs),
      geo_(checked(hal.geometry(), segment_planes)),
      width_(segment_planes),
      groups_(geo_.total_planes() / segment_planes),
      segments_(groups_ * geo_.blocks_per_plane),
      segment_pages_(segment_planes * geo_.pages_per_block),
      reserve_(reserve),
      identity_(!striped && segment_planes == 1),
      stripe_(channel_first_planes(geo_)),
      valid_(hal, table_name, std::uint64_t(segments_) * segment_pages_, segment_pages_, count_bytes),
      pinned_(!striped) {
  member_of_plane_.resize(geo_.total_planes());
  group_of_plane_.resize(geo_.total_planes());
  for (std::uint32_t k = 0; k < geo_.total_planes(); ++k) {
    const std::uint32_t global = striped ? stripe_[k] : k;
    member_plane_.push_back(global);
    member_of_plane_[global] = k % width_;
    group_of_plane_[global] = k / width_;
  }
  kind_.assign(segments_, 0);
  erase_count_.assign(segments_, 0);
  group_erases_.assign(groups_, 0);
  changed_at_.assign(segments_, 0);
  doomed_in_group_.assign(groups_, 0);
  const std::vector<BlockId> factory = hal_.factory_bad_blocks();
  factory_bad_ = factory.size();
  lay_out(factory);
}

std::vector<BlockId> SegmentSpace::and_excluded(std::vector<BlockId> blocks) const {
  for (BlockId b = 0; b < bad_.size(); ++b)
    if (bad_[b]) blocks.push_back(b);
  return blocks;
}

void SegmentSpace::adopt_bad_blocks(const std::vector<BlockId>& worn) {
  require_fresh("an aged drive's bad blocks");
  lay_out(and_excluded(worn));
  update_read_only();
}

void SegmentSpace::hold_back(const std::vector<BlockId>& blocks) {
  require_fresh("the firmware's own blocks");
  const std::uint32_t retired_before = retired_;
  lay_out(and_excluded(blocks));
  held_ += blocks.size();
  held_retired_ += retired_ - retired_before;
  update_read_only();
  if (read_only()) refuse_factory_layout();
}

// Every segment free but those the bad blocks retire; the free pools in block order.
void SegmentSpace::lay_out(const std::vector<BlockId>& bad) {
  state_.assign(segments_, SegmentState::Free);
  retired_ = 0;
  retired_in_group_.assign(groups_, 0);
  slot_block_.clear();
  block_slot_.clear();
  spares_.clear();
  bad_.clear();
  exclude(bad);
  free_.assign(groups_, {});
  for (std::uint32_t g = 0; g < groups_; ++g) {
    free_[g].reserve(geo_.blocks_per_plane);
    for (std::uint32_t b = geo_.blocks_per_plane; b-- > 0;)
      if (state_[g * geo_.blocks_per_plane + b] == SegmentState::Free)
        free_[g].push_back(g * geo_.blocks_per_plane + b);
  }
  free_count_ = segments_ - retired_;
}

void SegmentSpace::exclude(const std::vector<BlockId>& bad) {
  if (bad.empty()) return;
  bad_.assign(geo_.total_blocks(), false);
  for (BlockId b : bad) bad_[b] = true;
  if (width_ == 1) {  // a segment is its block
    for (BlockId b : bad) {
      const std::uint32_t s = segment_of_block(b);
      if (state_[s] != SegmentState::Retired) retire(s);
    }
    return;
  }
  slot_block_.assign(geo_.total_planes(), {});
  block_slot_.assign(geo_.total_blocks(), kNoSegment);
  spares_.assign(geo_.total_planes(), {});
  for (std::uint32_t g = 0; g < groups_; ++g) remap_from_good_blocks(g);
}

// Slot k of the group takes each member plane's k-th good block; the slots beyond the member
// with the fewest good blocks are retired, the others' good blocks there become spares.
void SegmentSpace::remap_from_good_blocks(std::uint32_t group) {
  const std::uint32_t B = geo_.blocks_per_plane;
  std::uint32_t fewest = B;
  std::vector<std::vector<std::uint32_t>> good(width_);
  for (std::uint32_t m = 0; m < width_; ++m) {
    const std::uint32_t plane = member_plane_[group * width_ + m];
    for (std::uint32_t b = 0; b < B; ++b)
      if (!bad_[geo_.block_at(plane, b)]) good[m].push_back(b);
    fewest = std::min<std::uint32_t>(fewest, static_cast<std::uint32_t>(good[m].size()));
  }
  for (std::uint32_t m = 0; m < width_; ++m) {
    const std::uint32_t plane = member_plane_[group * width_ + m];
    slot_block_[plane].assign(B, kNoSegment);
    for (std::uint32_t slot = 0; slot < good[m].size(); ++slot) {
      const std::uint32_t b = good[m][slot];
      if (slot < fewest) {
        slot_block_[plane][slot] = b;
        block_slot_[geo_.block_at(plane, b)] = slot;
      } else {
        spares_[plane].push_back(b);
      }
    }
  }
  for (std::uint32_t slot = fewest; slot < B; ++slot) {
    state_[group * B + slot] = SegmentState::Retired;
    ++retired_;
    ++retired_in_group_[group];
  }
}

SegmentSpace::SegmentSpace(Hal& hal, const FirmwareCosts& costs, std::uint32_t segment_planes,
                           std::vector<std::uint8_t> frontier_kinds, std::uint32_t reserve)
    : SegmentSpace(hal, costs, segment_planes, true, reserve, "segment", 4) {
  for (std::uint8_t kind : frontier_kinds) frontiers_.push_back(Frontier{kind});
}

SegmentSpace::SegmentSpace(Hal& hal, const FirmwareCosts& costs, PlaneBlocks layout, std::uint32_t reserve)
    : SegmentSpace(hal, costs, 1, false, reserve, "block", 2) {
  streams_ = layout.streams;
  for (std::uint32_t plane = 0; plane < groups_; ++plane)
    for (std::uint32_t s = 0; s < streams_; ++s) {
      Frontier f;
      f.group = plane;
      frontiers_.push_back(f);
    }
}

Ppn SegmentSpace::striped_to_ppn(Spn spn) const {
  const std::uint32_t segment = spn / segment_pages_, k = spn % segment_pages_;
  const std::uint32_t group = segment / geo_.blocks_per_plane, slot = segment % geo_.blocks_per_plane;
  const std::uint32_t plane = member_plane_[group * width_ + k % width_];
  return geo_.first_page(geo_.block_at(plane, slot_block(plane, slot))) + k / width_;
}

Spn SegmentSpace::striped_to_spn(Ppn ppn) const {
  const BlockId b = geo_.block_of(ppn);
  const std::uint32_t plane = geo_.plane_of_block(b);
  const std::uint32_t slot = block_slot_.empty() ? geo_.block_in_plane(b) : block_slot_[b];
  if (slot == kNoSegment) return kNoSpn;  // a spare
  const std::uint32_t segment = group_of_plane_[plane] * geo_.blocks_per_plane + slot;
  return segment * segment_pages_ + geo_.page_in_block(ppn) * width_ + member_of_plane_[plane];
}

std::uint32_t SegmentSpace::segment_of_block(BlockId block) const {
  const Spn spn = to_spn(geo_.first_page(block));
  return spn == kNoSpn ? kNoSegment : segment_of(spn);
}

std::vector<BlockId> SegmentSpace::blocks(std::uint32_t segment) const {
  const std::uint32_t group = segment / geo_.blocks_per_plane, slot = segment % geo_.blocks_per_plane;
  std::vector<BlockId> out;
  for (std::uint32_t m = 0; m < width_; ++m) {
    const std::uint32_t plane = member_plane_[group * width_ + m];
    out.push_back(geo_.block_at(plane, slot_block(plane, slot)));
  }
  return out;
}

bool SegmentSpace::can_allocate(std::uint32_t frontier, bool privileged) const {
  const Frontier& f = frontiers_[frontier];
  if (f.segment != kNoSegment && f.next < capacity(f)) return privileged || !f.from_reserve || free_for(f) > reserve_;
  return free_for(f) > (privileged ? 0u : reserve_);
}

void SegmentSpace::set_wear_leveling(const WearLeveling& w, MetricSet& metrics) {
  wear_ = w;
  if (w.mode == WearLeveling::Mode::Static) wear_victims_ = &metrics.counter("wear_leveling_victims");
  wear_moved_last_.assign(std::max<std::uint32_t>(groups_, 1), false);
}

void SegmentSpace::youngest_to_back(std::vector<std::uint32_t>& pool) {
  hal_.charge_cycles(std::uint64_t(costs_.gc_scan_per_block) * pool.size(), FirmwareWork::GcScan);
  std::size_t youngest = pool.size() - 1;
  for (std::size_t i = pool.size() - 1; i-- > 0;)  // ties: the last freed, as without leveling
    if (erase_count_[pool[i]] < erase_count_[pool[youngest]]) youngest = i;
  std::swap(pool[youngest], pool.back());
}

std::uint32_t SegmentSpace::take_free_in(std::uint32_t group, bool privileged) {
  std::vector<std::uint32_t>& pool = free_[group];
  if (pool.size() <= (privileged ? 0u : reserve_)) return kNoSegment;
  if (wear_.mode != WearLeveling::Mode::None) youngest_to_back(pool);
  const std::uint32_t s = pool.back();
  pool.pop_back();
  --free_count_;
  return s;
}

std::uint32_t SegmentSpace::take_free(bool privileged) {
  if (free_count_ <= (privileged ? 0u : reserve_)) return kNoSegment;
  for (std::uint32_t tries = 0; tries < groups_; ++tries) {
    const std::uint32_t group = group_cursor_;
    group_cursor_ = (group_cursor_ + 1) % groups_;
    if (!free_[group].empty()) return take_free_in(group, true);
  }
  return kNoSegment;
}

Spn SegmentSpace::allocate(std::uint32_t frontier, bool privileged, std::uint64_t now) {
  Frontier& f = frontiers_[frontier];
  if (!can_allocate(frontier, privileged)) return kNoSpn;
  if (f.segment == kNoSegment || f.next == capacity(f)) open_segment(f, privileged);
  hal_.charge_cycles(costs_.page_allocate, FirmwareWork::PageAllocate);
  changed_at_[f.segment] = now;
  const Spn spn = first_spn(f.segment) + f.next++;
  if (f.next == capacity(f)) state_[f.segment] = SegmentState::Closed;
  return spn;
}

std::uint32_t SegmentSpace::close_word_lines(std::uint32_t frontier, std::uint32_t word_line_pages, BlockId only,
                                             const std::function<void(Spn)>& pad) {
  Frontier& f = frontiers_[frontier];
  if (f.segment == kNoSegment || (only != kNoBlock && segment_of_block(only) != f.segment) || f.pages) return 0;
  const std::uint32_t gap = word_line_gap(f.next, word_line_pages);
  if (gap == 0) return 0;  // (a full segment may be a victim already: its state stays)
  for (std::uint32_t k = 0; k < gap; ++k) {
    hal_.charge_cycles(costs_.page_allocate, FirmwareWork::PageAllocate);
    pad(first_spn(f.segment) + f.next++);
  }
  if (f.next == segment_pages_) state_[f.segment] = SegmentState::Closed;
  return gap;
}

void SegmentSpace::open_segment(Frontier& f, bool privileged) {
  f.from_reserve = free_for(f) <= reserve_;
  const std::uint32_t s = f.group == kAnyGroup ? take_free(privileged) : take_free_in(f.group, privileged);
  f.segment = s;
  f.next = 0;
  ++f.generation;
  state_[s] = SegmentState::Open;
  kind_[s] = f.kind;
}

std::vector<SegmentSpace::PageRun> SegmentSpace::advance_frontier(std::uint32_t frontier, std::uint64_t pages,
                                                                  std::uint64_t now) {
  std::vector<PageRun> runs;
  Frontier& f = frontiers_[frontier];
  while (pages > 0) {
    if (!can_allocate(frontier, false))
      throw std::logic_error("frontier " + std::to_string(frontier) + " ran out of room " + std::to_string(pages) +
                             " pages before the end of its run");
    if (f.segment == kNoSegment || f.next == capacity(f)) open_segment(f, false);
    const auto count = static_cast<std::uint32_t>(std::min<std::uint64_t>(pages, capacity(f) - f.next));
    runs.push_back(PageRun{first_spn(f.segment) + f.next, count});
    f.next += count;
    pages -= count;
    changed_at_[f.segment] = now;
    if (f.next == capacity(f)) state_[f.segment] = SegmentState::Closed;
  }
  return runs;
}

std::uint32_t SegmentSpace::preload(std::uint8_t kind, std::uint32_t programmed, std::uint32_t frontier,
                                    std::uint32_t group) {
  if (frontier != kNoFrontier && frontiers_[frontier].group != kAnyGroup) group = frontiers_[frontier].group;
  const std::uint32_t s = group == kAnyGroup ? take_free(true) : take_free_in(group, true);
  if (s == kNoSegment)
    throw std::logic_error(group == kAnyGroup
                               ? std::string("preload: no free segment left")
                               : "preload: plane group " + std::to_string(group) + " has no free segment");
  kind_[s] = kind;
  if (frontier == kNoFrontier) {
    if (programmed != segment_pages_) throw std::logic_error("preload: a closed segment must be fully written");
    state_[s] = SegmentState::Closed;
    return s;
  }
  Frontier& f = frontiers_[frontier];
  if (f.segment != kNoSegment || programmed >= segment_pages_)
    throw std::logic_error("preload: frontier " + std::to_string(frontier) + " already has a segment, or it is full");
  f.segment = s;
  f.next = programmed;
  ++f.generation;
  f.from_reserve = false;
  state_[s] = SegmentState::Open;
  return s;
}

void SegmentSpace::adopt_written(std::uint32_t segment, std::uint8_t kind) {
  std::vector<std::uint32_t>& pool = free_[group_of(segment)];
  const auto it = std::find(pool.begin(), pool.end(), segment);
  if (state_[segment] != SegmentState::Free || it == pool.end())
    throw std::logic_error("mount: segment " + std::to_string(segment) + " is not free");
  pool.erase(it);
  --free_count_;
  kind_[segment] = kind;
  state_[segment] = SegmentState::Closed;
}

void SegmentSpace::preload_in_order(std::uint32_t segment, Lpn first_lpn, std::uint32_t count,
                                    const std::function<Token(Lpn)>& token_of) {
  // Segment page `off` is page off / width of member off % width.
  std::vector<Hal::PreloadedPage> pages(geo_.pages_per_block);
  for (std::uint32_t member = 0; member < width_ && member < count; ++member) {
    std::uint32_t n = 0;
    for (std::uint32_t off = member; off < count; off += width_, ++n)
      pages[n] = Hal::PreloadedPage{first_lpn + off, token_of(first_lpn + off)};
    const Ppn start = to_ppn(first_spn(segment) + member);
    hal_.preload_block(geo_.block_of(start), n, pages.data(), std::uint64_t(first_lpn) + member + 1);
  }
  valid_.mark_valid_range(first_spn(segment), count);
}

void SegmentSpace::require_fresh(const char* what) const {
  if (free_count_ != segments_ - retired_)
    throw std::logic_error(std::string(what) + " needs a fresh drive (" +
                           std::to_string(segments_ - retired_ - free_count_) + " of " +
                           std::to_string(segments_ - retired_) + " blocks are in use)");
}

void SegmentSpace::invalidate(Spn spn, std::uint64_t now) {
  valid_.invalidate(spn);
  changed_at_[segment_of(spn)] = now;
}

std::uint32_t SegmentSpace::choose_victim(VictimPolicy policy, std::uint64_t now) {
  return scan_victim(0, segments_, policy, now);
}

void SegmentSpace::make_slc_frontier(std::uint32_t frontier, std::uint8_t kind, std::uint32_t pages) {
  if (pages == 0 || pages >= geo_.pages_per_block)
    throw std::logic_error("make_slc_frontier: an SLC-mode block holds fewer pages than the block's");
  frontiers_[frontier].kind = kind;
  frontiers_[frontier].pages = pages * width_;  // the first `pages` rows: pages 0 .. pages - 1 of each member
}

std::uint32_t SegmentSpace::fewest_valid_of_kind(std::uint32_t group, std::uint8_t kind) const {
  hal_.charge_cycles(std::uint64_t(costs_.gc_scan_per_block) * geo_.blocks_per_plane, FirmwareWork::GcScan);
  std::uint32_t best = kNoSegment;
  for (std::uint32_t s = group * geo_.blocks_per_plane; s < (group + 1) * geo_.blocks_per_plane; ++s)
    if (state_[s] == SegmentState::Closed && kind_[s] == kind &&
        (best == kNoSegment || valid_.valid_count(s) < valid_.valid_count(best)))
      best = s;
  return best;
}

std::uint32_t SegmentSpace::choose_victim_in_group(std::uint32_t group, VictimPolicy policy, std::uint64_t now) {
  return scan_victim(group * geo_.blocks_per_plane, geo_.blocks_per_plane, policy, now);
}

std::uint32_t SegmentSpace::scan_victim(std::uint32_t first, std::uint32_t count, VictimPolicy policy,
                                        std::uint64_t now) {
  hal_.charge_cycles(std::uint64_t(costs_.gc_scan_per_block) * count, FirmwareWork::GcScan);
  valid_.touch_counts(first, count);
  std::uint32_t best = kNoSegment;
  double best_score = -1.0;
  // Static wear leveling: the least-erased closed segment holding data, and the most erased of all.
  const bool leveling = wear_.mode == WearLeveling::Mode::Static;
  std::uint32_t coldest = kNoSegment, most_erased = 0;
  for (std::uint32_t s = first; s < first + count; ++s) {
    if (state_[s] == SegmentState::Retired) continue;
    if (leveling) most_erased = std::max(most_erased, erase_count_[s]);
    if (state_[s] != SegmentState::Closed) continue;
    if (leveling && valid_.valid_count(s) > 0 && (coldest == kNoSegment || erase_count_[s] < erase_count_[coldest]))
      coldest = s;
    const double u = double(valid_.valid_count(s)) / segment_pages_;
    double score;
    if (policy == VictimPolicy::Greedy)
      score = 1.0 - u;
    else
      score =
          u == 0.0 ? std::numeric_limits<double>::infinity() : (1.0 - u) / (2.0 * u) * double(now - changed_at_[s] + 1);
    if (score > best_score) {
      best = s;
      best_score = score;
    }
  }
  wear_victim_ = kNoSegment;
  if (!leveling) return best;
  // At most every other reclaim of a scope moves cold data: such a victim may free nothing (all
  // its pages valid), so the greedy ones between keep the free pool growing.
  const std::size_t scope = count == segments_ ? 0 : first / geo_.blocks_per_plane;
  const bool move =
      coldest != kNoSegment && most_erased - erase_count_[coldest] > wear_.spread && !wear_moved_last_[scope];
  wear_moved_last_[scope] = move;
  if (!move) return best;
  wear_victim_ = coldest;
  return coldest;
}

std::uint32_t SegmentSpace::take(std::uint8_t kind) {
  const std::uint32_t s = take_free(true);
  if (s == kNoSegment) return s;
  state_[s] = SegmentState::Open;
  kind_[s] = kind;
  return s;
}

std::uint32_t SegmentSpace::take_in_group(std::uint8_t kind, std::uint32_t group) {
  const std::uint32_t s = take_free_in(group, true);
  if (s == kNoSegment) return s;
  state_[s] = SegmentState::Open;
  kind_[s] = kind;
  return s;
}

void SegmentSpace::begin_reclaim(std::uint32_t s) {
  if (s == wear_victim_) ++*wear_victims_;
  if (state_[s] != SegmentState::Closed && state_[s] != SegmentState::Open)
    throw std::logic_error("reclaim of segment " + std::to_string(s) + " that is not in use");
  state_[s] = SegmentState::Reclaiming;
}

void SegmentSpace::finish_reclaim(std::uint32_t s) {
  if (state_[s] != SegmentState::Reclaiming || valid_.valid_count(s) != 0)
    throw std::logic_error("segment " + std::to_string(s) + " erased while it still holds " +
                           std::to_string(valid_.valid_count(s)) + " valid pages");
  ++erase_count_[s];
  ++group_erases_[group_of(s)];
  if (retiring(s)) {
    retiring_[s] = false;
    retiring_list_.erase(std::find(retiring_list_.begin(), retiring_list_.end(), s));
    if (!replace_bad_members(s)) {
      retire(s);
      return;
    }
  }
  state_[s] = SegmentState::Free;
  free_[group_of(s)].push_back(s);
  ++free_count_;
}

std::uint32_t SegmentSpace::mark_bad(BlockId block) {
  if (bad_.empty()) bad_.assign(geo_.total_blocks(), false);
  if (bad_[block]) return kNoSegment;
  bad_[block] = true;
  ++grown_bad_;
  const std::uint32_t s = segment_of_block(block);
  if (s == kNoSegment) return s;
  if (retiring_.empty()) retiring_.assign(segments_, false);
  if (!retiring_[s]) {
    retiring_[s] = true;
    retiring_list_.push_back(s);
  }
  // Written no further: closed where it stands. (A frontier still names its segment once it is
  // full, which may be Closed or a victim already: its state stays.)
  for (Frontier& f : frontiers_)
    if (f.segment == s) {
      f.segment = kNoSegment;
      if (state_[s] == SegmentState::Open) state_[s] = SegmentState::Closed;
    }
  update_read_only();
  return s;
}

// Each bad member of a reclaimed segment takes a spare of its plane; false when a plane has none.
bool SegmentSpace::replace_bad_members(std::uint32_t s) {
  if (width_ == 1) return false;
  if (slot_block_.empty()) {  // the first grown bad block of a space without factory bad ones
    slot_block_.assign(geo_.total_planes(), {});
    block_slot_.assign(geo_.total_blocks(), kNoSegment);
    spares_.assign(geo_.total_planes(), {});
    for (std::uint32_t plane = 0; plane < geo_.total_planes(); ++plane)
      for (std::uint32_t b = 0; b < geo_.blocks_per_plane; ++b) {
        slot_block_[plane].push_back(b);
        block_slot_[geo_.block_at(plane, b)] = b;
      }
  }
  const std::uint32_t group = group_of(s), slot = s % geo_.blocks_per_plane;
  for (std::uint32_t m = 0; m < width_; ++m) {
    const std::uint32_t plane = member_plane_[group * width_ + m];
    if (bad_[geo_.block_at(plane, slot_block_[plane][slot])] && spares_[plane].empty()) return false;
  }
  for (std::uint32_t m = 0; m < width_; ++m) {
    const std::uint32_t plane = member_plane_[group * width_ + m];
    const BlockId old = geo_.block_at(plane, slot_block_[plane][slot]);
    if (!bad_[old]) continue;
    const std::uint32_t spare = spares_[plane].back();
    spares_[plane].pop_back();
    block_slot_[old] = kNoSegment;
    slot_block_[plane][slot] = spare;
    block_slot_[geo_.block_at(plane, spare)] = slot;
    ++replaced_;
  }
  update_read_only();
  return true;
}

void SegmentSpace::retire(std::uint32_t s) {
  state_[s] = SegmentState::Retired;
  ++retired_;
  ++retired_in_group_[group_of(s)];
  if (!slot_block_.empty()) {  // its good blocks serve as their planes' spares
    const std::uint32_t group = group_of(s), slot = s % geo_.blocks_per_plane;
    for (std::uint32_t m = 0; m < width_; ++m) {
      const std::uint32_t plane = member_plane_[group * width_ + m];
      const std::uint32_t b = slot_block_[plane][slot];
      block_slot_[geo_.block_at(plane, b)] = kNoSegment;
      slot_block_[plane][slot] = kNoSegment;
      if (!bad_[geo_.block_at(plane, b)]) spares_[plane].push_back(b);
    }
  }
  update_read_only();
}

void SegmentSpace::set_capacity_need(std::uint32_t segments, std::uint32_t overhead) {
  need_ = segments;
  overhead_ = overhead;
  update_read_only();
  if (read_only()) refuse_factory_layout();
}

void SegmentSpace::set_read_only_margin(std::uint32_t segments) {
  margin_ = segments;
  update_read_only();
  if (read_only()) refuse_factory_layout();
}

void SegmentSpace::refuse_factory_layout() const {
  std::uint32_t fewest = usable_segments();
  if (pinned_)
    for (std::uint32_t g = 0; g < groups_; ++g) fewest = std::min(fewest, usable_in_group(g));
  const std::string held = held_ ? " and the " + std::to_string(held_) +
                                       " blocks the firmware keeps for itself (the power-loss dump area, "
                                       "firmware.plp_destage = dump; the map checkpoint's slots, "
                                       "firmware.checkpoint_interval_mib)"
                                 : "";
  throw ResourceError("the factory's bad blocks (" + std::to_string(factory_bad_) + " of " +
                      std::to_string(geo_.total_blocks()) +
                      "; failures.factory_bad_share, failures.factory_bad_blocks)" + held + " leave " +
                      std::to_string(fewest) + " usable " + (pinned_ ? "blocks on a plane" : "segments") +
                      ", fewer than the FTL needs (" + std::to_string(need_) + ") plus firmware.read_only_margin (" +
                      std::to_string(margin_) + "): the drive would be read-only from the start");
}

void SegmentSpace::publish_bad_blocks(MetricSet& metrics) {
  retired_gauge_ = &metrics.gauge("retired_segments");
  spares_gauge_ = &metrics.gauge("spare_blocks");
  usable_gauge_ = &metrics.gauge("usable_segments");
  replaced_gauge_ = &metrics.gauge("bad_block_replacements");
  read_only_gauge_ = &metrics.gauge("read_only_since_ticks");
  update_read_only();
}

void SegmentSpace::count_doomed() {
  doomed_ = 0;
  std::fill(doomed_in_group_.begin(), doomed_in_group_.end(), 0);
  std::vector<std::uint32_t> spares(geo_.total_planes(), 0);
  for (std::uint32_t p = 0; p < spares_.size(); ++p) spares[p] = static_cast<std::uint32_t>(spares_[p].size());
  for (std::uint32_t s : retiring_list_) {
    const std::uint32_t group = group_of(s), slot = s % geo_.blocks_per_plane;
    bool repairable = width_ > 1;
    for (std::uint32_t pass = 0; pass < 2 && repairable; ++pass)  // can every bad member get one? then take them
      for (std::uint32_t m = 0; m < width_; ++m) {
        const std::uint32_t plane = member_plane_[group * width_ + m];
        if (!bad_[geo_.block_at(plane, slot_block(plane, slot))]) continue;
        if (pass == 0 && spares[plane] == 0) repairable = false;
        if (pass == 1) --spares[plane];
      }
    if (!repairable) {
      ++doomed_;
      ++doomed_in_group_[group];
    }
  }
}

void SegmentSpace::update_read_only() {
  count_doomed();
  if (need_ != 0 && read_only_since_ == 0) {
    bool short_of_blocks = usable_segments() < need_ + margin_;
    if (pinned_)
      for (std::uint32_t g = 0; g < groups_; ++g) {
        std::uint64_t valid = 0;  // the group's data, in segments
        for (std::uint32_t s = g * geo_.blocks_per_plane; s < (g + 1) * geo_.blocks_per_plane; ++s)
          valid += valid_.valid_count(s);
        const std::uint64_t data = (valid + segment_pages_ - 1) / segment_pages_;
        const std::uint64_t need = std::max<std::uint64_t>(need_, data + overhead_);
        short_of_blocks |= usable_in_group(g) < need + margin_;
      }
    // (A drive without a bad block is never short: an FTL's need may count a cap, e.g. its log's.)
    if (short_of_blocks && retired_ + doomed_ > 0) read_only_since_ = std::max<std::uint64_t>(1, hal_.now_ticks());
  }
  if (retired_gauge_) {
    const BadBlockCounts c = bad_block_counts();
    *retired_gauge_ = double(c.retired_segments);
    *spares_gauge_ = double(c.spares);
    *usable_gauge_ = double(usable_segments());
    *replaced_gauge_ = double(c.replaced);
    *read_only_gauge_ = double(read_only_since_);
  }
}

SegmentSpace::BadBlockCounts SegmentSpace::bad_block_counts() const {
  BadBlockCounts c;
  c.factory = factory_bad_;
  c.grown = grown_bad_;
  c.replaced = replaced_;
  c.retired_segments = retired_ - held_retired_;
  for (const auto& plane : spares_) c.spares += plane.size();
  return c;
}

}  // namespace ssd::fw
