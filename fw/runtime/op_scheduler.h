// Keeps many flash operations in flight: an FTL decides (mapping updated at decision time),
// emits operations with their dependencies, and the scheduler hands each one to the HAL when
// its predecessors are done.
//
// Ordering hazards are resolved here from the addresses, so no FTL has to remember them:
//  - a read of a page whose program is in flight waits for that program;
//  - programs to one block are issued in the order they were submitted (in-order page
//    programming), even when an earlier one waits for data;
//  - an erase waits until every earlier-submitted read or program of its block has completed,
//    including reads submitted after the erase but before it was issued (a page still valid at
//    decision time must be read before its block is erased);
//  - a program submitted to a block whose erase is pending waits for the erase, and belongs to
//    the block's next epoch: the block's next erase waits for it;
//  - with hold_copy_sources (firmware.erase_after_copies): a read whose data a program writes
//    elsewhere (a copy, a merge's read-modify-write, directly or through joins, or a program of
//    the page's logical page and data that the read's own completion callback submits) keeps its
//    block from being erased until that program has completed: the data is on the flash in its
//    new place before its old place is erased, so a power cut between the two cannot lose it.
//    Without it an erase waits for the reads only, and a power cut between a GC's or a merge's
//    erase and its copies' programs loses the data (the power-cut audit finds it).
// A read of a block whose erase is already issued is a firmware bug and throws.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/metrics.h"
#include "fw/hal/hal.h"
#include "fw/runtime/firmware_costs.h"
#include "fw/runtime/op_ref.h"

namespace ssd::fw {

using OpCallback = std::function<void(const HalResult&)>;

class OpScheduler : public HalListener {
 public:
  // The data buffer is a ring of `buffer_slots` page slots placed in DRAM; each flash or DMA
  // operation moves its data through the next slot (addresses only: the buffer does not yet
  // limit how many operations are in flight).
  OpScheduler(Hal& hal, const FirmwareCosts& costs, MetricSet& metrics, std::uint32_t buffer_slots = 1024);

  // Builders: the op is held until submit(), so dependencies can be added first.
  OpRef read(Ppn ppn, Token* sink = nullptr);
  OpRef read_oob(Ppn ppn);  // the spare area only: the result's lpn and token, via on_complete
  // merge_with: if set, the programmed token is merge_tokens(*merge_with, token), resolved when
  // the program is issued (read-modify-write: *merge_with is filled by the old page's read).
  OpRef program(Ppn ppn, Lpn lpn, Token token, const Token* merge_with = nullptr);
  // A copy (merge, relocation decided before its source is read): the programmed token is
  // *source, read when the program is issued; *source is filled by the read it depends on.
  OpRef program_copy(Ppn ppn, Lpn lpn, const Token* source);
  // Hints that a program of the same page offset on another plane of its die follows soon: the
  // die may hold this one up to `ns` to run both as one multi-plane program.
  void expect_partner(OpRef program, std::uint32_t ns);
  // The program runs in SLC mode (HalOp::slc): its block must be erased or written in SLC mode.
  void program_in_slc_mode(OpRef program);
  OpRef erase(BlockId block);
  // Completes `ns` after it is issued (an untimed HAL completes it at once): the firmware's timer,
  // e.g. for work that waits until the host has been idle that long.
  OpRef timer(std::uint32_t ns);
  OpRef host_dma(OpKind direction, std::uint32_t host_cmd, std::uint32_t bytes);
  OpRef join();

  void on_complete(OpRef op, OpCallback callback);  // runs before successors are released
  void depend(OpRef before, OpRef after);           // `after` waits for `before` to complete
  void submit(OpRef op);

  // Operations built while one lives are the firmware's own work (GC), not a host request's:
  // the hardware may let host work pass them (channel.scheduler = host_first).
  // Their origin is GC unless a Purpose scope inside says otherwise.
  class Background {
   public:
    explicit Background(OpScheduler& s) : s_(s), saved_(s.background_), saved_origin_(s.origin_) {
      s.background_ = true;
      if (s.origin_ == OpOrigin::Host) s.origin_ = OpOrigin::Gc;
    }
    ~Background() { s_.background_ = saved_, s_.origin_ = saved_origin_; }
    Background(const Background&) = delete;
    Background& operator=(const Background&) = delete;

   private:
    OpScheduler& s_;
    bool saved_;
    OpOrigin saved_origin_;
  };

  // Operations built while one lives are marked as `origin`'s work in the waveform (a hybrid's
  // merges as GC, translation pages as mapping), without changing how the hardware orders them.
  class Purpose {
   public:
    Purpose(OpScheduler& s, OpOrigin origin) : s_(s), saved_(s.origin_) { s.origin_ = origin; }
    ~Purpose() { s_.origin_ = saved_; }
    Purpose(const Purpose&) = delete;
    Purpose& operator=(const Purpose&) = delete;

