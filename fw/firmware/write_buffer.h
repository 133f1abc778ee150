// The controller's DRAM write buffer: host writes land here and are acknowledged; the data stays
// (dirty) until the replacement policy evicts it to the FTL. A later write of a dirty page is
// absorbed in place, a read of a buffered page is served from DRAM, and an evicted page keeps
// serving reads until its program is done. This class is the buffer's state and policy; the
// firmware (fw/firmware/firmware.cpp) moves the data and issues the evictions.
//
// Policies: fifo (evict in arrival order; an absorbed write keeps its place), page_lru (the least
// recently written or read page), block_lru (BPLRU-style: every dirty page of the least recently
// used logical block, in page order, so that a block's updates reach the FTL as one in-order
// run). block_lru hands a block over in chunks when the caller limits the pages per eviction (the
// firmware's flush limit): the block being drained goes first, chunk after chunk, until all its
// pages left, so no other block's pages come between them and the run stays whole. A write of a
// page still waiting in the drained block is absorbed there; a page of that logical block not in
// it starts a new block entry at the recent end of the order.
//
// Durability (FLUSH, FUA; common/host_op.h): every entry belongs to the flush epoch that was open
// when it was inserted (an absorbed write keeps the entry's epoch: the entry holds data of that
// epoch until it is programmed). close_epoch() starts a new epoch and returns the closed one's
// number; settled(n) says that no entry of epoch n or earlier is left (dirty or flushing), i.e.
// everything written to the buffer before the epoch closed is on the flash. take() hands one
// dirty entry over out of the policy's order (a FUA write's own pages, a flush's).
#pragma once

#include <cstdint>
#include <list>
#include <memory_resource>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/geometry.h"
#include "common/tokens.h"
#include "fw/firmware/lpn_index.h"
#include "fw/ftl/ftl.h"

namespace ssd::fw {

enum class WriteBufferPolicy : std::uint8_t { kOff, kFifo, kPageLru, kBlockLru };
WriteBufferPolicy write_buffer_policy(const std::string& name);  // throws std::invalid_argument
const std::vector<std::string>& write_buffer_policy_names();

class WriteBuffer {
 public:
  static constexpr std::uint32_t kNoEntry = 0xffffffffu;
  struct Entry {
    Lpn lpn = kNoLpn;
    Token token = 0;           // the page's data, or the new part of a partial write (merge)
    Token old = 0;             // merge: the old page, filled by its read before `ready`
    bool merge = false;        // the value is merge_tokens(old, token)
    bool flushing = false;     // handed to the FTL, program not done yet
    bool draining = false;     // block_lru: dirty, in the block being handed over in chunks
    OpRef ready;               // completes when the data is in DRAM (and merged)
    HostRequestInfo request;   // the host request that wrote it last
    Token value() const { return merge ? merge_tokens(old, token) : token; }
  };
  static constexpr std::uint32_t kEntryBytes = 36;  // an Entry's size in the Cortex-R5 image
#ifdef SSD_TARGET_BUILD
  static_assert(sizeof(Entry) == kEntryBytes, "kEntryBytes is an entry's size in the image");
#endif

  // capacity: pages; block_pages: the logical block block_lru groups by.
  WriteBuffer(std::uint32_t capacity, WriteBufferPolicy policy, std::uint32_t block_pages);

  WriteBufferPolicy policy() const { return policy_; }
  std::uint32_t capacity() const { return capacity_; }
  std::uint32_t free_entries() const { return static_cast<std::uint32_t>(free_.size()); }
  std::uint32_t dirty() const { return dirty_; }
  std::uint32_t flushing() const { return capacity_ - free_entries() - dirty_; }

  // The newest entry holding `lpn` (dirty or flushing), or kNoEntry.
  std::uint32_t find(Lpn lpn) const {
    return index_.find(lpn);
  }
  // Each buffered logical page's newest entry, in no particular order.
  template <typename F>
  void for_each_newest(F f) const {
    index_.for_each([&](Lpn lpn, std::uint32_t e) { f(lpn, entries_[e]); });
  }
  Entry& entry(std::uint32_t e) { return entries_[e]; }
  const Entry& entry(std::uint32_t e) const { return entries_[e]; }
  const LpnIndex& index() const { return index_; }

