#include "platforms/functional/functional_hal.h"

#include <stdexcept>

namespace ssd::platform {

FunctionalHal::FunctionalHal(hw::NandArray& array, std::uint64_t sram_bytes, std::uint64_t dram_bytes,
                             std::uint64_t seed)
    : array_(array),
      placer_(sram_bytes, dram_bytes),
      die_queues_(array.geometry().total_dies() + 1),
      shuffle_(seed != 0),
      rng_(seed) {}

void FunctionalHal::issue(const fw::HalOp& op) {
  std::size_t q = die_queues_.size() - 1;  // DMA queue
  if (fw::is_flash_read(op.kind) || op.kind == fw::OpKind::Program || op.kind == fw::OpKind::Erase) {
    if (op.ppn >= array_.geometry().total_pages())
      throw hw::NandRuleViolation("flash " + std::string(fw::to_string(op.kind)) + " of page " +
                                  std::to_string(op.ppn) + " beyond the array");
    q = array_.geometry().die_of_block(array_.geometry().block_of(op.ppn));
  }
  die_queues_[q].push_back(op);
  ++pending_;
}

void FunctionalHal::preload_block(BlockId block, std::uint32_t count, const PreloadedPage* pages,
                                  std::uint64_t sequence) {
  staging_.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) staging_[i] = hw::PageContent{pages[i].lpn, pages[i].token};
  array_.preload_block(block, count, staging_.data(), sequence);
}

void FunctionalHal::touch(const fw::TableRegion& t, std::uint64_t offset, std::uint32_t bytes, fw::Access) {
  if (offset + bytes > t.bytes)
    throw std::out_of_range("firmware access beyond table '" + t.name + "' (offset " + std::to_string(offset) +
                            ", " + std::to_string(bytes) + " bytes, table " + std::to_string(t.bytes) + " bytes)");
  ++accesses_;
}

void FunctionalHal::execute(const fw::HalOp& op) {
  fw::HalResult result;
  switch (op.kind) {
    case fw::OpKind::Read:
    case fw::OpKind::ReadOob: {
      hw::PageContent c = array_.read(op.ppn);
      result.lpn = c.lpn;
      result.token = c.token;
      result.version = array_.version(op.ppn);
      break;
    }
    case fw::OpKind::Program:
      result.failed = !array_.program(op.ppn, op.lpn, op.token, hw::NandArray::kBeforeRun, op.slc);
      array_.record_version(op.ppn, op.version);
      break;
    case fw::OpKind::Erase: result.failed = !array_.erase(array_.geometry().block_of(op.ppn)); break;
    default: break;
  }
  listener_->on_hal_complete(op.tag, result);
}

std::uint64_t FunctionalHal::run() {
  std::uint64_t delivered = 0;
  const std::uint32_t queues = static_cast<std::uint32_t>(die_queues_.size());
  // Round-robin from the first die on every call, so the order depends on what is in flight
  // now, not on the drive's history (a fill laid out directly continues as a written one).
  std::uint32_t cursor = 0;
  while (pending_ > 0) {
    std::uint32_t q = shuffle_ ? static_cast<std::uint32_t>(rng_() % queues) : cursor++ % queues;
    for (std::uint32_t step = 0; step < queues && die_queues_[q].empty(); ++step) q = (q + 1) % queues;
    fw::HalOp op = die_queues_[q].front();
    die_queues_[q].pop_front();
    --pending_;
    execute(op);
    ++delivered;
  }
  return delivered;
}

}  // namespace ssd::platform
