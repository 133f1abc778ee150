// The firmware's HAL on the controller itself (the image the ISS core runs): a thin driver of
// the controller's registers (common/controller_mmio.h). Operations and completion entries go
// to the hardware as descriptors; events (fetched host commands, finished operations) come
// back through a mailbox the hardware fills while the core waits on the event register.
// Cycle charges and table touches cost nothing here: the instructions executed and the loads and
// stores of the tables themselves are what the firmware costs; they are only counted.
#pragma once

#include "common/controller_mmio.h"
#include "fw/firmware/host_command.h"
#include "fw/hal/hal.h"
#include "fw/hal/firmware_work.h"

namespace ssd::fw {

static_assert(mmio::kWorkKinds == kFirmwareWorkKinds, "common/controller_mmio.h counts every kind of work");

class TargetHal final : public Hal {
 public:
  TargetHal(const FlashGeometry& geometry, bool mark_work) : geometry_(geometry), mark_work_(mark_work) {}

  const FlashGeometry& geometry() const override { return geometry_; }
  void set_listener(HalListener* listener) override { listener_ = listener; }
  void issue(const HalOp& op) override;
  // Counted only (mmio::WorkCounters), for the calibration of the annotated model.
  void charge_cycles(std::uint64_t units, FirmwareWork work) override {
    counters_.units[static_cast<std::size_t>(work)] += units;
    if (mark_work_) write_register(mmio::kWorkMark, static_cast<std::uint32_t>(work));
  }
  void touch(const TableRegion& table, std::uint64_t, std::uint32_t bytes, Access) override {
    const auto memory = static_cast<std::size_t>(table.memory);
    ++counters_.touches[memory];
    counters_.touch_bytes[memory] += bytes;
  }
  TableRegion place_table(const std::string& name, std::uint64_t bytes, MemoryKind preferred) override;
  void complete_host_command(std::uint32_t host_cmd, const LatencyTrail& trail, HostStatus status) override;
  std::uint64_t now_ticks() const override;
  std::vector<BlockId> factory_bad_blocks() const override {
    std::vector<BlockId> bad(read_register(mmio::kBadBlockCount));
    for (std::uint32_t i = 0; i < bad.size(); ++i) {
      write_register(mmio::kBadBlockIndex, i);
      bad[i] = read_register(mmio::kBadBlockAt);
    }
    return bad;
  }
  void note_gc(std::uint32_t in_progress) override;
  int trace_state(const std::string& name, unsigned width) override;
  void note_state(int handle, std::uint64_t value) override;

  // The firmware's main loop: waits for the next event and hands it to `host` (a fetched
  // command) or to the listener (a finished operation). Never returns.
  [[noreturn]] void serve(HostCommandHandler& host);

  static std::uint32_t read_register(mmio::Register r);
  static void write_register(mmio::Register r, std::uint32_t value);
  template <typename T>
  static void write_register(mmio::Register r, const T* descriptor) {
    write_register(r, static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(descriptor)));
  }

 private:
  FlashGeometry geometry_;
  bool mark_work_;
  HalListener* listener_ = nullptr;
  mmio::OpDescriptor op_{};
  mmio::HostCompletion completion_{};
  mmio::EventMailbox mailbox_{};
  mmio::WorkCounters counters_{};
};

}  // namespace ssd::fw
