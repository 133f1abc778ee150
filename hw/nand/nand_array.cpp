#include "hw/nand/nand_array.h"

#include <algorithm>

namespace ssd::hw {

NandArray::NandArray(const FlashGeometry& geometry, bool sequential_program)
    : geo_(geometry), sequential_(sequential_program), blocks_(geometry.total_blocks()) {}

std::string NandArray::describe(Ppn ppn) const {
  PhysAddr a = geo_.decompose(ppn);
  return "ch" + std::to_string(a.channel) + "/way" + std::to_string(a.way) + "/die" + std::to_string(a.die) + "/plane" +
         std::to_string(a.plane) + "/block" + std::to_string(a.block) + "/page" + std::to_string(a.page);
}

PageContent* NandArray::new_block_pages() {
  const std::size_t block = geo_.pages_per_block;
  if (slabs_.empty() || slab_used_ + block > slab_size_) {
    // 16 MiB, or one block's pages when a block is bigger; every record erased.
    slab_size_ = std::max(block, (std::size_t(16) << 20) / sizeof(PageContent) / block * block);
    slabs_.push_back(std::unique_ptr<PageContent[]>(new PageContent[slab_size_]));
    slab_used_ = 0;
  }
  PageContent* pages = slabs_.back().get() + slab_used_;
  slab_used_ += block;
  return pages;
}

void NandArray::beyond_the_array(Ppn ppn, const char* op) const {
  throw NandRuleViolation(std::string("NAND ") + op + " of page " + std::to_string(ppn) + ": beyond the array (" +
                          std::to_string(geo_.total_pages()) + " pages)");
}

bool NandArray::program(Ppn ppn, Lpn lpn, Token token, std::uint64_t at, bool slc) {
  check_page(ppn, "program");
  Block& b = blocks_[geo_.block_of(ppn)];
  if (failures_.factory_bad(geo_.block_of(ppn)))
    throw NandRuleViolation("NAND program of " + describe(ppn) + ": the block is factory bad");
  if (b.retired)
    throw NandRuleViolation("NAND program of " + describe(ppn) +
                            ": the block failed before its last erase (a grown "
                            "bad block)");
  const std::uint32_t page = geo_.page_in_block(ppn);
  if (is_programmed(ppn))
    throw NandRuleViolation("NAND program of " + describe(ppn) + ": page is not erased (program only erased pages)");
  if (sequential_ && page != b.written)
    throw NandRuleViolation("NAND program of " + describe(ppn) + ": out of order, the block's next page is " +
                            std::to_string(b.written) + " (pages must be programmed in order)");
  if (slc && slc_pages_ == 0)
    throw NandRuleViolation("NAND SLC-mode program of " + describe(ppn) + ": the part has no SLC mode");
  if (b.written > 0 && b.slc != slc)
    throw NandRuleViolation("NAND " + std::string(slc ? "SLC-mode" : "native") + " program of " + describe(ppn) +
                            ": the block was programmed in " + (b.slc ? "SLC" : "native") + " mode since its erase");
  if (slc && page >= slc_pages_)
    throw NandRuleViolation("NAND SLC-mode program of " + describe(ppn) + ": an SLC-mode block holds " +
                            std::to_string(slc_pages_) + " pages");
  if (!b.pages) {
    b.pages = new_block_pages();
    if (!sequential_) b.programmed_out_of_order.assign(geo_.pages_per_block, false);
  }
  if (b.written == 0) {  // first program since the erase
    b.slc = slc;
    b.sequence = programs_ + 1;
    b.programmed_at = at;
  }
  b.pages[page] = PageContent{lpn, token};
  if (!sequential_) b.programmed_out_of_order[page] = true;
  ++b.written;
  ++programs_;
  if (!armed_ || !failures_.program_fails(wear(geo_.block_of(ppn)))) return true;
  b.failed = true;
  ++program_failures_;
  return false;
}

void NandArray::interrupt_program(Ppn ppn, std::uint32_t bits_per_cell, CutDamage& damage, bool slc) {
  const PageContent unreadable{kUnreadableLpn, kUncorrectableToken};
  const bool armed = armed_;
  armed_ = false;  // no status: the program never finished
  program(ppn, unreadable.lpn, unreadable.token, kBeforeRun, slc);
  armed_ = armed;
  ++damage.torn_pages;
  Block& b = blocks_[geo_.block_of(ppn)];
  const std::uint32_t page = geo_.page_in_block(ppn), bits = slc ? 1 : std::max<std::uint32_t>(1, bits_per_cell);
  for (std::uint32_t lower = page - page % bits; lower < page; ++lower) {
    if (!is_programmed(geo_.first_page(geo_.block_of(ppn)) + lower) || b.pages[lower].lpn == kUnreadableLpn) continue;
    b.pages[lower] = unreadable;
    ++damage.paired_pages_lost;
  }
}

void NandArray::interrupt_erase(BlockId block, CutDamage& damage) {
  Block& b = blocks_[block];
  if (!b.pages) {
    b.pages = new_block_pages();
    if (!sequential_) b.programmed_out_of_order.assign(geo_.pages_per_block, false);
  }
  std::fill(b.pages, b.pages + geo_.pages_per_block, PageContent{kUnreadableLpn, kUncorrectableToken});
  if (!sequential_) b.programmed_out_of_order.assign(geo_.pages_per_block, true);
  b.written = geo_.pages_per_block;  // not erased: nothing may be programmed before the next erase
  b.slc = false;
  ++damage.erases_cut;
}

void NandArray::preload_block(BlockId block, std::uint32_t count, const PageContent* contents, std::uint64_t sequence) {
  if (block >= geo_.total_blocks() || count == 0 || count > geo_.pages_per_block)
    throw NandRuleViolation("NAND preload of " + std::to_string(count) + " pages into block " + std::to_string(block) +
                            ": no such block, or not 1 to " + std::to_string(geo_.pages_per_block) + " pages");
  Block& b = blocks_[block];
  if (failures_.factory_bad(block) || b.retired)
    throw NandRuleViolation("NAND preload of " + describe(geo_.first_page(block)) + ": the block is bad");
  if (b.written != 0)
    throw NandRuleViolation("NAND preload of " + describe(geo_.first_page(block)) + ": the block is not erased");
  if (!b.pages) b.pages = new_block_pages();
  std::copy(contents, contents + count, b.pages);
  if (!sequential_) {
    b.programmed_out_of_order.assign(geo_.pages_per_block, false);
    std::fill(b.programmed_out_of_order.begin(), b.programmed_out_of_order.begin() + count, true);
  }
  b.written = count;
  b.sequence = sequence;
  b.programmed_at = kBeforeRun;
  programs_ += count;
}

bool NandArray::erase(BlockId block) {
  if (block >= geo_.total_blocks())
    throw NandRuleViolation("NAND erase of block " + std::to_string(block) + ": beyond the array (" +
                            std::to_string(geo_.total_blocks()) + " blocks)");
  Block& b = blocks_[block];
  if (failures_.factory_bad(block))
    throw NandRuleViolation("NAND erase of " + describe(geo_.first_page(block)) + ": the block is factory bad");
  ++erases_;
  if (b.failed) b.retired = true;
  const double cycles = wear(block);
  ++b.erase_count;
  if (b.slc) ++b.slc_erases;
  if (armed_ && failures_.erase_fails(cycles)) {
    b.failed = b.retired = true;
    ++erase_failures_;
    return false;
  }
  if (b.pages) {
    for (std::uint32_t i = 0; i < geo_.pages_per_block; ++i) b.pages[i] = PageContent{};
    if (!sequential_) b.programmed_out_of_order.assign(geo_.pages_per_block, false);
  }
  if (!versions_.empty())
    std::fill_n(versions_.begin() + std::ptrdiff_t(geo_.first_page(block)), geo_.pages_per_block, 0u);
  b.written = 0;
  b.slc = false;
  b.sequence = 0;
  b.reads_since_erase = 0;
  b.programmed_at = 0;
  return true;
}

}  // namespace ssd::hw
