// The report's power_cut section (--power-cut-at / --power-cut-after): when the power went, what
// was under way, what the flash and the DRAM lost, and the durability audit of the flash
// (stimuli/durability_tracker.h): every durable write must still be on it.
#pragma once

#include <nlohmann/json.hpp>
#include <map>
#include <string>

#include "fw/firmware/firmware.h"
#include "fw/recovery/boot_scan.h"
#include "fw/recovery/oob_recovery.h"
#include "hw/nand/nand_array.h"
#include "stimuli/durability_tracker.h"

namespace ssd::platform {

struct PowerCutFacts {
  double at_s = 0;                         // simulated time of the cut
  std::uint64_t requests_completed = 0;    // host requests completed before it
  std::uint64_t requests_in_flight = 0;    // submitted, not completed
  bool workload_ended = false;             // the workload ended before the cut came
  bool volatile_write_cache = false;       // the drive acknowledged writes from DRAM
  hw::CutDamage flash;                     // programs and erases cut short
  std::uint64_t buffered_pages_lost = 0;   // the write buffer's pages not dumped (DRAM is lost)
  double plp_hold_up_us = 0;               // capacitors: how long they held the drive up (0: none)
  std::uint64_t buffered_pages_at_cut = 0; // capacitors: the write buffer's pages when the firmware took the signal
  std::string plp_destage;                 // capacitors: "dump" or "ftl" (firmware.plp_destage)
  std::uint64_t plp_pages_evicted = 0;     // capacitors, ftl: of them, handed to the FTL in the hold-up
  std::uint64_t plp_pages_dumped = 0;      // capacitors, dump: of them, programmed into the dump area
  // Capacitors, work stopped: the FTL's programs and erases never issued, or dropped by the flash
  // controllers (fw::Firmware::stops_work_at_power_loss).
  std::uint64_t plp_ftl_work_stopped = 0;
  fw::OobRecoveryCounts recovery;          // the mapping rebuilt from the OOB of every page
  stimuli::DurabilityAudit audit;
};

// The boot after the cut (fw/recovery/boot_recovery.h): the recovery's time and work through the
// timed model, and how its map compares with the one read straight from the array.
struct BootFacts {
  fw::BootScanCounts counts;
  fw::OobRecoveryCounts recovery;
  std::uint64_t map_differences = 0;  // logical pages the two maps put apart: must be 0
  bool checkpoints = false;           // the firmware took map checkpoints
};

// The workload after the boot (--after-recovery continue): the new firmware's mount, and the
// rest of the workload on the drive it mounted.
struct AfterRecoveryFacts {
  double mount_s = 0;                     // from the boot's end to the mount's
  fw::Firmware::MountCounts mount;
  std::uint64_t mount_pages_programmed = 0, mount_erases = 0;  // the new FTL's, by the mount's end
  std::uint64_t requests_given_up = 0;    // in flight at the cut: never acknowledged
  std::uint64_t requests_completed = 0;   // after the power came back
  double simulated_s = 0;                 // from the mount's end to the last completion
  double wall_s = 0;
  std::uint64_t host_pages_written = 0, flash_pages_programmed = 0, erases = 0;  // the new firmware's FTL
  std::map<std::string, std::uint64_t> ftl_counters;  // all its counters (a mount's own among them)
  std::uint64_t pages_checked = 0, mismatches = 0;  // the oracle's, on reads after the power came back
  std::string first_mismatch;
  std::string mapping_check;              // the new firmware's mapping against the flash: "ok", "skipped" or the problem
};

nlohmann::json power_cut_section(const PowerCutFacts& f);
nlohmann::json after_recovery_section(const AfterRecoveryFacts& f);
nlohmann::json boot_section(const BootFacts& f, const FlashGeometry& geometry);
std::string power_cut_text(const nlohmann::json& power_cut);  // summary lines

}  // namespace ssd::platform
