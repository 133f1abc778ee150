// HybridFtl::mount (BAST, FAST, FASTer, LAST, ADAPT, WAFTL, MNK, MCSplit) after a power cut.
//
// What the flash shows of a hybrid is each logical block's pages and where they are; what it does
// not show is the scheme's log state (which log block BAST gave which logical block, FAST's FIFO
// order, LAST's hot and cold partitions, ADAPT's history, MNK's groups), which lived in SRAM. The
// mount therefore rebuilds only the block map and merges the rest, so every scheme starts from an
// empty log, as it does on a filled drive:
// - a written segment holding valid pages of one logical block only, each at its own offset, is
//   that block's data block (of two such, the one with more of its pages; then the lower); it
//   takes no more pages in place (a segment written before the cut is not written further);
// - every other written segment is a log block, its valid pages the newest copies of their
//   logical pages (its OOB gives each page's logical page);
// - those log blocks are merged one after another before the host comes back: a switch, partial
//   or full merge, or one erase for a block with no valid page, by the FTL's own merge code (its
//   counters show them, and mount_merges counts them).
// A scheme rebuilding its log from the OOB instead would copy less at the mount; merging keeps one
// path for every scheme, and its cost is measured (power_cut.after_recovery.mount_s).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "fw/ftl/common/segment_mount.h"
#include "fw/ftl/hybrid/hybrid_ftl.h"

namespace ssd::fw {

std::string HybridFtl::mount(const MountImage& image, std::function<void()> settled) {
  const std::uint32_t ppb = space_.segment_pages();
  adopt_written_segments(space_, image, [](std::uint32_t) { return std::uint8_t{kLog}; });
  // A segment written before the cut is written no further (as page mapping's; and on a striped
  // segment a member's first page torn and erased again at the boot would leave a hole below its
  // write pointer): full, its unwritten pages never valid.
  for (std::uint32_t s = 0; s < space_.segments(); ++s)
    if (space_.state(s) == SegmentState::Closed) write_pointer_[s] = ppb;
  // The valid pages, and per segment which logical blocks it holds and whether each is in place.
  struct Held {
    std::uint32_t pages = 0;
    bool in_place = true;
  };
  std::vector<std::map<std::uint32_t, Held>> held(space_.segments());
  for (Lpn lpn = 0; lpn < params_.logical_pages; ++lpn) {
    const Ppn ppn = image.map.ppn_of(lpn);
    if (ppn == kNoPpn || !in_used_segment(space_, ppn)) continue;  // none, or a power-loss dump's (the firmware's)
    const Spn spn = space_.to_spn(ppn);
    space_.mount_valid(spn);
    page_lpn_[spn] = lpn;
    Held& h = held[space_.segment_of(spn)][lbn_of(lpn)];
    ++h.pages;
    h.in_place &= spn - space_.first_spn(space_.segment_of(spn)) == offset_of(lpn);
  }
  space_.charge_rebuilt_valid_pages();
  // Data blocks: segments holding one logical block only, in place.
  for (std::uint32_t s = 0; s < space_.segments(); ++s) {
    if (held[s].size() != 1 || !held[s].begin()->second.in_place) continue;
    const auto& [lbn, h] = *held[s].begin();
    const std::uint32_t home = data_block_[lbn];
    if (home == kNone || h.pages > held[home].begin()->second.pages) data_block_[lbn] = s;
  }
  std::vector<std::uint32_t> logs;
  for (std::uint32_t s = 0; s < space_.segments(); ++s) {
    if (space_.state(s) != SegmentState::Closed) continue;
    if (held[s].size() == 1 && data_block_[held[s].begin()->first] == s) {
      space_.set_kind(s, kData);
      continue;
    }
    logs.push_back(s);
    const Spn first = space_.first_spn(s);
    for (std::uint32_t k = 0; k < write_pointer_[s]; ++k)
      if (space_.is_valid(first + k)) log_copy_[page_lpn_[first + k]] = first + k;
  }
  // Pages in data blocks are found through the block map, not the log's page map.
  for (std::uint32_t lbn = 0; lbn < params_.logical_blocks; ++lbn)
    if (const std::uint32_t home = data_block_[lbn]; home != kNone)
      std::fill(page_lpn_.begin() + first_spn(home), page_lpn_.begin() + first_spn(home) + ppb, kNoLpn);
  log_count_ = static_cast<std::uint32_t>(logs.size());
  ctx_.metrics.counter("mount_merges") += logs.size();
  mount_merges_.assign(logs.rbegin(), logs.rend());  // popped from the back: in segment order
  mount_settled_ = std::move(settled);
  next_mount_merge();
  return "";
}

void HybridFtl::next_mount_merge() {
  while (!mount_merges_.empty()) {
    const std::uint32_t victim = mount_merges_.back();
    mount_merges_.pop_back();
    if (!start_merge(victim)) return;  // it ends in merge_done, which comes back here
  }
  if (mount_settled_) {
    const std::function<void()> settled = std::move(mount_settled_);
    mount_settled_ = nullptr;
    settled();
  }
}

}  // namespace ssd::fw
