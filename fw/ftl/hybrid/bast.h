// BAST (Kim et al., block-associative sector translation; LAST paper section 2.3): each log
// block belongs to one logical block and takes its updates in any order. A logical block
// without a log block takes a free one; with the log full, the least recently written log block
// is merged first (the papers do not say which; LRU is our choice). Under small random writes
// every update claims a whole log block and nearly every merge is a full merge of one
// under-used block: the log block thrashing the papers describe.
#pragma once

#include <unordered_map>

#include "fw/ftl/hybrid/hybrid_ftl.h"

namespace ssd::fw {

class BastFtl : public HybridFtl {
 public:
  static HybridParams parse(FtlOptions& options, const FlashGeometry& geometry);
  explicit BastFtl(FtlContext& ctx) : HybridFtl(ctx, parse(ctx.options, ctx.hal.geometry())) {}

 protected:
  LogTarget log_target(const PageWrite& page) override;
  void on_log_block_gone(std::uint32_t block) override;

 private:
  struct Owned {
    std::uint32_t lbn;
    std::uint64_t last_write;
  };
  std::unordered_map<std::uint32_t, std::uint32_t> log_of_;  // logical block -> its log block
  std::unordered_map<std::uint32_t, Owned> owner_;           // log block -> logical block, recency
  std::uint64_t clock_ = 0;
};

}  // namespace ssd::fw
