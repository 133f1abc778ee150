// The firmware runtime on the controller core: takes fetched host commands, splits them into
// logical pages, asks the FTL for the flash work (partial pages as read-modify-write), moves
// host data by DMA, and completes each command when all its operations are done.
//
// Host data occupies the DRAM data buffer: a command takes one buffer page per logical page it
// touches, from admission until its data has moved on (writes: into the write buffer, or
// programmed without one; reads: sent to the host). A command that finds too few free pages
// waits, in arrival order, so the buffer bounds the host data in flight. (GC copies are staged
// outside this accounting.)
//
// The write buffer (fw/firmware/write_buffer.h), when on, holds written pages after the write is
// acknowledged, until its policy evicts them to the FTL: in the background once more than
// high_water of it is dirty, and at once when a write needs room (the write waits for it).
// Evictions start only while fewer than flush_depth x the drive's planes evicted pages are in
// flight (programs not done; a drive-wide count, so about flush_depth per plane where the FTL
// spreads its writes); the rest wait dirty in the buffer. block_lru hands a logical block's dirty
// pages over in page order in chunks that fit the limit, finishing one block before the next, so
// the block still reaches the FTL as one in-order run. Without a limit an eviction burst
// queues hundreds of programs per die, and a host read or read-modify-write that lands behind
// them waits for all of them (a fresh 512 GiB drive's 4 KiB random writes: p99.9 18.5 ms
// unlimited, 1.5 ms at depth 2; bench/README.md "Write-buffer flush depth").
//
// Durability (common/host_op.h). A flush closes the write buffer's flush epoch and completes once
// every page buffered before it is programmed: it queues the pages dirty at its arrival, in the
// policy's order, and they are evicted ahead of any other (within the flush limit), while new
// writes go on being buffered and evicted as usual. Flushes complete in arrival order; the wait
// is their latency's flush_wait stage. A FUA write is buffered as any write (it is the
// newest copy reads find), then its own pages are handed to the FTL at once, out of the policy's
// order and past the flush limit, and it completes when they are programmed. Without a write
// buffer every write completes on the flash already: a flush completes at once.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "common/metrics.h"
#include "fw/ftl/ftl.h"
#include "fw/hal/hal.h"
#include "fw/runtime/firmware_costs.h"
#include "fw/firmware/host_command.h"
#include "fw/firmware/plp_dump.h"
#include "fw/recovery/map_checkpointer.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/firmware/bad_block_handler.h"
#include "fw/firmware/block_mover.h"
#include "fw/firmware/write_buffer.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

struct WriteBufferConfig {
  WriteBufferPolicy policy = WriteBufferPolicy::kOff;
  std::uint64_t bytes = 0;  // its DRAM (the platform derives it from firmware.write_buffer_dram_share)
  double high_water = 0.75;  // dirty share above which it evicts in the background
  std::uint32_t flush_depth = 2;  // evicted pages in flight, per plane of the drive (0: no limit)
};

struct FirmwareConfig {
  FirmwareCosts costs;
  std::string ftl = "page_mapping";
  FtlOptions ftl_options;
  std::uint32_t buffer_slots = 1024;  // data-buffer pages for host data in flight
  WriteBufferConfig write_buffer;
  std::uint32_t read_reclaim_reads = 0;  // reads of a block since its erase that start its read reclaim (0: never)
  bool bad_blocks = false;  // the flash may have bad blocks or fail (fw/firmware/bad_block_handler.h)
  std::uint32_t read_only_margin = 4;  // usable segments beyond the FTL's need when it turns read-only
  WearLeveling wear_leveling;            // fw/ftl/common/wear_leveling.h
  bool erase_after_copies = false;  // OpScheduler::set_hold_copy_sources (power-loss safe GC and merges)
  // Word-line safety on MLC/TLC (Ftl::close_word_lines, OpScheduler::watch_open_word_lines);
  // word_line_pages: the pages sharing a word line (the part's bits per cell; 1: SLC).
  bool word_line_safety = false;
  std::uint32_t word_line_pages = 1;
  // Power-loss protection: capacitors (on_power_loss). The write buffer is then no volatile
  // cache: a flush completes at once and a FUA write is buffered like any other.
  bool plp = false;
  double plp_hold_up_us = 0;     // how long they hold the drive up
  // Where the buffered pages go in the hold-up: a dump area of the firmware's own
  // (fw/firmware/plp_dump.h), or the FTL as evictions (which may merge or collect first).
  enum class PlpDestage : std::uint8_t { Dump, Ftl };
  PlpDestage plp_destage = PlpDestage::Dump;
  // Map checkpoints (fw/recovery/map_checkpointer.h): one every this many bytes of host data the
  // FTL is given (0: none; the boot then scans every block).
  std::uint64_t checkpoint_interval_bytes = 0;
};

