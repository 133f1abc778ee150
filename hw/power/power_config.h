// The drive's energy and power parameters (platform keys power.*), without SystemC: what each
// part draws, and the NVMe power states and PCIe link states the drive may enter when idle.
//
// Energy is counted in two ways (platforms/report/energy_section.h):
//   operations   each NAND array operation (V x I x its array time, per plane it drives), each
//                SRAM and DRAM access (per byte), each instruction class on the ISS core;
//   time         the channels' I/O while they transfer, the cores while busy and idle, and the
//                background of every part (controller, DRAM refresh and standby, SRAM leakage,
//                NAND standby, the host link in its state) while the drive is operational.
// In a non-operational power state the drive draws the state's declared power in place of the
// background (NVMe's MP covers the whole device); operations that still run then (background
// GC the firmware finishes) are charged as always.
#pragma once

#include <cstdint>
#include <vector>

namespace ssd::hw {

// A non-operational NVMe power state (the Identify Controller power state descriptor: MP, ENLAT,
// EXLAT) with its APST idle time: how long the drive stays idle in the state before it (the
// operational state, or the previous entry of the list) before moving to this one.
struct NonOperationalState {
  double power_mw = 0;
  double entry_us = 0, exit_us = 0;
  double idle_ms = 0;
};

// A PCIe link low-power state (ASPM L1, or L1.2 of the L1 PM substates): entered after the link
// has been idle `idle_us` in the state before it (L0, or the previous entry); leaving it takes
// `exit_us` before the next transfer.
struct LinkLowPowerState {
  double power_mw = 0;
  double idle_us = 0, exit_us = 0;
};

struct PowerConfig {
  // NAND (per die; SimpleSSD's defaults, the typical currents of Micron MLC parts: VCC 3.3 V,
  // ICC1-3 25 mA, ICC4R/W 10 mA, ISB 30 uA). An array operation draws vcc x icc_<op> for its
  // array time; ONFI specifies ICC1-3 per active LUN, so a multi-plane operation draws the same
  // unless multiplane_share > 0: then icc x (1 + (planes - 1) x multiplane_share).
  double nand_vcc_v = 3.3;
  double nand_icc_read_ma = 25, nand_icc_program_ma = 25, nand_icc_erase_ma = 25;
  double nand_multiplane_share = 0;
  double nand_standby_ua = 30;  // ISB, every die, all the operational time
  // The channel's I/O while it carries command cycles and data (its bus's busy time): vcc x
  // channel_icc_ma (ICC4R/W); per byte, that over the channel's bytes per second.
  double channel_icc_ma = 10;
  // Memories (hw/memory/memory_target.h): per 64-byte line and per row opened, and background.
  // DRAM: DRAMPower's memspec of a Micron 8 Gb x16 DDR4-3200 (IDD0/4R/4W/2N at 1.2 V): 2.89 nJ a
  // line read, 2.66 written, 2.28 nJ an activate and precharge of a 2 KiB row, 44.4 mW precharge
  // standby and 0.6 mW refresh. SRAM: CACTI 7 at 22 nm (low standby power cells), 2 MiB.
  double dram_line_read_pj = 2890, dram_line_write_pj = 2660, dram_activate_pj = 2280;
  std::uint32_t dram_row_bytes = 2048;
  double dram_background_mw = 45;
  double sram_line_pj = 180, sram_leakage_mw_per_mib = 0.53;
  // Each firmware core: mW per MHz of clock while busy, and mW idle (clock gated, WFI).
  double core_mw_per_mhz = 0.08, core_idle_mw = 2;
  // The ISS core: each instruction class's energy per issue cycle relative to an ALU cycle
  // (hw/iss/cpi_table.h's order); an issue cycle of weight 1 costs core_mw_per_mhz / 1 MHz x 1 us.
  // A load or store multiple counts as one register pair's cycles. The core's memory stalls
  // cost its busy power for their time.
  std::vector<double> iss_class_weights = std::vector<double>(9, 1.0);
  // The controller's other logic (host interface, DMA engines, ECC, the system bus), always.
  double controller_static_mw = 250;
  // The host link in L0 (the PHY of all lanes), and its low-power states in order of depth.
  double link_l0_mw = 400;
  std::vector<LinkLowPowerState> link_states;  // empty: the link stays in L0 (ASPM off)
  // APST: the non-operational states in order of depth (empty: the drive stays in PS0).
  std::vector<NonOperationalState> states;
};

}  // namespace ssd::hw
