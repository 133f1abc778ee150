// The controller as the firmware image sees it on the ISS core (core.model: iss): the core's
// memory map, the registers through which the image drives the hardware models, and the
// descriptors it hands them. The one contract between the image's HAL (fw/target/) and the
// register model (platforms/soc/controller_registers.h). Plain C++; every descriptor has the
// same layout on the host and on the Cortex-R5 (checked below), so the model reads what the
// firmware wrote byte for byte, as a controller's DMA engine reads a descriptor.
//
// Core memory map (32-bit):
//   0x0000_0000  TCM: code, data, stack (core.tcm_kib; no bus)
//   0x4000_0000  controller registers (below)
//   0x5000_0000  host data tokens of fetched commands, kTokensPerCommand per command id (what a
//                page's data stands for: the firmware reads a write's and fills a read's)
//   SRAM window  [kBusWindowsSplit - sram size, kBusWindowsSplit): the system bus's SRAM
//   0x8000_0000  DRAM window: the system bus's DRAM buffer
// The firmware's heap (its tables) runs from the SRAM window's start on into the DRAM window, so
// what it allocates first lies in SRAM and the rest in DRAM; every load and store there is a bus
// transaction. Its bounds come from registers at boot (they depend on the platform).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/latency_trail.h"

namespace ssd::mmio {

inline constexpr std::uint32_t kTcmBase = 0x0000'0000;
// The image's TCM layout (fw/CMakeLists.txt links it so): code and read-only data first, then
// data, bss and the stack. The platform's core.tcm_kib must hold all of it.
inline constexpr std::uint32_t kTcmCodeBytes = 0x000C'0000;  // 768 KiB
inline constexpr std::uint32_t kTcmBytes = 0x0010'0000;      // 1 MiB
inline constexpr std::uint32_t kStackBytes = 0x0001'0000;    // 64 KiB
inline constexpr std::uint32_t kRegistersBase = 0x4000'0000;
inline constexpr std::uint32_t kRegistersBytes = 0x1000;
inline constexpr std::uint32_t kTokenWindowBase = 0x5000'0000;
inline constexpr std::uint32_t kTokensPerCommand = 4096;
inline constexpr std::uint32_t kTokenWindowBytes = 0x1000'0000;
// The command ids the token window has room for (16,384): the most commands the controller may
// hold at once with the image on the ISS core.
inline constexpr std::uint32_t kTokenWindowCommandIds = kTokenWindowBytes / (kTokensPerCommand * 4);
inline constexpr std::uint32_t kBusWindowsSplit = 0x8000'0000;
inline constexpr std::uint32_t kSramWindowMaxBytes = 0x2000'0000;  // 512 MiB
inline constexpr std::uint32_t kDramWindowMaxBytes = 0x7000'0000;  // 1,792 MiB (the rest is the top of the map)

// Register offsets (32-bit registers).
enum Register : std::uint32_t {
  kIdentity = 0x00,       // RO: kIdentityValue
  kEvent = 0x04,          // RO, blocking: the next event's EventKind, its record written to the mailbox;
                          //     the core waits (idle) while there is none
  kMailbox = 0x08,        // WO: address of the image's EventMailbox
  kSubmitOp = 0x0c,       // WO: address of an OpDescriptor: the hardware starts the operation
  kCompleteHost = 0x10,   // WO: address of a HostCompletion: post the command's completion entry
  kTimeLow = 0x14,        // RO: present time in kernel ticks, low word (latches the high word)
  kTimeHigh = 0x18,       // RO: the latched high word
  kBootBytes = 0x1c,      // RO: size of the boot configuration (text, key=value lines)
  kBootFetch = 0x20,      // WO: address to copy the boot configuration to
  kPlaceTable = 0x24,     // WO: address of a TablePlacement: the platform places a table (report, addresses)
  kBooted = 0x28,         // WO: address of a BootReport: boot is done, the firmware waits for work
  kFatal = 0x2c,          // WO: address of a NUL-terminated message: the firmware failed
  kNoteGc = 0x30,         // WO: merges/collections in progress (waveform)
  kTraceState = 0x34,     // WO: address of a StateTrace: declare a traced firmware state
  kNoteState = 0x38,      // WO: address of a StateNote
  kHeapStart = 0x3c,      // RO: first byte of the heap
  kHeapEnd = 0x40,        // RO: one past its last byte
  kDebugOut = 0x44,       // WO: address of a MetricRecord (the end-of-run export of the image's metrics)
  kDebugReadPage = 0x48,  // WO: address of a PageRecord: the flash page's OOB as stored (end-of-run check)
  kWorkCounters = 0x4c,   // WO: address of the image's WorkCounters (read by the platform between jobs)
  kWorkMark = 0x50,       // WO: the kind of work the firmware charges now (boot option firmware.mark_work):
                          //     the cycles up to its next mark are that work's (calibration)
  kBadBlockCount = 0x54,  // RO: how many blocks carry the factory's bad-block marker (the format's scan)
  kBadBlockIndex = 0x58,  // WO: which of them kBadBlockAt then reads (0 .. count - 1)
  kBadBlockAt = 0x5c,     // RO: that factory-bad block's number, in block order
};
inline constexpr std::uint32_t kIdentityValue = 0x55D0'0001;

enum class EventKind : std::uint32_t { None = 0, HostCommand = 1, OpDone = 2 };

struct HostCommandEvent {
  std::uint32_t id;
  std::uint16_t op;   // HostOp
  std::uint16_t fua;  // 0 or 1
  std::uint64_t lba;
  std::uint32_t sectors;
  std::uint32_t issuer;
};

struct OpDoneEvent {
  std::uint32_t tag;
  std::uint32_t lpn;
  std::uint32_t token;
  std::uint32_t failed;  // a program's or erase's status reports failure
  std::uint32_t version; // a read's OOB sequence number
};

struct EventMailbox {
  HostCommandEvent command;
  OpDoneEvent done;
};

struct OpDescriptor {
  std::uint32_t tag;
  std::uint8_t kind;        // fw::OpKind
  std::uint8_t origin;      // fw::OpOrigin
  std::uint8_t background;  // 0 or 1
  std::uint8_t slc;         // a program in SLC mode: 0 or 1
  std::uint32_t ppn, lpn, token, bytes, host_cmd, partner_wait_ns;
  std::uint32_t version;  // a program's OOB sequence number
  std::uint32_t wait_ns;  // a timer's delay
  std::uint64_t buffer_addr;
};

struct HostCompletion {
  std::uint32_t id;
  std::uint32_t status;  // HostStatus
};

struct TablePlacement {
  std::uint32_t name;       // address of a NUL-terminated name
  std::uint32_t preferred;  // fw::MemoryKind
  std::uint64_t bytes;
  // Filled by the platform:
  std::uint32_t memory;  // fw::MemoryKind
  std::uint32_t ok;      // 0: fits nowhere (error text at `error`)
  std::uint64_t base;
  std::uint32_t error;  // address of a buffer of kErrorBytes for the reason
  std::uint32_t reserved;
};
inline constexpr std::uint32_t kErrorBytes = 256;

struct BootReport {
  std::uint32_t logical_pages;
  std::uint32_t logical_block_pages;
  std::uint32_t effective_options;  // address of the FTL's effective parameters (key=value lines, NUL-terminated)
  std::uint32_t warnings;           // address of its warnings (one per line, NUL-terminated)
};

struct StateTrace {
  std::uint32_t name;  // address of a NUL-terminated name
  std::uint32_t width;
  std::int32_t handle;  // filled by the platform
  std::uint32_t reserved;
};

struct StateNote {
  std::int32_t handle;
  std::uint32_t reserved;
  std::uint64_t value;
};

enum class MetricKind : std::uint32_t { Counter = 0, Gauge = 1 };
struct MetricRecord {
  std::uint32_t set;   // address of the set's NUL-terminated path
  std::uint32_t name;  // address of the metric's NUL-terminated name
  MetricKind kind;
  std::uint32_t reserved;
  std::uint64_t counter;
  double gauge;
};

// What the firmware's annotations would have charged, counted by the image (fw/target/): the
// units of each kind of work (fw/hal/firmware_work.h; the image runs with every cost at 1, so a
// charge adds its units) and the table accesses per memory. The calibration
// (tools/calibrate.py) fits the annotated model's costs to the cycles the ISS measured for them.
inline constexpr std::size_t kWorkKinds = 17;
struct WorkCounters {
  std::uint64_t units[kWorkKinds];
  std::uint64_t touches[2];       // by fw::MemoryKind: SRAM, DRAM
  std::uint64_t touch_bytes[2];
};

struct PageRecord {
  std::uint32_t ppn;
  std::uint32_t lpn;    // filled by the platform
  std::uint32_t token;  // filled by the platform
};

// The layouts the host and the target must agree on (AAPCS and x86-64 align 64-bit fields alike).
static_assert(sizeof(HostCommandEvent) == 24 && offsetof(HostCommandEvent, issuer) == 20);
static_assert(sizeof(OpDoneEvent) == 20);
static_assert(sizeof(OpDescriptor) == 48 && offsetof(OpDescriptor, buffer_addr) == 40);
static_assert(sizeof(HostCompletion) == 8);
static_assert(sizeof(TablePlacement) == 40 && offsetof(TablePlacement, base) == 24);
static_assert(sizeof(BootReport) == 16 && sizeof(StateTrace) == 16 && sizeof(StateNote) == 16);
static_assert(sizeof(MetricRecord) == 32 && offsetof(MetricRecord, gauge) == 24);
static_assert(sizeof(PageRecord) == 12);
static_assert(sizeof(WorkCounters) == 8 * (kWorkKinds + 4));

}  // namespace ssd::mmio