class Firmware : public HostCommandHandler {
 public:
  // Metrics go to sets "firmware", "firmware.ops" and "ftl". Throws FtlOptionError for unknown
  // FTLs or bad FTL parameters.
  Firmware(Hal& hal, FirmwareConfig config, MetricsRegistry& metrics);

  void on_host_command(const HostCommand& cmd) override;
  // The power went and capacitors hold the drive up (FirmwareConfig::plp): host commands are no
  // longer taken, no failed block is repaired, and every page of the write buffer is programmed
  // into the dump area (plp_destage = dump), or every dirty one goes to the FTL at once, whatever
  // the flush limit (plp_destage = ftl).
  void on_power_loss();
  // Whether, at the power loss, the FTL's work stops and only the dump runs (every copy's source
  // is then still on the flash: erase_after_copies), so the hold-up's end tears nothing; else
  // the FTL's work goes on behind the dump (OpScheduler::hold_for_power_loss).
  bool stops_work_at_power_loss() const { return plp_dump_ && config_.erase_after_copies; }

  // Map checkpoints (FirmwareConfig::checkpoint_interval_bytes): where they record their content
  // (fw/recovery/checkpoint_medium.h), and their slots' blocks, which the boot knows as the
  // format's (empty without checkpoints).
  void set_checkpoint_medium(CheckpointMedium* medium) {
    if (checkpointer_) checkpointer_->set_medium(medium);
  }
  // A checkpoint now (the factory image's, after preconditioning); false: none started.
  bool checkpoint_now() { return checkpointer_ && checkpointer_->checkpoint_now(); }
  std::vector<BlockId> checkpoint_blocks() const { return checkpointer_ ? checkpointer_->blocks() : std::vector<BlockId>{}; }

  // After a power cut and its boot (--after-recovery continue), on a firmware just made over the
  // flash: takes over what the boot found (fw/recovery/mount_image.h; firmware_mount.cpp). `done`
  // runs, in a job, once the mount's own flash work is done; host commands may follow.
  struct MountCounts {
    std::uint64_t dump_pages_restored = 0;  // a power-loss dump's pages read back into the write buffer
    std::uint64_t dump_blocks_erased = 0;
  };
  void mount(const MountImage& image, std::function<void(const MountCounts&)> done);
  // The bad-block table the firmware keeps on flash, for the next firmware's mount: the blocks its
  // space knows bad (worn out before the run, or failed in it), not the factory's (the format's
  // own table) nor the blocks it held back for itself.
  std::vector<BlockId> grown_bad_blocks() const;

  // While bypassed (preconditioning: the factory image), writes go straight to the FTL.
  void bypass_write_buffer(bool bypass) { bypass_ = bypass; }
  // After preconditioning: what it wrote is the drive's durable baseline, so with word-line
  // safety every word line it left open is padded (the HAL then runs the programs). Returns the
  // padding pages.
  std::uint32_t close_all_word_lines() {
    return closes_word_lines() ? ftl_->close_word_lines(config_.word_line_pages, kNoBlock) : 0;
  }
  // The newest data of `lpn` if the write buffer holds it (the flash may hold an older copy).
  // The pages the write buffer holds (each one's newest copy), by logical page: what a whole-drive
  // check compares instead of the flash for them (one pass, no lookup per logical page).
  std::vector<std::pair<Lpn, Token>> buffered_pages() const;
  // Of them, those whose newest copy a power loss's dump has not programmed (all without a dump):
  // what the DRAM takes with it at the cut.
  std::uint64_t unsaved_buffered_pages() const;

