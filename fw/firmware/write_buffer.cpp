#include "fw/firmware/write_buffer.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::fw {

const std::vector<std::string>& write_buffer_policy_names() {
  static const std::vector<std::string> names = {"off", "fifo", "page_lru", "block_lru"};
  return names;
}

WriteBufferPolicy write_buffer_policy(const std::string& name) {
  const auto& names = write_buffer_policy_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw std::invalid_argument("unknown write buffer policy '" + name + "'");
  return static_cast<WriteBufferPolicy>(it - names.begin());
}

WriteBuffer::WriteBuffer(std::uint32_t capacity, WriteBufferPolicy policy, std::uint32_t block_pages)
    : capacity_(capacity), policy_(policy), block_pages_(std::max<std::uint32_t>(1, block_pages)), entries_(capacity),
      index_(capacity), prev_(capacity, kNoEntry), next_(capacity, kNoEntry), epoch_of_(capacity, 0) {
  free_.reserve(capacity);
  for (std::uint32_t e = capacity; e-- > 0;) free_.push_back(e);  // entry 0 first
}

std::uint32_t WriteBuffer::insert(Lpn lpn) {
  if (free_.empty()) throw std::logic_error("write buffer: insert with no free entry");
  const std::uint32_t e = free_.back();
  free_.pop_back();
  Entry& x = entries_[e];
  x = Entry{};
  x.lpn = lpn;
  index_.set(lpn, e);
  ++dirty_;
  epoch_of_[e] = first_live_epoch_ + static_cast<std::uint32_t>(live_in_epoch_.size() - live_head_) - 1;  // the open one
  ++live_in_epoch_.back();
  if (policy_ == WriteBufferPolicy::kBlockLru) {
    const std::uint64_t lbn = lpn / block_pages_;
    auto [it, fresh] = block_of_.try_emplace(lbn);
    if (fresh) {
      it->second.place = blocks_.insert(blocks_.end(), lbn);
    } else {
      blocks_.splice(blocks_.end(), blocks_, it->second.place);
    }
    it->second.pages.push_back(e);
  } else {
    to_back(e);
  }
  return e;
}

void WriteBuffer::written(std::uint32_t e) {
  if (policy_ == WriteBufferPolicy::kPageLru) {
    unlink(e);
    to_back(e);
  } else if (policy_ == WriteBufferPolicy::kBlockLru) {
    if (entries_[e].draining) return;  // already on its way out, in its block's run
    auto& b = block_of_.at(entries_[e].lpn / block_pages_);
    blocks_.splice(blocks_.end(), blocks_, b.place);
  }
}

void WriteBuffer::read(std::uint32_t e) {
  if (!entries_[e].flushing) written(e);  // fifo: no change; the LRU policies count a read as a use
}

bool WriteBuffer::evict(std::vector<std::uint32_t>& out, std::uint32_t max_pages) {
  const std::size_t before = out.size();
  if (policy_ == WriteBufferPolicy::kBlockLru) {
    if (draining_next_ == draining_.size()) {  // the next block
      if (blocks_.empty()) return false;
      const std::uint64_t lbn = blocks_.front();
      Block& b = block_of_.at(lbn);
      draining_.assign(b.pages.begin(), b.pages.end());
      std::sort(draining_.begin(), draining_.end(),
                [this](std::uint32_t x, std::uint32_t y) { return entries_[x].lpn < entries_[y].lpn; });
      for (const std::uint32_t e : draining_) entries_[e].draining = true;
      draining_next_ = 0;
      blocks_.pop_front();
      block_of_.erase(lbn);
    }
    const std::size_t left = draining_.size() - draining_next_;
    const std::size_t take = max_pages == 0 ? left : std::min<std::size_t>(left, max_pages);
    for (std::size_t i = 0; i < take; ++i) {
      const std::uint32_t e = draining_[draining_next_++];
      entries_[e].draining = false;
      out.push_back(e);
    }
  } else {
    if (head_ == kNoEntry) return false;
    const std::uint32_t e = head_;
    unlink(e);
    out.push_back(e);
  }
  for (std::size_t i = before; i < out.size(); ++i) entries_[out[i]].flushing = true;
  dirty_ -= static_cast<std::uint32_t>(out.size() - before);
  return true;
}

