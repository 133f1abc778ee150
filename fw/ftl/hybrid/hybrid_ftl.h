// The log-block hybrid FTL family (BAST, FAST, FASTer, LAST): data blocks mapped block by block
// (logical block -> physical block, page offset kept), log blocks mapped page by page, a free
// pool, and the three merges with their exact costs. A scheme decides only where a page that
// cannot be written in place goes, and which log block to merge when the log is full.
//
// - A "block" is a segment (fw/ftl/common/segment_space.h): segment_planes = 1 gives the single
//   physical blocks the papers assume; more planes stripe each block over channels and dies.
// - In place: a page goes into its data block only at the block's write pointer (NAND pages are
//   programmed in order), or, for a logical block without a data block, when it is page 0.
// - Switch merge: the log block holds the whole logical block in order; it becomes the data
//   block and the old data block is erased (1 erase).
// - Partial merge: the log block holds pages 0..k-1 of one logical block in order; the newest
//   copies of the rest are copied into it, then it is switched (copies + 1 erase).
// - Full merge: for each associated logical block, a free block receives the newest copy of
//   every page in order and the old data block is erased; then the log block is erased
//   (N_a x (copies + erase) + erase, LAST's Eq. 2). Pages up to the last written offset that
//   were never written are programmed as padding (in-order programming; counted apart).
// - A dead log block (no valid page) is reclaimed by a single erase.
// A full merge takes one free block per associated logical block and gets it back when that
// block's old data block is erased, so a small free pool suffices. Decisions (the mapping) are
// made at once; the flash work follows as dependent operations, whose per-block order the
// operation scheduler keeps. A merge lasts until its victim log block is erased (its log slot
// is free again). Reads never wait for merges. Writes, by ftl.merges (hybrid_params.h):
// - serial: one merge at a time, and every host write waits while one is in progress, as the
//   papers' single-chip simulators did (the default on one die);
// - concurrent (the default on more dies): a write that has room in the log goes ahead; one
//   whose log block (or log slot) needs a merge starts that merge and waits for it alone, while
//   merges of other log blocks run on other dies; writes wait behind an earlier waiting write of
//   the same logical block only. A further full merge starts beside running ones only when no
//   merge waits for a free block and the free pool holds a block for each of its logical blocks
//   beyond the reserve (ftl.free_blocks), so merges never wait on each other's blocks; otherwise
//   the write waits for the running merges.
// Merges are foreground work: a host write always waits for the merge it started, so its flash
// commands are not marked as background for channel.scheduler = host_first (letting other host
// work pass them would delay exactly the write waiting on them); they are marked as GC's on the
// waveform only.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <vector>

#include "fw/ftl/common/deferred_writes.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/ftl/common/ftl_counters.h"
#include "fw/ftl/ftl.h"
#include "fw/ftl/hybrid/hybrid_params.h"
#include "fw/ftl/hybrid/sequential_log.h"

namespace ssd::fw {

class HybridFtl : public Ftl {
 public:
  HybridFtl(FtlContext& ctx, const HybridParams& params);

  Lpn logical_pages() const override { return params_.logical_pages; }
  std::uint32_t logical_block_pages() const override { return space_.segment_pages(); }
  OpRef read(const PageRead& page) override;
  WriteOutcome write(const PageWrite& page) override;
  OpRef trim(Lpn lpn) override;
  SegmentSpace* segment_space() override { return &space_; }
  std::uint32_t close_word_lines(std::uint32_t word_line_pages, BlockId only) override;
  Ppn locate(Lpn lpn) const override;
  bool holds_valid_page(Ppn ppn) const override { return space_.holds_valid(ppn); }
  // The block map (a 4-byte physical block a logical block) and every log block's page map (a
  // 4-byte logical page a page: which page it holds, as the log's tables keep it).
  std::uint64_t checkpoint_bytes() const override {
    return (std::uint64_t(params_.logical_blocks) + std::uint64_t(params_.log_blocks) * space_.segment_pages()) * 4;
  }
  // See sequential_fill_preload.cpp.
  bool preload_sequential_fill(const std::function<Token(Lpn)>& token_of) override;
  // See mount.cpp.
  std::string mount(const MountImage& image, std::function<void()> settled) override;

  static constexpr std::uint32_t kNone = 0xffffffffu;

