// The contents of a flash array and the NAND rules, without timing (no SystemC): the NAND die
// models and the functional HAL both keep their state here, so a drive preconditioned
// functionally can be handed to the timed model as it is.
//
// Per page the array keeps the OOB's logical page and the data token (8 bytes), given to a block
// on its first program (out of 16 MiB slabs) so a fresh drive costs little memory. The write sequence number
// is kept per block (the sequence of the block's first program): pages within a block are
// programmed in order, so (block sequence, page index) orders every program of the block.
//
// Power loss (interrupt_program, interrupt_erase): a program cut short leaves its page
// programmed but unreadable, its OOB included (kUnreadableLpn, kUncorrectableToken); on a part
// with several bits per cell the pages of a word line are programmed lower page first, and a cut
// upper-page program also destroys the lower pages already written on its word line. The model
// takes a word line as `bits_per_cell` consecutive pages of the block (page p on word line
// p / bits, its type p % bits as the array times are indexed: nand_timing.h), the pairing of a
// part that programs its word lines one after another. An erase cut short leaves the block
// neither erased nor readable: every page reads as unreadable and none may be programmed until
// the block is erased again.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/geometry.h"
#include "hw/nand/block_failures.h"

namespace ssd::hw {

class NandRuleViolation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using ::ssd::kUnreadableLpn;  // a page a power cut left unreadable reads so

struct PageContent {
  Lpn lpn = kNoLpn;  // kNoLpn: erased; kUnreadableLpn: programmed, unreadable
  Token token = kUnwrittenToken;
};

// What a power cut did to the array.
struct CutDamage {
  std::uint64_t torn_pages = 0;         // programs cut short
  std::uint64_t paired_pages_lost = 0;  // lower pages destroyed with them
  std::uint64_t erases_cut = 0;         // blocks left neither erased nor readable
};

class NandArray {
 public:
  // sequential_program: the part requires pages of a block to be programmed in order.
  explicit NandArray(const FlashGeometry& geometry, bool sequential_program = true);

  const FlashGeometry& geometry() const { return geo_; }

  // Bad blocks (hw/nand/block_failures.h): set once, before anything is written.
  void set_failures(const FailureConfig& config) { failures_ = BlockFailures(config, geo_); }
  // Whether programs and erases may fail now (on by default; off while a drive is preconditioned:
  // the state before the run is set, not lived through).
  void set_failures_armed(bool armed) { armed_ = armed; }
  // The factory's bad-block marker of a block (what a format's scan of the markers finds).
  bool factory_bad(BlockId b) const { return failures_.factory_bad(b); }
  const std::vector<BlockId>& factory_bad_blocks() const { return failures_.factory_bad_blocks(); }
  // An aged drive: the block went bad before the run (a grown bad block the firmware retired).
  void retire_before_run(BlockId b) {
    blocks_[b].failed = blocks_[b].retired = true;
    worn_out_.push_back(b);
  }
  const std::vector<BlockId>& retired_before_run() const { return worn_out_; }
  const BlockFailures& failures() const { return failures_; }
  // Whether a program or erase of the block has reported failure (since the array was made).
  bool has_failed(BlockId b) const { return blocks_[b].failed; }
  std::uint64_t program_failures() const { return program_failures_; }
  std::uint64_t erase_failures() const { return erase_failures_; }

  // Returns the status: false when the program reports failure (the page keeps the data it was
  // given, readable, but the block is not to be trusted: firmware retires it). Programs of a
  // factory-bad block, or of a block erased after it failed, are firmware errors.
  // throws NandRuleViolation. `at`: when (kernel ticks; the error model's retention clock starts
  // at the block's first program since its erase); kBeforeRun: by preconditioning, before time 0.
  static constexpr std::uint64_t kBeforeRun = ~std::uint64_t(0);
  // slc: in SLC mode. A block takes the mode of its first program after an erase; a program in
  // the other mode, or an SLC-mode program past the block's slc_pages(), is a rule violation.
  bool program(Ppn ppn, Lpn lpn, Token token, std::uint64_t at = kBeforeRun, bool slc = false);
  // The part's bits a cell. With several, a block may be programmed in SLC mode: it then holds one
  // page a word line, pages_per_block / bits of them. One (the default): no SLC mode.
  void set_bits_per_cell(std::uint32_t bits) {
    slc_pages_ = bits > 1 && geo_.pages_per_block % bits == 0 ? geo_.pages_per_block / bits : 0;
  }
  std::uint32_t slc_pages() const { return slc_pages_; }
  // Whether the block's pages since its last erase were programmed in SLC mode.
  bool is_slc(BlockId b) const { return blocks_[b].slc; }
  // An erased page reads as {kNoLpn, 0}. Inline: whole-drive checks read every page.
  PageContent read(Ppn ppn) const {
    check_page(ppn, "read");
    const Block& b = blocks_[geo_.block_of(ppn)];
    if (!b.pages) return PageContent{};
    return b.pages[geo_.page_in_block(ppn)];
  }
  // Returns the status: false when the erase reports failure (the block keeps its pages).
  // Throws NandRuleViolation for a bad address or a factory-bad block.
  bool erase(BlockId block);
  // Power loss (see above): the program of `ppn` (the block's next page) or the erase of `block`
  // was under way when the power went. Adds what it destroyed to `damage`.
  // A program in SLC mode (`slc`) has its own word line: it destroys no other page.
  void interrupt_program(Ppn ppn, std::uint32_t bits_per_cell, CutDamage& damage, bool slc = false);
  void interrupt_erase(BlockId block, CutDamage& damage);
  // Preconditioning: programs pages [0, count) of the erased block `block` at once (contents in
  // page order), as though its first program had been the array's `sequence`-th; the caller
  // makes the sequences what programming in its order would have given.
  void preload_block(BlockId block, std::uint32_t count, const PageContent* contents, std::uint64_t sequence);

