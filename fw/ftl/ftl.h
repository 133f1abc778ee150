// The interface every FTL implements. An FTL decides where data goes (updating its mapping at
// decision time, as real firmware does) and expresses the flash work as operations with
// dependencies on the OpScheduler; it never waits for the flash.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/metrics.h"
#include "fw/ftl/ftl_options.h"
#include "fw/hal/hal.h"
#include "fw/precondition/steady_state_preload.h"
#include "fw/runtime/firmware_costs.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

class SegmentSpace;
struct MountImage;

// What an FTL gets to work with.
struct FtlContext {
  Hal& hal;
  OpScheduler& ops;
  const FirmwareCosts& costs;
  MetricSet& metrics;  // the FTL's own counters (report section "ftl")
  FtlOptions& options;
  // The part's bits a cell (the pages a word line holds); several: blocks may be programmed in
  // SLC mode, one page a word line (HalOp::slc).
  std::uint32_t bits_per_cell = 1;
};

// The host request a page belongs to, for FTLs that decide by it (request size for a locality
// detector, issuer or start address for placement).
struct HostRequestInfo {
  std::uint32_t issuer = 0;   // trace device / process / stream id
  std::uint32_t sectors = 0;  // size of the whole host request, in 512-byte sectors
  Lpn first_lpn = 0;          // first logical page the request touches
};

// One logical page of a host read.
struct PageRead {
  Lpn lpn = kNoLpn;
  Token* sink = nullptr;  // where the page's token goes
  HostRequestInfo request;
  // The old data of a partial-page write (read-modify-write), not a host read: counted apart.
  bool for_partial_write = false;
};

// One logical page of a host write, whose data is in the buffer once `data_ready` completes.
// merge_with != nullptr: partial-page write; the programmed token is
// merge_tokens(*merge_with, token), *merge_with being filled before data_ready completes.
struct PageWrite {
  Lpn lpn = kNoLpn;
  Token token = 0;
  const Token* merge_with = nullptr;
  OpRef data_ready;
  HostRequestInfo request;
  // The firmware's own rewrite of data it holds (fw/firmware/block_mover.h), not
  // the host's: placed like any write, not counted as a host page.
  bool relocation = false;
};

// What became of a page write.
struct WriteOutcome {
  OpRef on_flash;       // completes when the page is programmed
  bool placed = true;   // the mapping already points at the new data, so later reads see it;
                        // false when the FTL had to defer the decision (e.g. waiting for GC)
  bool dropped = false; // a relocation a waiting write of the same page supersedes: not written
};

class Ftl {
 public:
  virtual ~Ftl() = default;

  // Logical pages exported to the host (the drive's capacity in pages).
  virtual Lpn logical_pages() const = 0;
  // The FTL's logical block in pages, which a block-level write buffer groups by; 0: the
  // flash's block (pages_per_block).
  virtual std::uint32_t logical_block_pages() const { return 0; }

  // Host read of one logical page. Returns the operation on whose completion *sink holds the
  // page's token, or an invalid OpRef when *sink was set at once (e.g. an unwritten page).
  virtual OpRef read(const PageRead& page) = 0;

  // Host write of one logical page.
  virtual WriteOutcome write(const PageWrite& page) = 0;

  // Host trim (deallocate, common/host_op.h) of one logical page, decided at once: its mapping is
  // dropped, the data it held is invalid for garbage collection and merges (never copied again),
  // and reads return kUnwrittenToken until it is written again. A write of the page still waiting
  // for room (deferred) is dropped: the trim came after it. Returns the operation on whose
  // completion the tables hold the trim (a translation page to load first), or an invalid
  // OpRef when they do at once.
  virtual OpRef trim(Lpn lpn) = 0;

  // --- Preconditioning (fw/precondition/steady_state_preload.h) ---
  // What this FTL's family offers to bring a drive to the steady state of random writes
  // quickly; nullptr when it offers nothing (the preconditioner then writes its way there).
  virtual SteadyStatePreload* steady_state_preload() { return nullptr; }
  // On a fresh drive over a HAL that can preload: lays out a sequential fill of every logical
  // page (page k holding token_of(k)) directly, in exactly the state a host writing one page at
  // a time in logical order leaves (flash contents, tables, block states and allocation cursors;
  // tests/unit/test_sequential_fill_preload.cpp compares the two). False when this FTL cannot
  // here (the preconditioner then replays the fill).
  virtual bool preload_sequential_fill(const std::function<Token(Lpn)>& token_of) {
    (void)token_of;
    return false;
  }
  // A host Flush of the mapping: writes to flash, as operations, every mapping that SRAM alone
  // holds (an FTL keeping its whole map in SRAM has none). Returns the pages it programs. The
  // preconditioner calls it at the end (PreconditionSpec::flush).
  virtual std::uint64_t flush_mapping() { return 0; }