   private:
    OpScheduler& s_;
    OpOrigin saved_;
  };

  // Whose latency the operations submitted meanwhile count towards (common/latency_trail.h): a
  // host command's trail while the firmware handles it; while an operation's completion callback
  // runs, that operation's trail (set by the scheduler). Restores the previous one when it ends.
  class Attribution {
   public:
    Attribution(OpScheduler& s, const LatencyTrail& trail) : s_(s), saved_(s.context_) { s.context_ = trail; }
    ~Attribution() { s_.context_ = saved_; }
    Attribution(const Attribution&) = delete;
    Attribution& operator=(const Attribution&) = delete;

   private:
    OpScheduler& s_;
    LatencyTrail saved_;
  };
  // Power loss with capacitors holding the drive up (FirmwareConfig::plp): the operations built
  // while one lives are the firmware's dump of its write buffer. Their flash commands go ahead of
  // every command a die has not started (HalOp::hold_up), so the dump is not queued behind the
  // FTL's merges; and their programs' OOB sequence numbers are set above any the rest of the
  // hold-up can reach (kHoldUpVersionGap): a dump page holds its logical page's newest data,
  // while whatever the FTL still programs in the hold-up (an eviction it had begun, a merge's
  // copies) holds older data or a copy, and must not outrank it in recovery. The FTL's work goes
  // on meanwhile (its data may exist nowhere else: a copy whose source is erased) unless
  // hold_for_power_loss stopped it.
  class HoldUpWork {
   public:
    explicit HoldUpWork(OpScheduler& s) : s_(s) {
      if (s.hold_up_base_ == 0) {
        if (s.next_version_ > ~std::uint32_t(0) - 2 * kHoldUpVersionGap)
          throw std::logic_error("the OOB's 32-bit sequence numbers leave no room for a power-loss dump");
        s.hold_up_base_ = s.next_version_ + kHoldUpVersionGap;
      }
      s.hold_up_scope_ = true;
    }
    ~HoldUpWork() { s_.hold_up_scope_ = false; }
    HoldUpWork(const HoldUpWork&) = delete;
    HoldUpWork& operator=(const HoldUpWork&) = delete;

   private:
    OpScheduler& s_;
  };
  // Programs the hold-up can number before its dump's versions: more than any hold-up submits.
  static constexpr std::uint32_t kHoldUpVersionGap = 1u << 24;
  // And when every copy's source stays on the flash until the copy is programmed
  // (set_hold_copy_sources), the firmware may stop the FTL's work at the power-loss signal: from
  // hold_for_power_loss() on, a program or erase not built in a HoldUpWork scope is never issued
  // (counted in "parked_for_power_loss"), so none can be torn at the hold-up's end and take a
  // word line's earlier pages with it. Without held sources a copy's data may be in DRAM only
  // (its source erased): then the work must go on, and this throws.
  void hold_for_power_loss() {
    if (!hold_copy_sources_)
      throw std::logic_error("stopping the FTL's work at a power loss needs copy sources held (erase_after_copies)");
    power_lost_ = true;
    parked_ = &metrics_.counter("parked_for_power_loss");
  }

  // The trail of the work being done now (what a completion entry posted now carries on).
  const LatencyTrail& attribution() const { return context_; }

  bool alive(OpRef op) const {
    return op.valid() && ops_[op.index].gen == op.gen && ops_[op.index].state != State::Free;
  }
  std::uint64_t in_flight() const { return live_; }
  // The operations not finished, the first `most` described (kind, state, page, what holds
  // them): "" when none. At the end of a run, when nothing is left to happen, any is a deadlock.
  std::string describe_unfinished(std::size_t most = 8) const;
  // Programs submitted outside a Background scope (the host's data) and not completed yet.
  std::uint64_t host_programs_in_flight() const { return host_programs_; }

