// What the firmware spends its cycles on, as it tells the HAL with each charge: one kind per
// cost of the platform's firmware_cycles section (fw/runtime/firmware_costs.h), so the report's
// firmware profile shows which work to optimise.
#pragma once

#include <array>
#include <cstdint>

namespace ssd::fw {

enum class FirmwareWork : std::uint8_t {
  HostCommand,   // fetch and decode a command, set up its DMA
  HostPage,      // split a command into pages, their bookkeeping
  HostComplete,  // post a completion
  OpIssue,       // build and post a flash or DMA operation (host data, GC copies, merges, translation pages)
  OpComplete,    // handle an operation's completion
  MapLookup,     // mapping lookups (cache searches included)
  MapUpdate,     // mapping updates
  PageAllocate,  // taking pages of write frontiers
  GcScan,        // choosing GC and merge victims
  BufferInsert,  // a written page into the write buffer (or absorbed by its copy there)
  BufferEvict,   // a page handed from the write buffer to the FTL
  // OpIssue and OpComplete split by what the operation is (the ISS calibration measured a read's
  // host DMA completing at a third of a program's, which releases write-buffer entries and
  // evicts, and at half a write's DMA, which readies its programs); OpIssue/OpComplete keep the
  // flash reads and erases.
  OpIssueProgram,
  OpCompleteProgram,
  OpIssueDmaIn,
  OpCompleteDmaIn,
  OpIssueDmaOut,
  OpCompleteDmaOut,
};
inline constexpr std::size_t kFirmwareWorkKinds = 17;

inline const char* work_name(FirmwareWork w) {
  static constexpr std::array<const char*, kFirmwareWorkKinds> names = {
      "host_command", "host_page", "host_complete", "op_issue", "op_complete",
      "map_lookup",   "map_update", "page_allocate", "gc_victim_scan", "buffer_insert", "buffer_evict",
      "op_issue_program", "op_complete_program", "op_issue_dma_in", "op_complete_dma_in",
      "op_issue_dma_out", "op_complete_dma_out"};
  return names[static_cast<std::size_t>(w)];
}

}  // namespace ssd::fw