void WriteBuffer::take(std::uint32_t e) {
  Entry& x = entries_[e];
  if (x.flushing) throw std::logic_error("write buffer: take of an entry that is not dirty");
  if (policy_ == WriteBufferPolicy::kBlockLru) {
    if (x.draining) {  // in the block being handed over, not yet out
      draining_.erase(std::find(draining_.begin() + static_cast<std::ptrdiff_t>(draining_next_), draining_.end(), e));
      x.draining = false;
    } else {
      const std::uint64_t lbn = x.lpn / block_pages_;
      Block& b = block_of_.at(lbn);
      b.pages.erase(std::find(b.pages.begin(), b.pages.end(), e));
      if (b.pages.empty()) {
        blocks_.erase(b.place);
        block_of_.erase(lbn);
      }
    }
  } else {
    unlink(e);
  }
  x.flushing = true;
  --dirty_;
}

void WriteBuffer::release(std::uint32_t e) {
  Entry& x = entries_[e];
  if (!x.flushing) throw std::logic_error("write buffer: release of an entry that is not flushing");
  index_.erase(e);  // if it is the newest copy (no newer one): the flash has it now
  x = Entry{};
  free_.push_back(e);
  if (--live_in_epoch_[live_head_ + (epoch_of_[e] - first_live_epoch_)] == 0) drop_settled_epochs();
}

void WriteBuffer::drop_settled_epochs() {
  while (live_in_epoch_.size() - live_head_ > 1 && live_in_epoch_[live_head_] == 0) {
    ++live_head_;
    ++first_live_epoch_;
  }
  if (live_head_ > 64 && live_head_ * 2 > live_in_epoch_.size()) {  // reclaim the dropped front
    live_in_epoch_.erase(live_in_epoch_.begin(), live_in_epoch_.begin() + static_cast<std::ptrdiff_t>(live_head_));
    live_head_ = 0;
  }
}

void WriteBuffer::dirty_in_order(std::vector<std::uint32_t>& out) const {
  if (policy_ != WriteBufferPolicy::kBlockLru) {
    for (std::uint32_t e = head_; e != kNoEntry; e = next_[e]) out.push_back(e);
    return;
  }
  out.insert(out.end(), draining_.begin() + static_cast<std::ptrdiff_t>(draining_next_), draining_.end());
  for (const std::uint64_t lbn : blocks_) {
    const auto& pages = block_of_.at(lbn).pages;
    const std::size_t first = out.size();
    out.insert(out.end(), pages.begin(), pages.end());
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [this](std::uint32_t x, std::uint32_t y) { return entries_[x].lpn < entries_[y].lpn; });
  }
}

std::uint32_t WriteBuffer::close_epoch() {
  const std::uint32_t closed = first_live_epoch_ + static_cast<std::uint32_t>(live_in_epoch_.size() - live_head_) - 1;
  live_in_epoch_.push_back(0);
  drop_settled_epochs();
  return closed;
}

void WriteBuffer::to_back(std::uint32_t e) {
  prev_[e] = tail_;
  next_[e] = kNoEntry;
  if (tail_ != kNoEntry) next_[tail_] = e;
  tail_ = e;
  if (head_ == kNoEntry) head_ = e;
}

void WriteBuffer::unlink(std::uint32_t e) {
  if (prev_[e] != kNoEntry) next_[prev_[e]] = next_[e];
  else head_ = next_[e];
  if (next_[e] != kNoEntry) prev_[next_[e]] = prev_[e];
  else tail_ = prev_[e];
  prev_[e] = next_[e] = kNoEntry;
}

}  // namespace ssd::fw