 protected:
  // Where a page that cannot go in place should go: append to `block`, or merge `victim` first
  // (the scheme is asked again afterwards). Neither: wait (no free block).
  struct LogTarget {
    std::uint32_t block = kNone;
    std::uint32_t victim = kNone;
  };
  virtual LogTarget log_target(const PageWrite& page) = 0;
  // `block` left the log (merged into a data block, or being erased): drop it from the scheme's
  // structures.
  virtual void on_log_block_gone(std::uint32_t block) = 0;
  // Before `victim` is merged (FASTer's second chance). Default: nothing.
  virtual void before_merge(std::uint32_t victim) { (void)victim; }
  // A page was programmed into a log block (by the host, or copied by second chance).
  virtual void on_log_page(Spn spn, bool copied) {
    (void)spn;
    (void)copied;
  }
  // A host write of `page` arrived (before it is placed or deferred): ADAPT's request history.
  virtual void on_host_write(const PageWrite& page) { (void)page; }
  // After a sequential fill laid out directly (preload_sequential_fill): sets what the scheme
  // would have learnt from one-page writes of every logical page in order (WAFTL's write counts,
  // ADAPT's request history). Default: it learns nothing.
  virtual void on_sequential_fill() {}
  // The copy at `spn` stopped being valid: superseded by a host write (`by_host`), or by a
  // second-chance or merge copy.
  virtual void on_invalidated(Spn spn, bool by_host) {
    (void)spn;
    (void)by_host;
  }

  // A valid page was copied to `to` (a merge or a second chance): MNK counts copies per module.
  virtual void on_copy(Spn to) { (void)to; }
  // A log block whose pages have all been merged (or died) is about to be erased: return true to
  // keep it instead, as a log block the scheme takes back (MNK's recycling). Default: erase it.
  virtual bool recycles(std::uint32_t block) {
    (void)block;
    return false;
  }
  // Whether a merge should leave the page at `spn` (a valid log copy of a logical block being
  // merged) where it is: WAFTL's page-mapped blocks keep their pages through a merge of the
  // logical block. The data block's page at that offset is programmed as padding (in order) and
  // stays invalid. Default: every log copy is merged.
  virtual bool keeps_log_copy(Spn spn) const {
    (void)spn;
    return false;
  }

  // --- services for schemes ---
  std::uint32_t pages_per_block() const { return space_.segment_pages(); }
  std::uint32_t lbn_of(Lpn lpn) const { return lpn / space_.segment_pages(); }
  std::uint32_t offset_of(Lpn lpn) const { return lpn % space_.segment_pages(); }
  std::uint32_t write_pointer(std::uint32_t block) const { return write_pointer_[block]; }
  // A block holding a grown bad block takes no more writes: as good as full.
  bool full(std::uint32_t block) const {
    return write_pointer_[block] == space_.segment_pages() || space_.retiring(block);
  }
  std::uint32_t valid_pages(std::uint32_t block) const { return space_.valid_count(block); }
  Spn first_spn(std::uint32_t block) const { return space_.first_spn(block); }
  bool valid(Spn spn) const { return space_.is_valid(spn); }
  Lpn log_page_lpn(Spn spn) const { return page_lpn_[spn]; }
  Spn log_copy(Lpn lpn) const { return log_copy_[lpn]; }  // newest copy if it is in a log block
  std::uint32_t block_of(Spn spn) const { return space_.segment_of(spn); }
  // Whether merging `block` would be a switch merge (it holds one logical block whole, in order).
  bool switchable(std::uint32_t block) const {
    const std::uint32_t owner = sole_owner(block);
    return full(block) && owner != kNone && in_order_prefix(block, owner);
  }
  // Whether merging `block` would be a switch or partial merge (an in-order prefix of one
  // logical block), not a full merge.
  bool merges_as_prefix(std::uint32_t block) const {
    const std::uint32_t owner = sole_owner(block);
    return owner != kNone && in_order_prefix(block, owner);
  }
  // What a large request's page of `lpn` does with its logical block's block in the sequential
  // log `log` (SequentialLog::step); `own` receives that block (kNone: none).
  SequentialLog::Step sequential_step(const SequentialLog& log, Lpn lpn, bool close_on_misfit,
                                      std::uint32_t& own) const {
    own = log.own(lbn_of(lpn));
    return SequentialLog::step(own, offset_of(lpn), own == kNone ? 0 : write_pointer(own), own != kNone && full(own),
                               close_on_misfit);
  }
  // Logical blocks with a valid page in `block` (its associativity degree N_a).
  std::uint32_t associativity(std::uint32_t block) const;
  std::uint32_t log_blocks_in_use() const { return log_count_; }
  std::uint32_t free_blocks() const { return space_.free_segments(); }
  const HybridParams& params() const { return params_; }
  // Takes a free block as a log block; kNone when the log is at its cap (unless `beyond_cap`,
  // for FASTer's rear block while its head is merged) or no free block is left.
  std::uint32_t open_log_block(bool beyond_cap = false);
  // The same from one plane group (kNone when it has no free block or the log is at its cap).
  std::uint32_t open_log_block_in(std::uint32_t group);
  std::uint32_t plane_groups() const { return space_.groups(); }
  std::uint32_t plane_group_of(std::uint32_t block) const { return space_.group_of(block); }
  std::uint32_t free_blocks_in_group(std::uint32_t group) const { return space_.free_segments_in_group(group); }
  std::uint64_t erases_in_group(std::uint32_t group) const { return space_.erases_in_group(group); }
  // Copies the valid log page `from` to the end of log block `to` (second chance).
  void copy_to_log(Spn from, std::uint32_t to);
  FtlContext& context() { return ctx_; }

