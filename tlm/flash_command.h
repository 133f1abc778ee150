// The protocol between the firmware's flash interface and the channel controllers: a generic
// payload carrying a FlashCommand extension.
//
// Protocol (flash_protocol_types, not the base protocol): the initiator sends BEGIN_REQ with an
// annotated delay (the command is posted at now + delay; the target queues it and returns
// TLM_ACCEPTED); when the operation is done the target sends BEGIN_RESP on the backward path
// with the result filled in, and the initiator returns TLM_COMPLETED.
#pragma once

#include <systemc>
#include <tlm>

#include "common/geometry.h"
#include "common/latency_trail.h"

namespace ssd::tlmx {

// ReadOob: a read that transfers only the page's spare area (OOB) out of the die.
enum class FlashOpcode : std::uint8_t { Read, ReadOob, Program, Erase };

// Whose work a command is, for the waveform (ssd.channelN.dieM.origin): a host request's, garbage
// collection's or a merge's, or the mapping table's (demand-loaded translation pages). The
// hardware treats them alike; only `background` changes how a die queue orders them.
enum class CommandOrigin : std::uint8_t { Host = 1, Gc = 2, Mapping = 3 };

inline bool is_read(FlashOpcode op) { return op == FlashOpcode::Read || op == FlashOpcode::ReadOob; }
inline const char* to_string(FlashOpcode op) {
  return op == FlashOpcode::Read      ? "read"
         : op == FlashOpcode::ReadOob ? "read-oob"
         : op == FlashOpcode::Program ? "program"
                                      : "erase";
}

struct FlashCommand : tlm::tlm_extension<FlashCommand> {
  FlashOpcode opcode = FlashOpcode::Read;
  Ppn ppn = kNoPpn;               // page (read/program) or the block's first page (erase)
  Lpn lpn = kNoLpn;               // program: OOB logical page; read: filled from the OOB
  Token token = 0;                // program: data token; read: filled from the page
  std::uint32_t version = 0;      // program: OOB sequence number; read: filled from the OOB
  std::uint64_t buffer_addr = 0;  // data-buffer address the page moves through (DMA)
  std::uint32_t tag = 0;          // initiator's handle, returned unchanged
  // program: a partner for a multi-plane program is expected; the die may hold this one until
  // it arrives, at most this long (the firmware's hint; nand.multiplane_wait_us applies to all)
  sc_core::sc_time partner_wait = sc_core::SC_ZERO_TIME;
  bool background = false;  // the firmware's own work (GC): channel.scheduler = host_first lets host work pass it
  bool slc = false;         // program: in SLC mode (the die keeps the block's mode for its reads and erase)
  // The priority class (common/io_queue.h's QueuePriority) of the host queue whose request the
  // command is on the way of, as the controller knows it from the command's request; kNoFlowClass
  // for the firmware's own work. channel.scheduler = flow_priority orders by it.
  std::uint8_t flow_class = kNoFlowClass;
  static constexpr std::uint8_t kNoFlowClass = 4;
  CommandOrigin origin = CommandOrigin::Host;
  // Power-loss work (the firmware's dump of its write buffer, fw::OpScheduler::HoldUpWork): a die
  // queue takes it ahead of every command not yet started.
  bool hold_up = false;
  // A read the ECC engine could not decode yet (reliability.errors): the read-retry step it is
  // re-read at (1..ecc.retry_steps), or its soft sensing. Set by the channel controller only (it
  // clears them when a command arrives); a read it finally cannot decode returns token
  // kUncorrectableToken.
  std::uint8_t retry_step = 0;
  bool soft = false;
  bool failed = false;            // program/erase: the die's status reports failure
  LatencyTrail trail;             // the controller adds its stages (queue, channel, array, DMA)

  tlm::tlm_extension_base* clone() const override { return new FlashCommand(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const FlashCommand&>(other);
  }
};

struct flash_protocol_types {
  typedef tlm::tlm_generic_payload tlm_payload_type;
  typedef tlm::tlm_phase tlm_phase_type;
};

}  // namespace ssd::tlmx
