// The write buffer's index: logical page -> the entry holding its newest copy. A hash table of
// fixed size over the buffer's entries, chained through the entries themselves: an entry is
// indexed at most once, so every link lives in a per-entry array and nothing is allocated after
// construction. (A node-based map allocated and freed a node per page written: on the Cortex-R5
// image its pool allocator spent about 2,200 cycles a 4 KiB write searching its free blocks.)
#pragma once

#include <cstdint>
#include <vector>

#include "common/geometry.h"

namespace ssd::fw {

class LpnIndex {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  // Entries are numbered [0, entries); the table has the next power of two >= entries buckets.
  explicit LpnIndex(std::uint32_t entries) : slots_(entries) {
    while ((std::uint64_t(1) << bits_) < entries) ++bits_;
    buckets_.assign(std::size_t(1) << bits_, kNone);
  }

  std::uint32_t find(Lpn lpn) const {
    for (std::uint32_t e = buckets_[bucket_of(lpn)]; e != kNone; e = slots_[e].next)
      if (slots_[e].lpn == lpn) return e;
    return kNone;
  }
  // `entry` holds lpn's newest copy now (it replaces the entry indexed before, if any).
  void set(Lpn lpn, std::uint32_t entry) {
    const std::uint32_t b = bucket_of(lpn);
    for (std::uint32_t* link = &buckets_[b]; *link != kNone; link = &slots_[*link].next)
      if (slots_[*link].lpn == lpn) {
        Slot& old = slots_[*link];
        *link = old.next;
        old.indexed = false;
        break;
      }
    slots_[entry] = Slot{lpn, buckets_[b], true};
    buckets_[b] = entry;
  }
  // Drops `entry` if it is indexed (it holds its page's newest copy).
  void erase(std::uint32_t entry) {
    Slot& slot = slots_[entry];
    if (!slot.indexed) return;
    for (std::uint32_t* link = &buckets_[bucket_of(slot.lpn)];; link = &slots_[*link].next)
      if (*link == entry) {
        *link = slot.next;
        break;
      }
    slot.indexed = false;
  }
  // Each indexed page and its entry, in entry order.
  template <typename F>
  void for_each(F f) const {
    for (std::uint32_t e = 0; e < slots_.size(); ++e)
      if (slots_[e].indexed) f(slots_[e].lpn, e);
  }
  // Its memory as the Cortex-R5 image lays it out (for the firmware's record accesses): the
  // chains' heads, 4 bytes each, and the entries' links, kSlotBytes each.
  static constexpr std::uint32_t kSlotBytes = 12;
  std::uint64_t heads_bytes() const { return buckets_.size() * 4; }
  std::uint64_t slots_bytes() const { return std::uint64_t(slots_.size()) * kSlotBytes; }
  std::uint32_t head_offset(Lpn lpn) const { return bucket_of(lpn) * 4; }
  std::uint64_t slot_offset(std::uint32_t entry) const { return heads_bytes() + std::uint64_t(entry) * kSlotBytes; }

 private:
  // Fibonacci hashing: the top bits of the page number times 2^32 / golden ratio (one 32-bit
  // multiply), so that strided page numbers spread over the buckets.
  std::uint32_t bucket_of(Lpn lpn) const {
    return bits_ == 0 ? 0 : static_cast<std::uint32_t>(lpn * 2654435769u) >> (32 - bits_);
  }

  struct Slot {
    Lpn lpn = kNoLpn;
    std::uint32_t next = kNone;  // the next entry of its chain
    bool indexed = false;
  };
#ifdef SSD_TARGET_BUILD
  static_assert(sizeof(Slot) == kSlotBytes, "kSlotBytes is a slot's size in the image");
#endif

  unsigned bits_ = 0;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> buckets_;
};

}  // namespace ssd::fw