  // Read disturb: counts the flash reads issued to each block since its last erase completed
  // and calls `reached(block)` when a block's count reaches `threshold` (once per erase); 0: no
  // counting. The count is part of the block's record.
  void set_hold_copy_sources(bool hold) { hold_copy_sources_ = hold; }
  // Word-line safety (MLC/TLC: `word_line_pages` consecutive pages of a block share a word line,
  // and a power cut during a later page's program corrupts the earlier ones): a copy holds its
  // source block until its whole word line is programmed, not only its own page. When a source's
  // erase waits for nothing else and the rest of such a word line is not yet submitted,
  // `open(block)` is called for the copy's block (after the completion at hand is handled) so the
  // firmware closes its word line (Ftl::close_word_lines).
  void watch_open_word_lines(std::uint32_t word_line_pages, std::function<void(BlockId)> open) {
    word_line_pages_ = word_line_pages;
    word_line_open_ = std::move(open);
  }
  // The pages sharing a word line that a copy waits to see programmed (1: copies do not wait).
  std::uint32_t copy_word_line_pages() const { return word_line_open_ ? word_line_pages_ : 1; }
  // From track_host_written_blocks() on: the blocks the host's programs (outside a Background
  // scope) went to since the last take, each once (where a flush must close the word lines).
  void track_host_written_blocks() { host_written_mark_.assign(geo_.total_blocks(), false); }
  std::vector<BlockId> take_host_written_blocks();
  // Whether a program submitted to `block` will close the word lines its held copies wait for.
  bool word_line_closing(BlockId block) const;
  // Gives up the copies' holds on `block`'s word lines (a block written no further: its word
  // line will never close), letting their sources be erased.
  void release_word_line_holds(BlockId block);
  // A join, to build on and submit, that completes once every program submitted so far has
  // completed: a durability point (a flush), after which no program under way can be torn.
  OpRef programs_barrier();
  // A firmware mounting the flash after a power cut numbers its programs after the highest
  // sequence number the flash holds, so its writes are the newest versions to any later scan.
  void number_versions_after(std::uint32_t highest) { next_version_ = std::max(next_version_, highest); }
  void watch_reads(std::uint32_t threshold, std::function<void(BlockId)> reached) {
    read_threshold_ = threshold;
    read_threshold_reached_ = std::move(reached);
  }
  // Bad blocks: a program or erase whose status reports failure (HalResult::failed) is handed to
  // `failed` before the operation's own callback and its successors run: the page (with the
  // logical page and data it was to hold, which the data buffer still has) or the block's first.
  struct OpFailure {
    OpKind kind;
    Ppn ppn;
    Lpn lpn;
    Token token;
  };
  void watch_failures(std::function<void(const OpFailure&)> failed) { op_failed_ = std::move(failed); }

  // Erases of the block completed so far, and whether one is pending or issued: a block whose
  // erase is under way may not be read (see above).
  std::uint32_t erases_completed(BlockId block) const { return blocks_[block].epoch; }
  bool erase_pending(BlockId block) const { return blocks_[block].erase.valid(); }

  void on_hal_complete(std::uint32_t tag, const HalResult& result) override;

 private:
  enum class State : std::uint8_t { Free, Building, Waiting, Issued };
  struct Op {
    std::uint32_t gen = 0;
    State state = State::Free;
    OpKind kind = OpKind::Join;
    std::uint8_t epoch_slot = 0;  // which of its block's in-flight counters it is counted in
    bool wait_chain = false;      // waits for the previous program of its block to be issued
    bool held = false;            // its dependencies are done, but a block-order rule holds it
    bool background = false;      // built under a Background scope
    OpOrigin origin = OpOrigin::Host;
    bool slc = false;  // a program in SLC mode (in the padding before ppn: the record keeps its size)
    Ppn ppn = kNoPpn;
    Lpn lpn = kNoLpn;
    Token token = 0;
    std::uint32_t bytes = 0, host_cmd = 0, pending = 0, partner_wait_ns = 0;  // bytes: a timer's ns
    const Token* merge_with = nullptr;
    const Token* copy_from = nullptr;
    Token* sink = nullptr;
    OpRef chain_next;  // next program of the block still waiting to be issued after this one
    OpRef block_next;  // next program of the block submitted after this one (in-flight list)
    std::vector<std::uint32_t> successors;
    OpCallback callback;
    LatencyTrail trail;  // the critical path it continues (common/latency_trail.h)
  };
  struct BlockHazard {
    // Reads/programs not yet completed, per epoch (parity of erases completed): the current
    // epoch's must drain before an erase; the next epoch's were submitted after it.
    std::uint32_t inflight[2] = {0, 0};
    std::uint32_t epoch = 0;
    OpRef last_program;    // newest submitted program not yet issued
    OpRef oldest_program;  // in-flight programs, oldest first, linked by block_next
    OpRef newest_program;
    OpRef erase;                // pending or issued erase
    bool erase_parked = false;  // erase ready but waiting for the current epoch to drain
    bool erase_issued = false;
    std::uint32_t reads = 0;  // flash reads issued since the last erase (watch_reads)
  };

