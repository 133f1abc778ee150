// The firmware's hardware abstraction layer (HAL): everything the FTL and its runtime may ask of
// the hardware. Two implementations exist: a functional untimed flash array (unit tests,
// integrity fuzzing, preconditioning) and the co-simulation HAL on the modeled core, where every
// operation becomes a TLM transaction and every charge becomes simulated core time.
//
// Plain C++17: no SystemC here or anywhere under fw/.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/geometry.h"
#include "common/host_status.h"
#include "common/latency_trail.h"
#include "fw/hal/firmware_work.h"

namespace ssd::fw {

// Whose work an operation is (reported to the hardware for the waveform only): a host request's,
// garbage collection's or a merge's, or the mapping table's (translation pages).
enum class OpOrigin : std::uint8_t { Host, Gc, Mapping };

enum class OpKind : std::uint8_t {
  Read,        // flash page read (data + OOB) into the controller's data buffer
  Program,     // flash page program from the data buffer, with OOB (lpn, token)
  Erase,       // flash block erase; ppn is the block's first page
  HostDmaIn,   // host memory -> data buffer (write command payload)
  HostDmaOut,  // data buffer -> host memory (read command payload)
  Join,        // no hardware action: completes when its dependencies have
  ReadOob,     // flash read of the spare area only (logical page and token, no page data)
  Timer,       // no flash action: completes wait_ns after it is issued (the firmware's timer)
};

inline bool is_flash_read(OpKind k) { return k == OpKind::Read || k == OpKind::ReadOob; }

const char* to_string(OpKind k);

// One operation as handed to the hardware.
struct HalOp {
  std::uint32_t tag = 0;  // opaque to the HAL; returned with the completion
  OpKind kind = OpKind::Join;
  Ppn ppn = kNoPpn;        // page (Read/Program) or first page of the block (Erase)
  Lpn lpn = kNoLpn;        // OOB logical page written by a Program
  Token token = 0;         // data token written by a Program
  std::uint32_t version = 0;  // OOB sequence number written by a Program (OpScheduler: versions)
  std::uint32_t bytes = 0; // DMA length (HostDma*)
  std::uint32_t host_cmd = 0;  // host command a DMA belongs to
  std::uint64_t buffer_addr = 0;  // data-buffer (DRAM) address the data moves through
  // Program: the firmware expects a program of the same page offset on another plane of the die
  // soon; the die may hold this one up to this long to start both as one multi-plane program.
  std::uint32_t partner_wait_ns = 0;
  // Program: in SLC mode (the part's SLC-mode prefix command before it), one bit a cell. A block
  // takes the mode of its first program after an erase; its reads and its erase follow that mode.
  bool slc = false;
  std::uint32_t wait_ns = 0;  // Timer: how long after issue it completes
  bool background = false;  // the firmware's own work (GC), which host work may pass in a queue
  OpOrigin origin = OpOrigin::Host;
  bool hold_up = false;  // power-loss work (OpScheduler::HoldUpWork): ahead of what a die has not started
  LatencyTrail trail;             // the request it is on the way of (common/latency_trail.h)
};

// What the hardware reports back.
struct HalResult {
  Lpn lpn = kNoLpn;  // OOB logical page of a Read (kNoLpn: erased page)
  Token token = 0;   // data token of a Read (kUnwrittenToken: erased page)
  LatencyTrail trail;  // the operation's trail, with the hardware's stages added
  // A Program or Erase whose status reports failure (hw/nand/block_failures.h): the block is to
  // be retired (a program's data is still in the data buffer).
  bool failed = false;
  std::uint32_t version = 0;  // OOB sequence number of a Read (0: erased, preloaded or not kept)
};

// Where a firmware table lives in the controller's memory map.
enum class MemoryKind : std::uint8_t { Sram, Dram };
struct TableRegion {
  std::string name;
  MemoryKind memory = MemoryKind::Sram;
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  bool timed = true;  // its accesses reach the memory model (records: only those a cache-modelling HAL placed)
};
enum class Access : std::uint8_t { Read, Write };

class HalListener {
 public:
  virtual ~HalListener() = default;
  virtual void on_hal_complete(std::uint32_t tag, const HalResult& result) = 0;
};

class Hal {
 public:
  virtual ~Hal() = default;
  virtual const FlashGeometry& geometry() const = 0;
  virtual void set_listener(HalListener* listener) = 0;

  // Starts an operation; completion is reported later through the listener, never from inside
  // issue() itself.
  virtual void issue(const HalOp& op) = 0;