  // Word-line safety (firmware.word_line_safety) on MLC/TLC flash, where `word_line_pages`
  // consecutive pages of a block share a word line and a power cut during the program of a later
  // one corrupts the earlier ones: programs padding pages (common/geometry.h kPaddingLpn, never
  // valid) at every open write point up to the end of its word line, so nothing written so far
  // shares a word line with a program still to come. `only`: just the write point that is writing
  // that block (kNoBlock: every one). Returns the padding pages it programmed (counted as
  // word_line_padding_pages and in the WAF).
  virtual std::uint32_t close_word_lines(std::uint32_t word_line_pages, BlockId only) = 0;

  // Writes the FTL's own metadata page `marker` (its OOB logical page, beyond the host's) again
  // elsewhere, out of a block the firmware is emptying (fw/firmware/block_mover.h). False when the
  // FTL has no such page or cannot write it now (garbage collection then moves it).
  virtual bool relocate_metadata(Lpn marker) {
    (void)marker;
    return false;
  }

  // Map checkpoints (fw/recovery/map_checkpointer.h): the bytes of the tables a checkpoint saves,
  // from which the boot finds every page the FTL maps in the blocks it covers. Default: a page
  // map, a 4-byte physical page a logical page.
  virtual std::uint64_t checkpoint_bytes() const { return std::uint64_t(logical_pages()) * 4; }

  // After a power cut (--after-recovery continue), on a firmware just made over the flash the cut
  // left (its own areas held back already): takes over what the boot found (fw/recovery/
  // mount_image.h), so host commands can follow. Pages found outside the FTL's blocks (a
  // power-loss dump's) are left to the firmware, which buffers them again. Flash work it needs
  // (rewriting stale translation pages, merging a hybrid's log) goes to the operation scheduler;
  // `settled` runs once it has all been issued and nothing more of the mount is to come (at once
  // when there is none). Returns "" when the mount started, or why the flash cannot be mounted
  // (a state the FTL never leaves; `settled` then never runs).
  virtual std::string mount(const MountImage& image, std::function<void()> settled) = 0;

  // The block space the FTL takes and reclaims its blocks in (wear leveling and wear state are
  // set there for every FTL alike), or nullptr.
  virtual SegmentSpace* segment_space() { return nullptr; }

  // --- Integrity checking (after a run, with nothing in flight) ---
  // Where the FTL believes `lpn` lives now (kNoPpn: unmapped). `lpn` may also be the OOB marker
  // of the FTL's own metadata pages (e.g. a translation page), which it locates the same way.
  virtual Ppn locate(Lpn lpn) const = 0;
  // Whether the FTL counts this physical page as holding live data or metadata.
  virtual bool holds_valid_page(Ppn ppn) const = 0;
  // The same two questions for many pages at once (the check asks them of every page of the
  // drive: one call a batch instead of one a page). out[i] for first + i, or for ppns[i]
  // (kNoPpn or a page beyond the array: not valid).
  virtual void locate_range(Lpn first, std::uint32_t count, Ppn* out) const {
    for (std::uint32_t i = 0; i < count; ++i) out[i] = locate(first + i);
  }
  virtual void holds_valid_pages(const Ppn* ppns, std::uint32_t count, std::uint8_t* out) const {
    for (std::uint32_t i = 0; i < count; ++i) out[i] = ppns[i] != kNoPpn && holds_valid_page(ppns[i]);
  }
  // Checks the FTL's metadata pages against flash (read_page returns a page's OOB as stored).
  // Returns a description of the first disagreement, or "".
  using PageReader = std::function<HalResult(Ppn)>;
  virtual std::string check_metadata(const PageReader& read_page) const {
    (void)read_page;
    return "";
  }
};

}  // namespace ssd::fw