  // An operation's record as the Cortex-R5 image lays it out (the ops_ array), for the
  // firmware's record accesses (Hal::touch_record): a record is written when it is built, issued
  // and completed, and a successor's when a predecessor completes. Placed again wherever the
  // array grows (it moves, as a vector does in the image's heap).
  static constexpr std::uint32_t kOpRecordBytes = 100;
#ifdef SSD_TARGET_BUILD
  static_assert(sizeof(Op) == kOpRecordBytes, "kOpRecordBytes is an operation record's size in the image");
#endif
  void place_op_records();
  void touch_op(std::uint32_t index, Access access);
  OpRef allocate(OpKind kind);
  void apply_hazards(std::uint32_t index);
  void make_ready(std::uint32_t index);
  void issue(std::uint32_t index);
  void complete(std::uint32_t index, const HalResult& result);
  // A block's in-flight access of `slot` ended: an erase parked for the epoch may go.
  void release_block(BlockId block, std::uint8_t slot, std::uint64_t now);
  // A completing read's data feeds these programs (see the hazard rules): each holds the read's
  // block until it completes.
  void hold_source(std::uint32_t read, std::uint32_t op);
  // A completing read's OOB version goes to the program_copy successors that copy its data.
  void pass_version(const Token* sink, std::uint32_t op, std::uint32_t version);
  std::uint32_t new_version();
  void drain();
  OpRef program_in_flight(Ppn ppn) const;
  std::uint64_t buffer_address();

  Hal& hal_;
  const FirmwareCosts& costs_;
  MetricSet& metrics_;
  FlashGeometry geo_;
  std::vector<Op> ops_;
  // Each program's OOB sequence number (the data's version: recovery after a power cut keeps a
  // logical page's highest), beside the records, which keep the image's layout.
  std::vector<std::uint32_t> versions_;
  std::uint32_t next_version_ = 0;
  // The dump's versions (HoldUpWork): from hold_up_base_ on (0: no dump yet); per record, whether
  // it is the dump's (written only while a HoldUpWork lives).
  std::uint32_t hold_up_base_ = 0, hold_up_next_ = 0;
  std::vector<std::uint8_t> hold_up_;
  bool hold_up_scope_ = false;
  bool hold_up_work(std::uint32_t index) const { return hold_up_base_ && hold_up_[index]; }
  bool power_lost_ = false;  // see hold_for_power_loss
  std::uint64_t* parked_ = nullptr;
  std::vector<std::uint32_t> free_;
  std::vector<BlockHazard> blocks_;
  std::vector<std::uint32_t> ready_;
  bool draining_ = false;
  bool background_ = false;           // see Background
  OpOrigin origin_ = OpOrigin::Host;  // see Purpose
  std::uint64_t host_programs_ = 0;
  std::uint64_t live_ = 0;
  std::uint32_t buffer_slots_, buffer_slot_ = 0;  // the data-buffer ring: its size, the next slot
  TableRegion data_buffer_;
  TableRegion op_records_;
  std::uint64_t* issued_[7];
  std::uint64_t* timers_ = nullptr;   // registered by the first timer (runs without have no such counter)
  LatencyTrail context_;              // see Attribution
  std::uint32_t read_threshold_ = 0;  // see watch_reads
  std::function<void(BlockId)> read_threshold_reached_;
  std::function<void(const OpFailure&)> op_failed_;  // see watch_failures
  // Programs holding the blocks whose data they copy (op index -> blocks and epoch slots); a map
  // beside the records, which keep the image's layout.
  std::unordered_map<std::uint32_t, std::vector<std::pair<BlockId, std::uint8_t>>> holding_;
  struct CopySource {  // the read whose completion callback runs, and what it read
    BlockId block = 0;
    std::uint8_t slot = 0;
    Lpn lpn = kNoLpn;
    Token token = 0;
    std::uint32_t version = 0;
    bool active = false;
  } copy_source_;
  bool hold_copy_sources_ = false;
  // Word-line safety (watch_open_word_lines): per destination block, the copies' holds waiting
  // for their word line to close (the word line's last page in the block, the source and slot).
  struct WordLineHold {
    std::uint32_t last_page;
    BlockId source;
    std::uint8_t slot;
  };
  void hold_until_word_line_closes(BlockId block, std::uint32_t page,
                                   std::vector<std::pair<BlockId, std::uint8_t>> sources, std::uint64_t now);
  void release_closed_word_lines(BlockId block, std::uint32_t page, std::uint64_t now);
  // If `source`'s erase waits only for copies in open word lines: asks for them to be closed.
  void want_word_lines_closed(BlockId source);
  std::unordered_map<std::uint64_t, std::uint32_t> word_line_held_;  // source * 2 + slot -> holds
  std::uint32_t word_line_pages_ = 1;
  std::function<void(BlockId)> word_line_open_;
  std::unordered_map<BlockId, std::vector<WordLineHold>> word_line_holds_;
  std::vector<BlockId> open_word_lines_;  // to hand to word_line_open_ once a completion is handled
  std::vector<BlockId> host_written_;     // take_host_written_blocks
  std::vector<bool> host_written_mark_;   // per block: in host_written_
};

}  // namespace ssd::fw
