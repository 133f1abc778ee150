// The contents of a flash array and the NAND rules, without timing (no SystemC): the NAND die
// models and the functional HAL both keep their state here, so a drive preconditioned
// functionally can be handed to the timed model as it is.
//
// Per page the array keeps the OOB's logical page and the data token (8 bytes), allocated per
// block on its first program so a fresh drive costs little memory. The write sequence number
// is kept per block (the sequence of the block's first program): pages within a block are
// programmed in order, so (block sequence, page index) orders every program of the block.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/geometry.h"

namespace ssd::hw {

class NandRuleViolation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PageContent {
  Lpn lpn = kNoLpn;  // kNoLpn: erased
  Token token = kUnwrittenToken;
};

class NandArray {
 public:
  // sequential_program: the part requires pages of a block to be programmed in order.
  explicit NandArray(const FlashGeometry& geometry, bool sequential_program = true);

  const FlashGeometry& geometry() const { return geo_; }

  void program(Ppn ppn, Lpn lpn, Token token);  // throws NandRuleViolation
  PageContent read(Ppn ppn) const;              // an erased page reads as {kNoLpn, 0}
  void erase(BlockId block);                    // throws NandRuleViolation for a bad address

  bool is_programmed(Ppn ppn) const;
  std::uint32_t write_pointer(BlockId b) const { return blocks_[b].written; }
  std::uint32_t erase_count(BlockId b) const { return blocks_[b].erase_count; }
  std::uint64_t block_sequence(BlockId b) const { return blocks_[b].sequence; }
  std::uint64_t pages_programmed() const { return programs_; }
  std::uint64_t blocks_erased() const { return erases_; }
  std::string describe(Ppn ppn) const;  // "ch0/way1/die0/plane1/block7/page3"

 private:
  struct Block {
    std::unique_ptr<PageContent[]> pages;  // null until first programmed
    std::vector<bool> programmed_out_of_order;  // only when !sequential_program
    std::uint32_t written = 0;                  // next page in order (== pages programmed when sequential)
    std::uint32_t erase_count = 0;
    std::uint64_t sequence = 0;
  };
  void check_page(Ppn ppn, const char* op) const;

  FlashGeometry geo_;
  bool sequential_;
  std::vector<Block> blocks_;
  std::uint64_t programs_ = 0, erases_ = 0;
};

}  // namespace ssd::hw
