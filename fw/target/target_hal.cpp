#include "fw/target/target_hal.h"

#include "fw/hal/op_descriptor.h"
#include "fw/hal/table_placer.h"

namespace ssd::fw {

namespace {

volatile std::uint32_t* register_address(mmio::Register r) {
  return reinterpret_cast<volatile std::uint32_t*>(std::uintptr_t(mmio::kRegistersBase) + r);
}

// Where the hardware shows a command's host data tokens (the firmware reads a write's, fills a read's).
Token* tokens_of(std::uint32_t id) {
  return reinterpret_cast<Token*>(std::uintptr_t(mmio::kTokenWindowBase) +
                                  std::uintptr_t(id) * mmio::kTokensPerCommand * sizeof(Token));
}

}  // namespace

// The compiler must neither keep a descriptor's fields in registers past the register access
// that hands it to the hardware nor read what the hardware filled in before it: a memory
// clobber on both sides (one core, strongly ordered device memory: no DSB needed).
std::uint32_t TargetHal::read_register(mmio::Register r) {
  asm volatile("" ::: "memory");
  const std::uint32_t v = *register_address(r);
  asm volatile("" ::: "memory");
  return v;
}
void TargetHal::write_register(mmio::Register r, std::uint32_t value) {
  asm volatile("" ::: "memory");
  *register_address(r) = value;
  asm volatile("" ::: "memory");
}

void TargetHal::issue(const HalOp& op) {
  op_ = to_descriptor(op);
  write_register(mmio::kSubmitOp, &op_);
}

TableRegion TargetHal::place_table(const std::string& name, std::uint64_t bytes, MemoryKind preferred) {
  char error[mmio::kErrorBytes] = {};
  mmio::TablePlacement p{};
  p.name = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(name.c_str()));
  p.preferred = static_cast<std::uint32_t>(preferred);
  p.bytes = bytes;
  p.error = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(error));
  write_register(mmio::kPlaceTable, &p);
  if (!p.ok) throw ResourceError(error);
  return TableRegion{name, static_cast<MemoryKind>(p.memory), p.base, bytes};
}

void TargetHal::complete_host_command(std::uint32_t host_cmd, const LatencyTrail&, HostStatus status) {
  completion_.id = host_cmd;
  completion_.status = static_cast<std::uint32_t>(status);
  write_register(mmio::kCompleteHost, &completion_);
}

std::uint64_t TargetHal::now_ticks() const {
  const std::uint32_t low = read_register(mmio::kTimeLow);
  return std::uint64_t(read_register(mmio::kTimeHigh)) << 32 | low;
}

void TargetHal::note_gc(std::uint32_t in_progress) { write_register(mmio::kNoteGc, in_progress); }

int TargetHal::trace_state(const std::string& name, unsigned width) {
  mmio::StateTrace t{};
  t.name = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(name.c_str()));
  t.width = width;
  write_register(mmio::kTraceState, &t);
  return t.handle;
}

void TargetHal::note_state(int handle, std::uint64_t value) {
  if (handle < 0) return;
  mmio::StateNote n{};
  n.handle = handle;
  n.value = value;
  write_register(mmio::kNoteState, &n);
}

void TargetHal::serve(HostCommandHandler& host) {
  write_register(mmio::kMailbox, &mailbox_);
  write_register(mmio::kWorkCounters, &counters_);
  for (;;) {
    switch (static_cast<mmio::EventKind>(read_register(mmio::kEvent))) {
      case mmio::EventKind::HostCommand: {
        const mmio::HostCommandEvent& e = mailbox_.command;
        HostCommand cmd;
        cmd.id = e.id;
        cmd.op = static_cast<HostOp>(e.op);
        cmd.fua = e.fua != 0;
        cmd.lba = e.lba;
        cmd.sectors = e.sectors;
        cmd.write_tokens = tokens_of(e.id);
        cmd.read_tokens = tokens_of(e.id);
        cmd.issuer = e.issuer;
        host.on_host_command(cmd);
        break;
      }
      case mmio::EventKind::OpDone: {
        const mmio::OpDoneEvent& e = mailbox_.done;
        listener_->on_hal_complete(e.tag, HalResult{e.lpn, e.token, {}, e.failed != 0, e.version});
        break;
      }
      case mmio::EventKind::None: break;
    }
  }
}

}  // namespace ssd::fw
