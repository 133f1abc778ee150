#include "fw/ftl/hybrid/bast.h"

namespace ssd::fw {

HybridParams BastFtl::parse(FtlOptions& o, const FlashGeometry& g) {
  HybridParams p = HybridParams::parse("bast", o, g, 1, HybridBlockDefault::kPlaneBlock);
  o.reject_unread("bast");
  return p;
}

HybridFtl::LogTarget BastFtl::log_target(const PageWrite& page) {
  const std::uint32_t lbn = lbn_of(page.lpn);
  if (auto it = log_of_.find(lbn); it != log_of_.end()) {
    if (full(it->second)) return LogTarget{kNone, it->second};
    owner_[it->second].last_write = ++clock_;
    return LogTarget{it->second, kNone};
  }
  if (const std::uint32_t block = open_log_block(); block != kNone) {
    log_of_[lbn] = block;
    owner_[block] = Owned{lbn, ++clock_};
    return LogTarget{block, kNone};
  }
  std::uint32_t victim = kNone;
  std::uint64_t oldest = ~std::uint64_t(0);
  context().hal.charge_cycles(std::uint64_t(context().costs.gc_scan_per_block) * owner_.size(), FirmwareWork::GcScan);
  for (const auto& [block, owned] : owner_)
    if (owned.last_write < oldest) {
      oldest = owned.last_write;
      victim = block;
    }
  return LogTarget{kNone, victim};
}

void BastFtl::on_log_block_gone(std::uint32_t block) {
  auto it = owner_.find(block);
  if (it == owner_.end()) return;
  log_of_.erase(it->second.lbn);
  owner_.erase(it);
}

}  // namespace ssd::fw
