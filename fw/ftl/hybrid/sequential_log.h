// The sequential log blocks LAST and ADAPT share: block-associative log blocks, each holding one
// logical block's pages written in page order from offset 0, so that it always holds an in-order
// prefix of its logical block and leaves by a switch (whole) or partial (prefix) merge.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ssd::fw {

class SequentialLog {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  // What a page of a large request does (see step()).
  enum class Step {
    kAppend,    // continues its logical block's sequential block in order: write it there
    kMergeOwn,  // restarts its logical block (offset 0), or a misfit that closes it: merge that block first
    kMisfit,    // does not continue in order and cannot open a block: the random area takes it
    kOpen,      // offset 0 with no sequential block of its own: open one (or make room first)
  };

  explicit SequentialLog(std::uint32_t blocks) : lbn_(blocks, kNone), written_at_(blocks, 0) {}

  // The step for the page at `offset` of a logical block whose sequential block is `own` (kNone:
  // none), which has `own_written` pages and is `own_full`; close_on_misfit: a page that breaks
  // the order merges its block first (LAST's sequential_misfit=close).
  static Step step(std::uint32_t own, std::uint32_t offset, std::uint32_t own_written, bool own_full,
                   bool close_on_misfit) {
    if (own != kNone) {
      if (own_written == offset && !own_full) return Step::kAppend;
      if (offset == 0 || close_on_misfit) return Step::kMergeOwn;
    }
    return offset == 0 ? Step::kOpen : Step::kMisfit;
  }

  std::uint32_t own(std::uint32_t lbn) const {
    for (std::uint32_t b : blocks_)
      if (lbn_[b] == lbn) return b;
    return kNone;
  }
  bool contains(std::uint32_t block) const { return lbn_[block] != kNone; }
  std::size_t size() const { return blocks_.size(); }
  const std::vector<std::uint32_t>& blocks() const { return blocks_; }

  // Kept in block order, so that scans (and ties) do not depend on allocation history.
  void add(std::uint32_t block, std::uint32_t lbn) {
    lbn_[block] = lbn;
    blocks_.insert(std::lower_bound(blocks_.begin(), blocks_.end(), block), block);
  }
  void remove(std::uint32_t block) {
    if (!contains(block)) return;
    lbn_[block] = kNone;
    blocks_.erase(std::find(blocks_.begin(), blocks_.end(), block));
  }
  void written(std::uint32_t block, std::uint64_t stamp) { written_at_[block] = stamp; }

  // Which block to merge when the area needs room: one holding its whole logical block (a
  // switch merge) first, else the least recently written (a partial merge). `switchable` is
  // asked only here, not on every page that continues its block.
  template <class Switchable>
  std::uint32_t victim(Switchable switchable) const {
    std::uint32_t lru = kNone;
    for (std::uint32_t b : blocks_) {
      if (switchable(b)) return b;
      if (lru == kNone || written_at_[b] < written_at_[lru]) lru = b;
    }
    return lru;
  }

 private:
  std::vector<std::uint32_t> blocks_;         // ascending
  std::vector<std::uint32_t> lbn_;            // per block: its logical block (kNone: not sequential)
  std::vector<std::uint64_t> written_at_;     // per block: stamp of its last page write
};

}  // namespace ssd::fw