  // A new dirty entry for `lpn` (a free entry must exist); it becomes the page's newest.
  std::uint32_t insert(Lpn lpn);
  // The dirty entry `e` was written again (absorbed) or read: its place in the policy's order.
  void written(std::uint32_t e);
  void read(std::uint32_t e);
  // Takes the next victims out of the policy's order (one page, or block_lru: a block's dirty
  // pages in page order, at most max_pages of them, 0: all; the rest of the block comes next),
  // marks them flushing and appends them to `out`. False when none is dirty.
  bool evict(std::vector<std::uint32_t>& out, std::uint32_t max_pages = 0);
  // Takes dirty entry `e` out of the policy's order and marks it flushing (as evict would).
  void take(std::uint32_t e);
  // The program of flushing entry `e` is done: the entry is free again.
  void release(std::uint32_t e);
  // The host trimmed entry `e`'s page (its newest copy): reads no longer find it. A dirty entry is
  // dropped, free again (returns true); a flushing one stays until its program completes.
  bool deallocate(std::uint32_t e) {
    index_.erase(e);
    if (entries_[e].flushing) return false;
    take(e);
    release(e);
    return true;
  }

  // Flush epochs (see above).
  std::uint32_t close_epoch();
  bool settled(std::uint32_t epoch) const { return epoch < first_live_epoch_; }
  std::uint32_t epoch_of(std::uint32_t e) const { return epoch_of_[e]; }
  // The dirty entries in the order evict() would hand them over (block_lru: block by block, each
  // block's pages in page order), appended to `out`.
  void dirty_in_order(std::vector<std::uint32_t>& out) const;

 private:
  struct Block {
    using allocator_type = std::pmr::polymorphic_allocator<std::uint32_t>;  // its pages share the pool
    explicit Block(const allocator_type& a) : pages(a) {}
    Block(Block&& other, const allocator_type& a) : place(other.place), pages(std::move(other.pages), a) {}
    std::pmr::list<std::uint64_t>::iterator place;  // in blocks_ (front: least recently used)
    std::pmr::vector<std::uint32_t> pages;          // its dirty entries
  };
  void to_back(std::uint32_t e);
  void unlink(std::uint32_t e);

  std::uint32_t capacity_;
  WriteBufferPolicy policy_;
  std::uint32_t block_pages_;
  std::vector<Entry> entries_;  // fixed size: entries keep their addresses (Token* for merges)
  std::vector<std::uint32_t> free_;
  LpnIndex index_;  // each buffered page's newest entry
  // block_lru's structures change on every write: their nodes come from a pool (declared first,
  // destroyed last) instead of the heap, one allocation less per page.
  std::pmr::unsynchronized_pool_resource pool_;
  std::uint32_t dirty_ = 0;
  // fifo / page_lru: dirty entries in eviction order, an intrusive list (kNoEntry ends it).
  std::vector<std::uint32_t> prev_, next_;
  std::uint32_t head_ = kNoEntry, tail_ = kNoEntry;
  // block_lru: logical blocks with dirty pages, least recently used first.
  std::pmr::list<std::uint64_t> blocks_{&pool_};
  std::pmr::unordered_map<std::uint64_t, Block> block_of_{&pool_};
  // block_lru: the block being handed over, its dirty entries in page order from `next` on.
  std::vector<std::uint32_t> draining_;
  std::size_t draining_next_ = 0;
  // Flush epochs: each entry's, and how many live entries each epoch from first_live_epoch_ to
  // the open one has: live_in_epoch_[live_head_ ..] (the first is non-zero unless it is the open
  // epoch). A vector with a moving head, not a deque: every insert and release counts here, and a
  // deque's indexing cost the image 30 instructions a page.
  std::vector<std::uint32_t> epoch_of_;
  std::vector<std::uint32_t> live_in_epoch_{0};
  std::size_t live_head_ = 0;
  std::uint32_t first_live_epoch_ = 0;
  void drop_settled_epochs();
};

}  // namespace ssd::fw
