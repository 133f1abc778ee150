#include "fw/firmware/read_reclaim.h"

#include <string>

namespace ssd::fw {

ReadReclaim::ReadReclaim(OpScheduler& ops, Ftl& ftl, const FlashGeometry& geometry, MetricSet& ftl_metrics,
                         std::function<bool(Lpn)> buffered)
    : ops_(ops),
      ftl_(ftl),
      geo_(geometry),
      buffered_(std::move(buffered)),
      blocks_(ftl_metrics.counter("read_reclaim_blocks")),
      reads_(ftl_metrics.counter("read_reclaim_reads")),
      writes_(ftl_metrics.counter("read_reclaim_writes")) {}

void ReadReclaim::reclaim(BlockId block) {
  queue_.push_back(Queued{block, ops_.erases_completed(block)});
  if (!busy_) start_next();
}

void ReadReclaim::start_next() {
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

void ReadReclaim::read_next_page() {
  // Done: every page read, or the block erased (or about to be) since the reclaim began.
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

void ReadReclaim::page_read(Ppn ppn, const HalResult& r) {
  if (r.lpn == kNoLpn) {  // an erased page: the block's written part is behind us
    start_next();
    return;
  }
  if (r.lpn < ftl_.logical_pages() && ftl_.locate(r.lpn) == ppn && !buffered_(r.lpn)) {
    OpScheduler::Background background(ops_);
    PageWrite w;
    w.lpn = r.lpn;
    w.token = r.token;  // an uncorrectable page stays marked so
    w.relocation = true;
    if (!ftl_.write(w).dropped) ++writes_;
  }
  ++page_;
  read_next_page();
}

std::string ReadReclaim::describe() const {
  if (idle()) return "";
  return "read reclaim of block " + std::to_string(block_) + " at page " + std::to_string(page_) + ", " +
         std::to_string(queue_.size()) + " more block(s) queued";
}

}  // namespace ssd::fw
