// WAFTL (Wei et al., "WAFTL: a workload adaptive flash translation layer with data partition",
// MSST 2011), as the ADAPT paper (section II-B, section IV) describes and measures it, on the
// hybrid log-block infrastructure.
//
// - Buffer zone: page-mapped blocks (ftl.log_share of the blocks, the paper's 3%) that absorb
//   every write that cannot go in place, appended in arrival order.
// - Data blocks are BMB or PMB. A BMB is the hybrids' data block: one logical block, block-mapped,
//   page offset kept (so a logical block written in order from its first page goes straight to
//   its BMB). A PMB is a page-mapped block holding pages of any logical block.
// - Data migration: when the buffer zone is full, all of it is flushed. First every buffered page
//   that is frequently accessed is copied to a PMB; then each buffer block is merged, sending the
//   rest to their BMBs (a full merge per logical block, a switch when a buffer block holds one
//   logical block whole and in order). A PMB page that is still frequently written stays there
//   through a merge of its logical block (its BMB offset is programmed as padding: pages are
//   programmed in order); one no longer frequently written goes to the BMB with the others.
// Assumptions the papers leave open (each an option where it changes results):
// - "Frequently accessed" = written at least hot_writes times (default 2), counted per logical
//   page and halved at every migration (so it measures recent writes); reads do not count.
// - PMB space: at most pmb_blocks blocks (default: all the over-provisioning the buffer zone and
//   the free pool leave). A migration that has more hot pages than the PMBs have room for first
//   reclaims PMBs, least valid first, while the one reclaimed has an invalid page: its remaining
//   pages go to their BMBs (a merge of their logical blocks). Hot pages still without room go to
//   their BMBs with the cold ones.
// - Host writes wait while a migration runs (it is one long merge), as for every hybrid merge.
// - All mapping tables in SRAM (the ADAPT paper gives WAFTL the same RAM as FASTer); the per-page
//   access counters (1 byte each) are charged to the DRAM buffer.
#pragma once

#include <deque>
#include <vector>

#include "fw/ftl/hybrid/hybrid_ftl.h"

namespace ssd::fw {

struct WaftlParams {
  HybridParams base;                 // base.log_blocks = buffer_blocks + pmb_blocks
  std::uint32_t buffer_blocks = 0;   // the buffer zone
  std::uint32_t pmb_blocks = 0;      // cap of the page-mapped data blocks
  std::uint32_t hot_writes = 2;      // recent writes that make a page frequently accessed
  static WaftlParams parse(FtlOptions& options, const FlashGeometry& geometry);
};

class WaftlFtl : public HybridFtl {
 public:
  explicit WaftlFtl(FtlContext& ctx) : WaftlFtl(ctx, WaftlParams::parse(ctx.options, ctx.hal.geometry())) {}
  WaftlFtl(FtlContext& ctx, const WaftlParams& params);

 protected:
  LogTarget log_target(const PageWrite& page) override;
  void on_log_block_gone(std::uint32_t block) override;
  void on_host_write(const PageWrite& page) override;
  void on_sequential_fill() override;  // every logical page counted once, as the writes would
  // A PMB page stays through a merge of its logical block while it is still frequently written.
  bool keeps_log_copy(Spn spn) const override {
    return role_[block_of(spn)] == kPmb && recent_writes(log_page_lpn(spn)) >= p_.hot_writes;
  }

 private:
  enum Role : std::uint8_t { kNoRole, kBuffer, kPmb };
  std::uint32_t recent_writes(Lpn lpn) const;
  std::uint32_t hot_buffered_pages() const;
  std::uint32_t pmb_room() const;  // pages the PMBs can still take, opening blocks up to the cap
  std::uint32_t pmb_reclaim_victim() const;  // kNone: none worth reclaiming
  void move_hot_pages_to_pmb();
  void publish();

  WaftlParams p_;
  std::vector<Role> role_;                 // per block
  std::deque<std::uint32_t> buffer_;       // buffer zone blocks, in fill order (back: being filled)
  std::vector<std::uint32_t> pmb_;         // page-mapped data blocks (back: being filled)
  std::vector<std::uint8_t> writes_;       // per logical page: recent writes (saturating)
  std::vector<std::uint16_t> epoch_of_;    // per logical page: epoch_ when last counted
  std::uint32_t epoch_ = 0;                // migrations since the counters were last rebased
  bool migrating_ = false;
  TableRegion counter_table_;
  int buffer_trace_ = -1, pmb_trace_ = -1;  // waveform handles
  std::uint64_t &migrations_, &to_pmb_, &pmb_reclaims_, &hot_without_room_;
  double &buffer_gauge_, &pmb_gauge_;
};

}  // namespace ssd::fw