  // What the firmware has not finished (operations, commands waiting for buffer room, evicted
  // pages not programmed): "" when idle. At the end of a run, when nothing is left to happen,
  // anything here is a deadlock that the host did not see (its writes were acknowledged).
  std::string unfinished_work() const;

  // An aged drive (--precondition ...+pe:N): the blocks' erase counts and the blocks that went
  // bad on the way, as the firmware's block records and bad-block table would hold them.
  template <typename EraseCount>
  void adopt_aged_drive(EraseCount erase_count, const std::vector<BlockId>& worn_out) {
    for (BlockId b : worn_out) {  // the firmware's own areas pass over them too
      if (checkpointer_) checkpointer_->retire(b);
      if (plp_dump_) plp_dump_->retire(b);
    }
    SegmentSpace* s = ftl_->segment_space();
    if (!s) return;
    if (!worn_out.empty()) s->adopt_bad_blocks(worn_out);
    s->adopt_erase_counts(erase_count);
  }

  // Sets again the gauges that hold state rather than counts, after the metrics were reset.
  void refresh_gauges() {
    if (bad_blocks_) bad_blocks_->refresh_gauges();
  }
  // Bad blocks: whether the drive turned read-only, and when (kernel ticks; 0: never; 1: at format).
  std::uint64_t read_only_since() const { return bad_blocks_ ? bad_blocks_->read_only_since() : 0; }

  Ftl& ftl() { return *ftl_; }
  const Ftl& ftl() const { return *ftl_; }
  OpScheduler& ops() { return ops_; }
  const FirmwareConfig& config() const { return config_; }
  std::uint64_t capacity_sectors() const {
    return std::uint64_t(ftl_->logical_pages()) * hal_.geometry().page_bytes / kSectorBytes;
  }

 private:
  void admit(const HostCommand& cmd, PageSpan span);
  void release(std::uint32_t pages);
  void handle_write(const HostCommand& cmd, PageSpan span);
  void handle_read(const HostCommand& cmd, PageSpan span);
  void handle_flush(const HostCommand& cmd);
  // A trim (common/host_op.h): decided when it arrives (the host keeps no overlapping command in
  // flight), the buffered copies of its whole pages dropped and the FTL's mappings deallocated; it
  // completes once its 16-byte range descriptor is in (NVMe Dataset Management) and the FTL's
  // tables hold it.
  void handle_trim(const HostCommand& cmd);
  // Write-buffer entries were freed: flushes they settle complete, waiting writes come in.
  void buffer_room_freed();
  // Capacitors holding the drive up: every dirty page to the FTL, whatever the flush limit.
  void evict_all_for_power_loss();
  // Capacitors holding the drive up: every buffered page's newest copy into the dump area.
  void dump_for_power_loss();
  // Whether acknowledged writes can be lost at a power cut: a write buffer without capacitors.
  bool volatile_cache() const { return wbuf_ && !config_.plp; }
  // Word-line safety (FirmwareConfig::word_line_safety): on MLC/TLC without capacitors, and not
  // while preconditioning (no power is cut then).
  bool closes_word_lines() const {
    return config_.word_line_safety && config_.word_line_pages > 1 && !config_.plp && !bypass_;
  }
  // Runs `durable` once what the flash holds so far can no longer be torn by a program to come:
  // the open word lines padded and every program under way done (at once without word-line safety).
  void when_word_lines_closed(std::function<void()> durable);
  // A GC or merge copy waits in block's open word line (OpScheduler::watch_open_word_lines).
  void close_word_line_of(BlockId block);
  void complete_settled_flushes();
  // The write buffer: a write's pages into it (entries_needed free entries must exist), the
  // evictions, and what a finished program frees.
  bool buffering() const { return wbuf_ && !bypass_; }
  std::uint32_t entries_needed(PageSpan span) const;
  bool has_room(PageSpan span) const;  // entries_needed(span) entries are free
  void buffer_write(const HostCommand& cmd, PageSpan span);
  void evict_as_needed();
  bool may_evict() const;  // below the limit of evicted pages in flight
  bool evict_next();
  // Hands flushing entry `e` to the FTL (an eviction's cycles and record write); `also` (if valid)
  // waits for its program too. One path for evictions, a flush's pages and a FUA write's.
  void program_entry(std::uint32_t e, OpRef also = {});
  void entry_released(std::uint32_t entry);
  void note_occupancy();
  // wbuf_->find, and the accesses to the buffer's records it makes (Hal::touch_record).
  std::uint32_t find_buffered(Lpn lpn);
  void touch_entry(std::uint32_t entry, Access access);         // the entry, its slot and chain head
  void touch_buffer_entry(std::uint32_t entry, Access access);  // the entry alone
  // Old-page tokens of a write's read-modify-writes: held until its programs are issued and
  // done, which (with the write cache) is after the host may reuse the command's id.
  std::uint32_t take_scratch(std::uint32_t pages);

