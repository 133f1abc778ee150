#include "hw/nand/nand_array.h"

namespace ssd::hw {

NandArray::NandArray(const FlashGeometry& geometry, bool sequential_program)
    : geo_(geometry), sequential_(sequential_program), blocks_(geometry.total_blocks()) {}

std::string NandArray::describe(Ppn ppn) const {
  PhysAddr a = geo_.decompose(ppn);
  return "ch" + std::to_string(a.channel) + "/way" + std::to_string(a.way) + "/die" + std::to_string(a.die) +
         "/plane" + std::to_string(a.plane) + "/block" + std::to_string(a.block) + "/page" + std::to_string(a.page);
}

void NandArray::check_page(Ppn ppn, const char* op) const {
  if (ppn >= geo_.total_pages())
    throw NandRuleViolation(std::string("NAND ") + op + " of page " + std::to_string(ppn) + ": beyond the array (" +
                            std::to_string(geo_.total_pages()) + " pages)");
}

bool NandArray::is_programmed(Ppn ppn) const {
  const Block& b = blocks_[geo_.block_of(ppn)];
  const std::uint32_t page = geo_.page_in_block(ppn);
  if (sequential_) return page < b.written;
  return b.pages && b.programmed_out_of_order[page];
}

void NandArray::program(Ppn ppn, Lpn lpn, Token token) {
  check_page(ppn, "program");
  Block& b = blocks_[geo_.block_of(ppn)];
  const std::uint32_t page = geo_.page_in_block(ppn);
  if (is_programmed(ppn))
    throw NandRuleViolation("NAND program of " + describe(ppn) + ": page is not erased (program only erased pages)");
  if (sequential_ && page != b.written)
    throw NandRuleViolation("NAND program of " + describe(ppn) + ": out of order, the block's next page is " +
                            std::to_string(b.written) + " (pages must be programmed in order)");
  if (!b.pages) {
    b.pages = std::make_unique<PageContent[]>(geo_.pages_per_block);
    if (!sequential_) b.programmed_out_of_order.assign(geo_.pages_per_block, false);
  }
  if (b.written == 0) b.sequence = programs_ + 1;  // first program since the erase
  b.pages[page] = PageContent{lpn, token};
  if (!sequential_) b.programmed_out_of_order[page] = true;
  ++b.written;
  ++programs_;
}

PageContent NandArray::read(Ppn ppn) const {
  check_page(ppn, "read");
  const Block& b = blocks_[geo_.block_of(ppn)];
  if (!b.pages) return PageContent{};
  return b.pages[geo_.page_in_block(ppn)];
}

void NandArray::erase(BlockId block) {
  if (block >= geo_.total_blocks())
    throw NandRuleViolation("NAND erase of block " + std::to_string(block) + ": beyond the array (" +
                            std::to_string(geo_.total_blocks()) + " blocks)");
  Block& b = blocks_[block];
  if (b.pages) {
    for (std::uint32_t i = 0; i < geo_.pages_per_block; ++i) b.pages[i] = PageContent{};
    if (!sequential_) b.programmed_out_of_order.assign(geo_.pages_per_block, false);
  }
  b.written = 0;
  b.sequence = 0;
  ++b.erase_count;
  ++erases_;
}

}  // namespace ssd::hw
