#include "fw/firmware/block_mover.h"

#include <string>

namespace ssd::fw {

BlockMover::BlockMover(OpScheduler& ops, Ftl& ftl, const FlashGeometry& geometry, MetricSet& ftl_metrics,
                       const std::string& prefix, std::function<bool(Lpn)> buffered)
    : ops_(ops),
      ftl_(ftl),
      geo_(geometry),
      prefix_(prefix),
      buffered_(std::move(buffered)),
      blocks_(ftl_metrics.counter(prefix + "_blocks")),
      reads_(ftl_metrics.counter(prefix + "_reads")),
      writes_(ftl_metrics.counter(prefix + "_writes")),
      metadata_writes_(ftl_metrics.counter(prefix + "_metadata_writes")) {}

PageMove move_page(OpScheduler& ops, Ftl& ftl, const std::function<bool(Lpn)>& buffered, Lpn lpn, Token token,
                   Ppn ppn) {
  if (lpn == kNoLpn || ftl.locate(lpn) != ppn) return PageMove::None;
  OpScheduler::Background background(ops);
  if (lpn >= ftl.logical_pages()) return ftl.relocate_metadata(lpn) ? PageMove::Metadata : PageMove::None;
  if (buffered(lpn)) return PageMove::None;
  PageWrite w;
  w.lpn = lpn;
  w.token = token;  // an uncorrectable page stays marked so
  w.relocation = true;
  return ftl.write(w).dropped ? PageMove::None : PageMove::Data;
}

void BlockMover::move(BlockId block) {
  queue_.push_back(Queued{block, ops_.erases_completed(block)});
  if (!busy_) start_next();
}

void BlockMover::start_next() {
  while (!queue_.empty() && ops_.erases_completed(queue_.front().block) != queue_.front().epoch) queue_.pop_front();
  busy_ = !queue_.empty();
  if (!busy_) return;
  block_ = queue_.front().block;
  epoch_ = queue_.front().epoch;
  queue_.pop_front();
  page_ = 0;
  ++blocks_;
  read_next_page();
}

void BlockMover::read_next_page() {
  // Done: every page read, or the block erased (or about to be) since the move began.
  if (page_ == geo_.pages_per_block || ops_.erase_pending(block_) || ops_.erases_completed(block_) != epoch_) {
    start_next();
    return;
  }
  const Ppn ppn = geo_.first_page(block_) + page_;
  OpScheduler::Background background(ops_);
  OpRef read = ops_.read(ppn);
  ops_.on_complete(read, [this, ppn](const HalResult& r) { page_read(ppn, r); });
  ops_.submit(read);
  ++reads_;
}

void BlockMover::page_read(Ppn ppn, const HalResult& r) {
  if (r.lpn == kNoLpn) {  // an erased page: the block's written part is behind us
    start_next();
    return;
  }
  const PageMove moved = move_page(ops_, ftl_, buffered_, r.lpn, r.token, ppn);
  if (moved == PageMove::Data) ++writes_;
  if (moved == PageMove::Metadata) ++metadata_writes_;
  ++page_;
  read_next_page();
}

std::string BlockMover::describe() const {
  if (idle()) return "";
  return prefix_ + " of block " + std::to_string(block_) + " at page " + std::to_string(page_) + ", " +
         std::to_string(queue_.size()) + " more block(s) queued";
}

}  // namespace ssd::fw
