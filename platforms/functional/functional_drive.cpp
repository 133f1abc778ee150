#include "platforms/functional/functional_drive.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::platform {

namespace {
std::unique_ptr<hw::NandArray> make_array(const FunctionalDriveConfig& config) {
  auto array = std::make_unique<hw::NandArray>(config.geometry, config.sequential_program);
  array->set_failures(config.failures);
  array->set_bits_per_cell(config.firmware.word_line_pages);
  return array;
}
}  // namespace

FunctionalDrive::FunctionalDrive(const FunctionalDriveConfig& config)
    : owned_array_(make_array(config)),
      array_(owned_array_.get()),
      hal_(*array_, config.sram_bytes, config.dram_bytes, config.completion_seed),
      firmware_(std::make_unique<fw::Firmware>(hal_, config.firmware, metrics_)) {}

FunctionalDrive::FunctionalDrive(const FunctionalDriveConfig& config, hw::NandArray& array)
    : array_(&array),
      hal_(array, config.sram_bytes, config.dram_bytes, config.completion_seed),
      firmware_(std::make_unique<fw::Firmware>(hal_, config.firmware, metrics_)) {}

ReplayResult replay_functional(fw::Firmware& firmware, FunctionalHal& hal, stimuli::Workload& workload,
                               stimuli::IntegrityOracle& oracle, std::uint32_t queue_depth) {
  struct Slot {
    bool busy = false;
    fw::HostCommand cmd;
    std::vector<Token> tokens;
  };
  std::vector<Slot> slots(queue_depth);
  stimuli::InFlightPages in_flight;
  ReplayResult result;
  const std::uint32_t page_bytes = hal.geometry().page_bytes;
  const std::uint64_t capacity = firmware.capacity_sectors();
  std::uint64_t busy = 0;

  hal.on_host_complete = [&](std::uint32_t id, HostStatus status) {
    Slot& s = slots[id];
    if (s.cmd.op == HostOp::Flush)
      ;  // durability is the timed platform's (the functional drive never loses power)
    else if (s.cmd.op == HostOp::Trim && status == HostStatus::Success)
      oracle.acknowledge_trim(s.cmd.lba, s.cmd.sectors);
    else if (s.cmd.op == HostOp::Trim)
      ;  // refused by a read-only drive: nothing deallocated
    else if (s.cmd.is_write() && status == HostStatus::Success)
      oracle.acknowledge_write(s.cmd.lba, s.cmd.sectors, s.tokens.data());
    else if (s.cmd.is_write())
      ++result.rejected_writes;  // not written: the data stays what it was
    else
      oracle.check_read(s.cmd.lba, s.cmd.sectors, s.tokens.data(), status);
    in_flight.remove(id);
    workload.completed(s.cmd.issuer);
    s.busy = false;
    --busy;
  };

  stimuli::HostRequest req;
  bool have = false, done = false;
  std::uint32_t next_slot = 0;
  while (true) {
    while (!done && busy < queue_depth) {
      if (!have && !workload.ready()) break;  // per-stream queue depths: wait for a completion
      if (!have && !(have = workload.next(req))) {
        done = true;
        break;
      }
      if (!req.is_flush() && (req.sectors == 0 || req.lba + req.sectors > capacity))
        throw stimuli::WorkloadError(workload.describe() + ": request at sector " + std::to_string(req.lba) + " (+" +
                                     std::to_string(req.sectors) + ") is beyond the drive (" +
                                     std::to_string(capacity) + " sectors)");
      const PageSpan span = req.is_flush() ? PageSpan{0, 0} : page_span(req.lba, req.sectors, page_bytes);
      if (in_flight.conflicts(span.first, span.count, req.modifies())) {
        ++result.held_for_conflicts;
        break;
      }
      while (slots[next_slot].busy) next_slot = (next_slot + 1) % queue_depth;
      Slot& s = slots[next_slot];
      s.busy = true;
      ++busy;
      s.cmd = fw::HostCommand{next_slot, req.op, req.lba, req.sectors, nullptr, nullptr, req.issuer, {}, req.fua};
      if (req.is_flush()) {
        ++result.flushes;
      } else if (req.is_trim()) {
        s.tokens.clear();
        ++result.trims;
      } else if (req.is_write()) {
        oracle.make_write_tokens(req.lba, req.sectors, s.tokens);
        s.cmd.write_tokens = s.tokens.data();
        ++result.writes;
      } else {
        s.tokens.assign(span.count, 0);
        s.cmd.read_tokens = s.tokens.data();
        ++result.reads;
      }
      ++result.requests;
      in_flight.add(next_slot, span.first, span.count, req.modifies());
      have = false;
      firmware.on_host_command(s.cmd);
    }
    if (busy == 0 && done) break;
    hal.run();
    if (busy != 0) throw std::logic_error("functional replay: commands left incomplete with no operation in flight");
  }
  hal.on_host_complete = nullptr;
  return result;
}

}  // namespace ssd::platform