  bool is_programmed(Ppn ppn) const {
    const Block& b = blocks_[geo_.block_of(ppn)];
    const std::uint32_t page = geo_.page_in_block(ppn);
    if (sequential_) return page < b.written;
    return b.pages && b.programmed_out_of_order[page];
  }
  std::uint32_t write_pointer(BlockId b) const { return blocks_[b].written; }
  std::uint32_t erase_count(BlockId b) const { return blocks_[b].erase_count; }
  // The block's wear in native P/E cycles: its erases, the SLC-mode ones counted at
  // failures.slc_cycle_wear (what the RBER law and the grown-bad-block hazard see).
  double wear(BlockId b) const {
    return double(blocks_[b].erase_count) - double(blocks_[b].slc_erases) * (1.0 - failures_.config().slc_cycle_wear);
  }
  // The error model's state of a block: when its first page since the erase was programmed
  // (kernel ticks), and how many times it has been read (sensed) since the erase.
  std::uint64_t programmed_at(BlockId b) const { return blocks_[b].programmed_at; }
  std::uint32_t reads_since_erase(BlockId b) const { return blocks_[b].reads_since_erase; }
  void count_read(BlockId b) { ++blocks_[b].reads_since_erase; }
  // An aged drive, set in closed form before preconditioning writes (--precondition ...+pe:N):
  // the block has been erased `count` times. And the retention age, at time 0, of the data
  // written before the run (+days:D).
  void set_erase_count(BlockId b, std::uint32_t count) { blocks_[b].erase_count = count; }
  void set_data_age_days(double days) { data_age_days_ = days; }
  double data_age_days() const { return data_age_days_; }
  std::uint64_t block_sequence(BlockId b) const { return blocks_[b].sequence; }
  // The OOB's sequence number (the firmware's version of the page's data: a host write's, kept
  // by the copies GC makes of it), which recovery after a power cut reads. Kept only once
  // keep_versions() is called (runs with a power cut: 4 bytes a page), else every page reads 0.
  void keep_versions() { versions_.assign(geo_.total_pages(), 0); }
  void record_version(Ppn ppn, std::uint32_t version) {
    if (!versions_.empty()) versions_[ppn] = version;
  }
  std::uint32_t version(Ppn ppn) const { return versions_.empty() ? 0 : versions_[ppn]; }
  std::uint64_t pages_programmed() const { return programs_; }
  std::uint64_t blocks_erased() const { return erases_; }
  std::string describe(Ppn ppn) const;  // "ch0/way1/die0/plane1/block7/page3"

 private:
  struct Block {
    PageContent* pages = nullptr;               // null until first programmed (then a slice of a slab)
    std::vector<bool> programmed_out_of_order;  // only when !sequential_program
    std::uint32_t written = 0;                  // next page in order (== pages programmed when sequential)
    std::uint32_t erase_count = 0;
    std::uint32_t reads_since_erase = 0;
    std::uint64_t sequence = 0;
    std::uint64_t programmed_at = 0;
    bool failed = false;   // a program or erase of it reported failure
    bool retired = false;  // erased (or erase attempted) after it failed: never to be programmed
    bool slc = false;      // programmed in SLC mode since its last erase
    std::uint32_t slc_erases = 0;  // of erase_count, the erases that ended an SLC-mode cycle
  };
  PageContent* new_block_pages();  // a block's pages, erased, from the current slab
  void check_page(Ppn ppn, const char* op) const {
    if (ppn >= geo_.total_pages()) beyond_the_array(ppn, op);
  }
  [[noreturn]] void beyond_the_array(Ppn ppn, const char* op) const;

  FlashGeometry geo_;
  bool sequential_;
  std::uint32_t slc_pages_ = 0;
  std::vector<Block> blocks_;
  std::uint64_t programs_ = 0, erases_ = 0, program_failures_ = 0, erase_failures_ = 0;
  BlockFailures failures_;
  std::vector<BlockId> worn_out_;  // retire_before_run
  bool armed_ = true;
  double data_age_days_ = 0;
  // Block page arrays are carved out of 16 MiB slabs (erased records), in the order blocks are
  // first programmed; a block keeps its slice for the array's lifetime. One allocation per
  // block cost a filled 512 GiB drive a quarter of its start-up in the allocator.
  std::vector<std::unique_ptr<PageContent[]>> slabs_;
  std::vector<std::uint32_t> versions_;        // per page, see keep_versions()
  std::size_t slab_size_ = 0, slab_used_ = 0;  // pages in the last slab, and handed out of it
};

}  // namespace ssd::hw