 private:
  enum Kind : std::uint8_t { kData = 0, kLog = 1 };
  // A merge in progress: the victim log block (erased last) and the logical blocks its full
  // merge has still to do, for want of free blocks (popped from the back: ascending).
  struct Merge {
    std::uint32_t victim = kNone;
    std::vector<std::uint32_t> plan;
    bool starting = false;  // start_merge is issuing it (a recycled victim may end it at once)
  };
  using MergeRef = std::list<Merge>::iterator;

  Spn current(Lpn lpn) const;  // newest copy, kNoSpn if never written
  // Invalid when the page must wait; then `awaits` (concurrent merges) names the victim of the
  // merge it waits for, or DeferredWrites::kNoTag (a free block, a log slot: any merge's end).
  OpRef try_place(const PageWrite& page, std::uint32_t* awaits = nullptr);
  OpRef program_host_page(std::uint32_t block, const PageWrite& page);
  void supersede(Lpn lpn, Spn now_at, bool by_host);
  // Merges: return true when the log has room again at once (switch, partial).
  bool start_merge(std::uint32_t victim);
  // Concurrent merges: whether merging `victim` beside the running merges is safe now.
  bool may_start_merge(std::uint32_t victim) const;
  MergeRef find_merge(std::uint32_t victim);  // merges_.end() when none merges it
  bool merge_in_flight(std::uint32_t victim);
  bool holds_page_of(std::uint32_t block, std::uint32_t lbn) const;  // a valid page of lbn
  std::uint32_t sole_owner(std::uint32_t log_block) const;  // logical block of all valid pages, or kNone
  bool in_order_prefix(std::uint32_t log_block, std::uint32_t lbn) const;
  void partial_merge(std::uint32_t log_block, std::uint32_t lbn);
  void switch_to_data(std::uint32_t log_block, std::uint32_t lbn);
  // Runs the merge's plan as far as free blocks allow, then erases (or recycles) its victim;
  // true when the merge ended here (a recycled victim).
  bool continue_full_merge(MergeRef merge);
  void feed_waiting_merges();  // a block came free: merges waiting for one go on, oldest first
  void merge_logical_block(std::uint32_t lbn);  // one full-merge step
  // Copies the newest copies of lbn's pages at offsets [from, last written] into `block`.
  void copy_pages(std::uint32_t lbn, std::uint32_t block, std::uint32_t from);
  void retire_data_block(std::uint32_t block);  // erases it; the free block may resume a merge
  void erase_log_block(std::uint32_t block);
  void block_erased(std::uint32_t block);  // back in the free pool
  void merge_done(std::uint32_t victim);
  void end_merge(MergeRef merge);  // drops it and tells the waveform
  void retry_deferred();
  void next_mount_merge();  // the mount's merges, one after another (mount.cpp)

  FtlContext ctx_;
  FtlCounters counts_;
  HybridParams params_;
  SegmentSpace space_;
  std::vector<std::uint32_t> data_block_;     // logical block -> block (kNone: no data block)
  std::vector<std::uint32_t> write_pointer_;  // block -> next offset to program
  std::vector<Spn> log_copy_;                 // lpn -> its newest copy in a log block (kNoSpn: none)
  std::vector<Lpn> page_lpn_;                 // log page -> the logical page it holds
  // Logical pages trimmed and not written since: a merge pads their offset with a page that is
  // never valid, so no later merge copies it (a never-written offset's padding stays valid, as it
  // always was: the papers' reproductions count its copies).
  std::vector<bool> deallocated_;
  TableRegion block_map_table_, log_map_table_;
  std::uint32_t log_count_ = 0;
  std::uint32_t pending_erases_ = 0;  // blocks on their way back to the free pool
  std::list<Merge> merges_;  // in progress, oldest first (serial: at most one)
  DeferredWrites deferred_;
  std::uint64_t now_ = 0;
  std::vector<std::uint32_t> mount_merges_;  // log blocks the mount has still to merge (popped from the back)
  std::function<void()> mount_settled_;      // the mount's end, while it merges
  std::uint64_t &switch_merges_, &partial_merges_, &full_merges_, &dead_blocks_, &recycled_blocks_, &merge_copies_,
      &padding_pages_,
      &full_merge_associativity_, &in_place_writes_, &log_writes_;
  double& max_associativity_;
  LatencyHistogram& associativity_histogram_;  // N_a of every full merge
};

}  // namespace ssd::fw
