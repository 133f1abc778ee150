// FAST (Lee et al., fully-associative sector translation) and FASTer (FAST with second chance),
// as the LAST paper (section 2.3) and ADAPT (section II) describe them.
//
// - Sequential log blocks (sequential_blocks, FAST uses 1): a page goes there if its offset is 0
//   (a new sequential block is started; with none free, the least recently written one is merged
//   first: switch if complete, else partial) or if it appends in order to a sequential block of
//   its logical block.
// - Random area: every other page is appended to the current random log block; blocks form a
//   FIFO ("round-robin") and when the area is full its head is merged (full merge; a head with no
//   valid page is just erased).
// - FASTer: before the head is merged, each valid page of it that has not had a second chance yet
//   is copied to the rear of the random area (a fresh rear block is taken from the free pool if
//   needed, the head's erase gives it back); pages already given one are merged. Once per page:
//   a host write of the page resets it.
#pragma once

#include <deque>
#include <vector>

#include "fw/ftl/hybrid/hybrid_ftl.h"

namespace ssd::fw {

class FastFtl : public HybridFtl {
 public:
  // second_chance: FASTer.
  static HybridParams parse(FtlOptions& options, const FlashGeometry& geometry, bool second_chance,
                            std::uint32_t* sequential_blocks = nullptr);
  FastFtl(FtlContext& ctx, bool second_chance);

 protected:
  LogTarget log_target(const PageWrite& page) override;
  void on_log_block_gone(std::uint32_t block) override;
  void before_merge(std::uint32_t victim) override;
  void on_log_page(Spn spn, bool copied) override;

 private:
  struct Sequential {
    std::uint32_t block, lbn;
    std::uint64_t last_write;
  };
  bool second_chance_;
  std::uint32_t sequential_cap_ = 1, random_cap_ = 1;
  std::vector<Sequential> sequential_;
  std::deque<std::uint32_t> random_;  // front: head (next victim), back: being filled
  std::vector<bool> chanced_;         // per segment page: copied by second chance already
  std::uint64_t clock_ = 0;
  std::uint64_t& second_chance_copies_;
};

}  // namespace ssd::fw
