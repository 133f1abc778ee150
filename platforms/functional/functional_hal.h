// The functional, untimed HAL: flash operations act on a NandArray at once (millions per
// second, no SystemC). Used by firmware unit tests, integrity fuzzing and preconditioning.
//
// Completions are queued and delivered by run(): per die in issue order (as a die's command
// queue would), across dies round-robin or, with a seed, in random order, so ordering hazards
// between dies show up in tests.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <vector>

#include "fw/hal/hal.h"
#include "fw/hal/table_placer.h"
#include "hw/nand/nand_array.h"

namespace ssd::platform {

class FunctionalHal : public fw::Hal {
 public:
  FunctionalHal(hw::NandArray& array, std::uint64_t sram_bytes, std::uint64_t dram_bytes, std::uint64_t seed = 0);

  const FlashGeometry& geometry() const override { return array_.geometry(); }
  void set_listener(fw::HalListener* l) override { listener_ = l; }
  void issue(const fw::HalOp& op) override;
  std::vector<BlockId> factory_bad_blocks() const override { return array_.factory_bad_blocks(); }
  void charge_cycles(std::uint64_t cycles, fw::FirmwareWork) override { cycles_ += cycles; }
  void touch(const fw::TableRegion& t, std::uint64_t offset, std::uint32_t bytes, fw::Access a) override;
  fw::TableRegion place_table(const std::string& name, std::uint64_t bytes, fw::MemoryKind preferred) override {
    return placer_.place(name, bytes, preferred);
  }
  void preload(Ppn ppn, Lpn lpn, Token token) override { array_.program(ppn, lpn, token); }
  void preload_block(BlockId block, std::uint32_t count, const PreloadedPage* pages, std::uint64_t sequence) override;
  void complete_host_command(std::uint32_t id, const LatencyTrail&, HostStatus status) override {
    if (on_host_complete) on_host_complete(id, status);
  }

  // Delivers completions until nothing is in flight. Returns the number delivered.
  std::uint64_t run();
  bool idle() const { return pending_ == 0; }

  std::function<void(std::uint32_t, HostStatus)> on_host_complete;
  std::uint64_t cycles() const { return cycles_; }
  std::uint64_t table_accesses() const { return accesses_; }
  const std::vector<fw::TableRegion>& tables() const { return placer_.tables(); }

 private:
  void execute(const fw::HalOp& op);

  hw::NandArray& array_;
  fw::HalListener* listener_ = nullptr;
  fw::TablePlacer placer_;
  std::vector<std::deque<fw::HalOp>> die_queues_;  // flash ops per die, plus one queue for DMA
  std::uint64_t pending_ = 0;
  std::vector<hw::PageContent> staging_;  // preload_block's pages as the array stores them
  bool shuffle_;
  std::mt19937_64 rng_;
  std::uint64_t cycles_ = 0, accesses_ = 0;
};

}  // namespace ssd::platform