  Hal& hal_;
  FirmwareConfig config_;
  MetricSet& metrics_;
  OpScheduler ops_;
  std::unique_ptr<Ftl> ftl_;
  std::vector<std::unique_ptr<std::vector<Token>>> scratch_;  // stable addresses
  std::vector<std::uint32_t> scratch_free_;
  std::uint32_t buffer_free_;
  std::deque<std::pair<HostCommand, PageSpan>> waiting_;  // admitted in arrival order as pages free up
  std::uint64_t &commands_, &partial_pages_, &buffer_waits_, &buffer_high_water_, &host_pages_written_;
  // The write buffer (null when off).
  std::unique_ptr<WriteBuffer> wbuf_;
  bool bypass_ = false;
  std::uint32_t high_water_pages_ = 0;
  std::uint32_t max_flushing_ = 0;  // evicted pages in flight, all planes (flush_depth x planes; 0: no limit)
  std::deque<std::pair<HostCommand, PageSpan>> wbuf_waiting_;  // admitted, waiting for buffer entries
  struct PendingFlush {
    std::uint32_t epoch;  // the write buffer's flush epoch it closed
    std::uint32_t id;
    LatencyTrail trail;
  };
  std::deque<PendingFlush> pending_flushes_;  // in arrival (and epoch) order
  struct FlushTarget {
    std::uint32_t entry, epoch;  // skipped once the entry is no longer this epoch's dirty page
  };
  std::deque<FlushTarget> flush_queue_;  // pages the pending flushes wait for, to evict first
  std::vector<std::uint32_t> dirty_scratch_;
  std::uint64_t *flushes_ = nullptr, *trims_ = nullptr, *trimmed_pages_ = nullptr, *trim_buffer_drops_ = nullptr,
                *fua_writes_ = nullptr;
  static constexpr std::uint32_t kTrimRangeBytes = 16;  // one Dataset Management range descriptor
  std::vector<std::uint32_t> victims_;
  std::vector<std::uint32_t> fua_entries_;  // buffer_write: a FUA write's entries
  bool power_lost_ = false;
  TableRegion wbuf_entries_, wbuf_index_;  // its records: the entries; the index's heads, then its slots
  std::uint64_t occupancy_since_ = 0;  // ticks of the last occupancy change
  double occupancy_integral_ = 0;      // page-ticks
  std::uint64_t *read_hits_ = nullptr, *absorbed_ = nullptr, *evicted_ = nullptr, *wbuf_waits_ = nullptr,
                *wbuf_high_water_ = nullptr, *flushing_high_water_ = nullptr;
  double *occupancy_gauge_ = nullptr, *mean_occupancy_gauge_ = nullptr;
  int occupancy_trace_ = -1, dirty_trace_ = -1;
  std::unique_ptr<BlockMover> reclaim_;  // null when firmware.read_reclaim_reads is 0
  std::unique_ptr<BadBlockHandler> bad_blocks_;  // null without bad blocks (FirmwareConfig::bad_blocks)
  std::unique_ptr<PlpDumpArea> plp_dump_;  // plp_destage = dump with a write buffer
  std::unique_ptr<MapCheckpointer> checkpointer_;  // null without checkpoints
  std::vector<std::uint8_t> dumped_;        // per buffer entry: its dump is programmed
};

}  // namespace ssd::fw