  // Firmware cost annotation: the cycles the firmware just spent and on what (the report's
  // firmware profile), and a table access at a real address (so it costs bus and memory time,
  // and contends with DMA).
  virtual void charge_cycles(std::uint64_t cycles, FirmwareWork work) = 0;
  virtual void touch(const TableRegion& table, std::uint64_t offset, std::uint32_t bytes, Access access) = 0;

  // Places a firmware table in SRAM when it fits there (after what is already placed), else in
  // the DRAM buffer. Throws std::runtime_error when neither has room.
  virtual TableRegion place_table(const std::string& name, std::uint64_t bytes, MemoryKind preferred) = 0;

  // The firmware's own records (operations in flight, write-buffer entries): memory the
  // image's loads and stores reach on the ISS core like any other, but whose cost the annotated
  // core's calibrated cycles already hold, stalls included, unless it models a data cache
  // (core.annotated_dcache): then their accesses go through that cache, so their misses follow
  // how many records are live and how far apart, as on the ISS. Placed as the image's heap lays
  // them out, in the order they are made: in SRAM until something no longer fits there, then in
  // DRAM. A HAL without a cache model places nothing, and its records' accesses cost nothing
  // beyond the bounds check (no virtual call: they are many a request).
  virtual TableRegion place_records(const std::string& name, std::uint64_t bytes) {
    return TableRegion{name, MemoryKind::Dram, 0, bytes, false};
  }
  void touch_record(const TableRegion& records, std::uint64_t offset, std::uint32_t bytes, Access access) {
    if (offset + bytes > records.bytes) throw std::out_of_range("firmware access beyond records '" + records.name + "'");
    if (records.timed) time_record_access(records, offset, bytes, access);
  }

  // The host command `host_cmd` is finished: post its completion entry with `status`, which
  // carries on `trail`.
  virtual void complete_host_command(std::uint32_t host_cmd, const LatencyTrail& trail, HostStatus status) = 0;

  // The blocks whose factory bad-block marker is set, in block order: what the format's scan of
  // every block's marker finds (done once before the run, so untimed). Such a block is never
  // programmed or erased.
  virtual std::vector<BlockId> factory_bad_blocks() const { return {}; }

  // The firmware's present time in kernel ticks (a timed HAL: the running job's local time), for
  // latency trails; an untimed HAL has none.
  virtual std::uint64_t now_ticks() const { return 0; }

  // Preconditioning only: writes a page's data and OOB straight into the flash, untimed, as a
  // factory image would (the FTL then sets up its tables to match). Pages of a block must be
  // preloaded in order, like programs. HALs that model time refuse (std::logic_error).
  virtual void preload(Ppn ppn, Lpn lpn, Token token) {
    (void)ppn, (void)lpn, (void)token;
    throw std::logic_error("this HAL cannot preload flash contents (preconditioning runs on the functional HAL)");
  }
  // The same for pages [0, count) of an erased block at once, as though its first page had been
  // the array's `sequence`-th program (the caller numbers blocks as programming in its order
  // would have). For layouts of millions of pages.
  struct PreloadedPage {
    Lpn lpn;
    Token token;
  };
  virtual void preload_block(BlockId block, std::uint32_t count, const PreloadedPage* pages, std::uint64_t sequence) {
    (void)block, (void)count, (void)pages, (void)sequence;
    throw std::logic_error("this HAL cannot preload flash contents (preconditioning runs on the functional HAL)");
  }

  // Observability: how many garbage collections / merges are in progress (for the waveform).
  virtual void note_gc(std::uint32_t in_progress) { (void)in_progress; }
  // Observability: a firmware state worth following over time (a partition size, a threshold),
  // traced as ssd.firmware.<name> ("ftl.pmb_blocks": signal pmb_blocks in scope ssd.firmware.ftl).
  // Declared while the firmware is built (before the simulation starts); returns a handle for
  // note_state, or -1 when nothing traces (then notes are dropped).
  virtual int trace_state(const std::string& name, unsigned width) {
    (void)name, (void)width;
    return -1;
  }
  virtual void note_state(int handle, std::uint64_t value) { (void)handle, (void)value; }

 protected:
  // A record access within bounds, to records placed `timed` (see touch_record).
  virtual void time_record_access(const TableRegion& records, std::uint64_t offset, std::uint32_t bytes, Access access) {
    (void)records, (void)offset, (void)bytes, (void)access;
  }
};

}  // namespace ssd::fw
