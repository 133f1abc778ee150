#include "fw/ftl/demand/mapping_cache.h"

#include <stdexcept>

namespace ssd::fw {

MappingCache::MappingCache(Hal& hal, const FirmwareCosts& costs, const MappingCacheConfig& config,
                           MetricSet& metrics)
    : hal_(hal),
      costs_(costs),
      config_(config),
      evictions_(metrics.counter("cmt_evictions")),
      dirty_evictions_(metrics.counter("cmt_dirty_evictions")) {
  if (config.logical_pages == 0) throw std::invalid_argument("a mapping cache needs the logical space it maps");
  owner_.assign(config.logical_pages, kNil);
  const std::uint64_t capacity = config.budget_bytes * 8 / config.entry_bits;
  if (capacity < 4 || capacity > 0x7fffffffull)
    throw std::invalid_argument("a mapping cache of " + std::to_string(config.budget_bytes) + " bytes holds " +
                                std::to_string(capacity) + " entries; at least 4 are needed");
  capacity_ = static_cast<std::uint32_t>(capacity);
  protected_capacity_ = static_cast<std::uint32_t>(double(capacity_) * config.protected_share);
  // A set() may hold up to three entries beyond capacity before it evicts.
  slots_.resize(std::size_t(capacity_) + 3);
  for (std::uint32_t s = static_cast<std::uint32_t>(slots_.size()); s-- > 0;) free_.push_back(s);
  table_ = hal_.place_table("mapping_cache", config.budget_bytes, MemoryKind::Sram);
}

void MappingCache::touch(std::uint32_t slot, Access access) {
  const std::uint32_t bytes = (config_.entry_bits + 7) / 8;
  std::uint64_t offset = std::uint64_t(slot) * config_.entry_bits / 8;
  if (offset + bytes > table_.bytes) offset = table_.bytes - bytes;  // the few overflow slots
  hal_.touch(table_, offset, bytes, access);
}

std::uint32_t MappingCache::find(Lpn lpn) const { return lpn < owner_.size() ? owner_[lpn] : kNil; }

void MappingCache::claim(std::uint32_t slot, Lpn first, std::uint32_t count) {
  for (Lpn p = first; p < first + count; ++p) owner_[p] = slot;
}

Spn MappingCache::peek(Lpn lpn) const {
  const std::uint32_t s = find(lpn);
  return s == kNil ? kNoSpn : slots_[s].spn + (lpn - slots_[s].lpn);
}

Spn MappingCache::lookup(Lpn lpn) {
  hal_.charge_cycles(costs_.map_lookup, FirmwareWork::MapLookup);
  const std::uint32_t s = find(lpn);
  if (s == kNil) return kNoSpn;
  touch(s, Access::Read);
  promote(s);
  return slots_[s].spn + (lpn - slots_[s].lpn);
}

void MappingCache::unlink(std::uint32_t s) {
  Entry& e = slots_[s];
  ListHead& l = lists_[e.list];
  (e.prev == kNil ? l.mru : slots_[e.prev].next) = e.next;
  (e.next == kNil ? l.lru : slots_[e.next].prev) = e.prev;
  e.prev = e.next = kNil;
  --l.size;
}

void MappingCache::push_mru(std::uint32_t s, List list) {
  Entry& e = slots_[s];
  ListHead& l = lists_[list];
  e.list = list;
  e.prev = kNil;
  e.next = l.mru;
  (l.mru == kNil ? l.lru : slots_[l.mru].prev) = s;
  l.mru = s;
  ++l.size;
}

void MappingCache::insert_after(std::uint32_t s, std::uint32_t anchor) {
  Entry& e = slots_[s];
  Entry& a = slots_[anchor];
  ListHead& l = lists_[a.list];
  e.list = a.list;
  e.prev = anchor;
  e.next = a.next;
  (a.next == kNil ? l.lru : slots_[a.next].prev) = s;
  a.next = s;
  ++l.size;
}

void MappingCache::promote(std::uint32_t s) {
  unlink(s);
  if (config_.replacement == Replacement::Lru) {
    push_mru(s, kProbation);
    return;
  }
  push_mru(s, kProtected);
  while (lists_[kProtected].size > protected_capacity_ && lists_[kProtected].size > 1) {
    const std::uint32_t demoted = lists_[kProtected].lru;
    unlink(demoted);
    push_mru(demoted, kProbation);
  }
}

std::uint32_t MappingCache::new_entry(Lpn lpn, Spn spn, std::uint32_t length, bool dirty) {
  if (free_.empty()) throw std::logic_error("mapping cache: no free slot");
  const std::uint32_t s = free_.back();
  free_.pop_back();
  Entry& e = slots_[s];
  e.lpn = lpn;
  e.spn = spn;
  e.length = length;
  e.dirty = dirty;
  claim(s, lpn, length);
  ++entries_;
  covered_ += length;
  return s;
}

void MappingCache::drop(std::uint32_t s) {
  unlink(s);
  const Entry& e = slots_[s];
  for (Lpn p = e.lpn; p < e.lpn + e.length; ++p)
    if (owner_[p] == s) owner_[p] = kNil;  // pages a split handed to another run stay theirs
  --entries_;
  covered_ -= slots_[s].length;
  free_.push_back(s);
}

bool MappingCache::mergeable(const Entry& l, const Entry& r) const {
  return l.lpn + l.length == r.lpn && l.spn + l.length == r.spn && l.length + r.length <= config_.max_run &&
         l.lpn / config_.boundary == r.lpn / config_.boundary;
}

void MappingCache::set(Lpn lpn, Spn spn, bool dirty) {
  hal_.charge_cycles(costs_.map_update, FirmwareWork::MapUpdate);
  // 1. Take the page out of the run that covers it (a hit), keeping the rest of that run.
  bool hit = false;
  if (const std::uint32_t s = find(lpn); s != kNil) {
    hit = true;
    Entry& e = slots_[s];
    const std::uint32_t offset = lpn - e.lpn, length = e.length;
    if (offset + 1 < length) {
      const std::uint32_t right = new_entry(lpn + 1, e.spn + offset + 1, length - offset - 1, e.dirty);
      insert_after(right, s);
      touch(right, Access::Write);
    }
    if (offset == 0) {
      drop(s);
    } else {
      covered_ -= length - offset;
      slots_[s].length = offset;
      owner_[lpn] = kNil;
      touch(s, Access::Write);
    }
  }
  // 2. The new mapping extends the run before it when both addresses continue it, else it is
  //    a run of its own; then the run after it may join.
  Entry probe;
  probe.lpn = lpn;
  probe.spn = spn;
  probe.length = 1;
  std::uint32_t slot = kNil;
  if (lpn > 0) {
    const std::uint32_t left = find(lpn - 1);
    if (left != kNil && mergeable(slots_[left], probe)) {
      slot = left;
      ++slots_[left].length;
      owner_[lpn] = left;
      ++covered_;
      slots_[left].dirty = slots_[left].dirty || dirty;
    }
  }
  if (slot == kNil) {
    slot = new_entry(lpn, spn, 1, dirty);
    push_mru(slot, kProbation);
  }
  const std::uint32_t right = find(lpn + 1);
  if (right != kNil && slots_[right].lpn == lpn + 1 && mergeable(slots_[slot], slots_[right])) {
    const bool right_dirty = slots_[right].dirty;
    const std::uint32_t right_length = slots_[right].length;
    drop(right);
    slots_[slot].length += right_length;
    claim(slot, lpn + 1, right_length);
    covered_ += right_length;
    slots_[slot].dirty = slots_[slot].dirty || right_dirty;
  }
  touch(slot, Access::Write);
  if (hit) {
    promote(slot);
  } else {
    const List list = slots_[slot].list;
    unlink(slot);
    push_mru(slot, list);
  }
  // 3. Make room, never evicting the entry just written.
  while (entries_ > capacity_) evict_one(slot);
}

void MappingCache::evict_one(std::uint32_t keep) {
  std::uint32_t victim = lists_[kProbation].lru;
  if (victim == keep) victim = slots_[victim].prev;
  if (victim == kNil) {
    victim = lists_[kProtected].lru;
    if (victim == keep) victim = slots_[victim].prev;
  }
  if (victim == kNil) throw std::logic_error("mapping cache: nothing to evict");
  ++evictions_;
  if (slots_[victim].dirty) {
    ++dirty_evictions_;
    if (!on_dirty_eviction) throw std::logic_error("mapping cache: dirty eviction with no write-back handler");
    on_dirty_eviction(slots_[victim].lpn);
    if (slots_[victim].dirty) throw std::logic_error("mapping cache: write-back left the evicted run dirty");
  }
  touch(victim, Access::Read);
  drop(victim);
}

void MappingCache::clean_range(Lpn first, Lpn count, const std::function<void(Lpn, Spn)>& visit) {
  for (Lpn lpn = first; lpn < first + count && lpn < owner_.size(); ++lpn) {
    const std::uint32_t s = owner_[lpn];
    if (s == kNil || slots_[s].lpn != lpn) continue;  // visit each run once, at its first page
    Entry& e = slots_[s];
    if (!e.dirty) continue;
    touch(s, Access::Read);
    for (std::uint32_t i = 0; i < e.length; ++i) visit(e.lpn + i, e.spn + i);
    e.dirty = false;
  }
}

std::vector<Lpn> MappingCache::dirty_runs() const {
  std::vector<Lpn> firsts;
  for (const ListHead& list : lists_)
    for (std::uint32_t s = list.mru; s != kNil; s = slots_[s].next)
      if (slots_[s].dirty) firsts.push_back(slots_[s].lpn);
  return firsts;
}

}  // namespace ssd::fw
