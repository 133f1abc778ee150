// Lets one firmware instance run first on the functional HAL (fast preconditioning on the very
// NAND array the timed model uses) and then on the co-simulation HAL, keeping its FTL state.
// Tables are always placed by the co-simulation HAL, so their addresses are the real ones.
// Switch only when no operation is in flight.
#pragma once

#include "fw/hal/hal.h"

namespace ssd::platform {

class HalSwitch : public fw::Hal {
 public:
  explicit HalSwitch(fw::Hal& placement) : placement_(placement), active_(&placement) {}

  void use(fw::Hal& hal) {
    active_ = &hal;
    hal.set_listener(listener_);
  }
  fw::Hal& active() { return *active_; }

  const FlashGeometry& geometry() const override { return placement_.geometry(); }
  void set_listener(fw::HalListener* l) override {
    listener_ = l;
    active_->set_listener(l);
  }
  void issue(const fw::HalOp& op) override { active_->issue(op); }
  void charge_cycles(std::uint64_t c, fw::FirmwareWork w) override { active_->charge_cycles(c, w); }
  void touch(const fw::TableRegion& t, std::uint64_t o, std::uint32_t b, fw::Access a) override {
    active_->touch(t, o, b, a);
  }
  fw::TableRegion place_table(const std::string& n, std::uint64_t b, fw::MemoryKind k) override {
    return placement_.place_table(n, b, k);
  }
  fw::TableRegion place_records(const std::string& n, std::uint64_t b) override {
    return placement_.place_records(n, b);
  }
  void complete_host_command(std::uint32_t id, const LatencyTrail& trail, HostStatus status) override {
    active_->complete_host_command(id, trail, status);
  }
  std::uint64_t now_ticks() const override { return active_->now_ticks(); }
  std::vector<BlockId> factory_bad_blocks() const override { return placement_.factory_bad_blocks(); }
  void note_gc(std::uint32_t in_progress) override { active_->note_gc(in_progress); }
  // States go to the timed HAL even while preconditioning runs on the functional one, so the
  // waveform starts from the state preconditioning left.
  int trace_state(const std::string& name, unsigned width) override { return placement_.trace_state(name, width); }
  void note_state(int handle, std::uint64_t value) override { placement_.note_state(handle, value); }
  void preload(Ppn ppn, Lpn lpn, Token token) override { active_->preload(ppn, lpn, token); }
  void preload_block(BlockId block, std::uint32_t count, const PreloadedPage* pages, std::uint64_t sequence) override {
    active_->preload_block(block, count, pages, sequence);
  }

 protected:
  void time_record_access(const fw::TableRegion& r, std::uint64_t o, std::uint32_t b, fw::Access a) override {
    active_->touch_record(r, o, b, a);
  }

 private:
  fw::Hal& placement_;
  fw::Hal* active_;
  fw::HalListener* listener_ = nullptr;
};

}  // namespace ssd::platform
