// LAST (Lee et al., locality-aware sector translation, SIGOPS OSR 2008), sections 3.2-3.4.
//
// - Locality detector (3.2): a write whose host request is larger than size_threshold_pages
//   pages goes to the sequential log buffer, otherwise to the random log buffer. The paper's
//   threshold is 4 KiB on 2 KiB pages: 2 pages, the default, so the rule keeps its meaning on
//   larger pages (a single-page request is never sequential).
// - Sequential log buffer (3.3): sequential_blocks block-associative log blocks (default 1/16
//   of the log, the paper's 256 of 4096), each written in page order from offset 0, so that it
//   always holds an in-order prefix of its logical block and leaves by a switch merge (whole)
//   or a partial merge (prefix) -- never a full merge, as Fig. 6 and section 4 describe. A page
//   at offset 0 opens a block (closing the logical block's previous one: the stream restarted);
//   with none free, a block holding its whole logical block is switch-merged, else the least
//   recently written one is partially merged. A page that does not continue its block in order
//   (a large request starting mid-block, or a jump inside one) is a misfit: the paper does not
//   say where it goes; sequential_misfit = random (default) sends it to the random buffer, close
//   merges the logical block's sequential block first (then the page, not at offset 0, goes to
//   the random buffer too).
// - Random log buffer (3.4): fully associative, in a hot and a cold partition, each filling one
//   block at a time. A page is hot when its update interval -- log pages written since its
//   previous copy was written into the random log buffer -- is below k, or when that copy is in
//   the hot partition ("remains hot until evicted"); everything else is cold.
// - Replacement (3.4.3): the hot partition is the victim partition when it has a dead block, or
//   a block not updated for hot_age_pages log writes (a page that lost its locality); else the
//   cold one. Hot victim: a dead block, else the least recently updated. Cold victim: the lowest
//   merge cost, i.e. the fewest associated data blocks (the merge cost table). The reclaimed
//   block goes to the cold partition when the victim was a dead hot block, else to the hot one.
// - Adaptation (3.4.2), every adapt_interval_pages random log writes, from U_hot, U_cold (valid
//   share of each partition's written pages) and N_d (dead blocks in the hot partition): N_d
//   grew -> one block less for hot; N_d fell and U_hot grew -> one more; otherwise, N_d fell and
//   U_hot < low_utilization -> k halves; U_cold fell -> k doubles. The paper gives the
//   directions only: step sizes, the interval, the "low" level and the starting k (a quarter of
//   the random buffer's pages) are our choices, all options.
#pragma once

#include <vector>

#include "fw/ftl/hybrid/hybrid_ftl.h"
#include "fw/ftl/hybrid/sequential_log.h"

namespace ssd::fw {

struct LastParams {
  HybridParams base;
  std::uint32_t size_threshold_pages = 2;
  bool close_on_misfit = false;
  std::uint32_t sequential_blocks = 1;
  std::uint64_t initial_k = 0;  // pages; 0 = a quarter of the random buffer
  std::uint64_t hot_age_pages = 0;
  std::uint64_t adapt_interval_pages = 0;
  double low_utilization = 0.5;
  static LastParams parse(FtlOptions& options, const FlashGeometry& geometry);
};

class LastFtl : public HybridFtl {
 public:
  explicit LastFtl(FtlContext& ctx) : LastFtl(ctx, LastParams::parse(ctx.options, ctx.hal.geometry())) {}
  LastFtl(FtlContext& ctx, const LastParams& params);

 protected:
  LogTarget log_target(const PageWrite& page) override;
  void on_log_block_gone(std::uint32_t block) override;
  void on_log_page(Spn spn, bool copied) override;

 private:
  enum Role : std::uint8_t { kNoRole, kSequential, kHot, kCold };
  LogTarget sequential_target(Lpn lpn);
  LogTarget random_target(Lpn lpn);
  std::uint32_t random_victim();
  void adapt();
  std::uint32_t count(Role role) const;
  void join(std::uint32_t block, Role role);  // a block taken into a buffer or partition

  LastParams p_;
  std::uint32_t random_cap_, hot_target_;
  std::uint64_t k_;
  std::vector<Role> role_;                   // per block
  std::vector<std::uint32_t> members_;       // the blocks in LAST's log, ascending (scans go over these only)
  SequentialLog sequential_;                 // the sequential log buffer
  std::vector<std::uint64_t> updated_at_;    // per block: last log write into it
  std::vector<std::uint64_t> written_at_;    // per segment page: log write counter when written
  std::uint32_t current_hot_ = kNone, current_cold_ = kNone;
  std::uint64_t log_clock_ = 0, next_adapt_ = 0;
  double last_u_hot_ = 0, last_u_cold_ = 0;
  std::uint32_t last_dead_ = 0;
  std::uint64_t threshold_bytes_;
  std::uint64_t &dead_hot_victims_, &hot_pages_, &cold_pages_, &sequential_pages_, &misfit_pages_;
  double &k_gauge_, &hot_blocks_gauge_;
};

}  // namespace ssd::fw
