// The power.* platform parameters (hw/power/power_config.h), one line each like the others in
// platform_parameters.cpp. The energy figures only count: they change no timing. The idle states
// (power.apst, power.aspm) do: a command after an idle gap pays the wake-up, so both are off
// unless a platform turns them on.
#include "hw/iss/cpi_table.h"
#include "platforms/config/parameter.h"
#include "platforms/config/platform_config.h"

namespace ssd::platform {

namespace {
using C = PlatformConfig;
using Power = hw::PowerConfig;
// power.<key>, from 0 to `hi`, its default the one hw::PowerConfig holds.
Parameter quantity(const std::string& key, std::string unit, double hi, std::string help, double Power::*field) {
  return quantity_param("power." + key, std::move(unit), 0, hi, false, Power{}.*field, std::move(help),
                        [field](C& c, double v) { c.power.*field = v; });
}
}  // namespace

std::vector<Parameter> power_parameters() {
  const Power d;
  return {
      quantity_param("power.nand_vcc_v", "V", 0, 10, true, d.nand_vcc_v, "NAND supply voltage (VCC)",
                     [](C& c, double v) { c.power.nand_vcc_v = v; }),
      quantity("nand_icc_read_ma", "mA", 1000, "NAND array read current ICC1, per die", &Power::nand_icc_read_ma),
      quantity("nand_icc_program_ma", "mA", 1000, "NAND array program current ICC2, per die",
               &Power::nand_icc_program_ma),
      quantity("nand_icc_erase_ma", "mA", 1000, "NAND array erase current ICC3, per die", &Power::nand_icc_erase_ma),
      quantity("nand_multiplane_share", "", 8,
               "the current each further plane of a multi-plane operation adds, as a share of the operation's "
               "(0: ONFI's per-LUN currents, multi-plane included)",
               &Power::nand_multiplane_share),
      quantity("nand_standby_ua", "uA", 1e5, "NAND standby current ISB, per die", &Power::nand_standby_ua),
      quantity("channel_icc_ma", "mA", 1000,
               "NAND I/O current (ICC4R/W) at power.nand_vcc_v while a channel carries command cycles or data",
               &Power::channel_icc_ma),
      quantity("dram_line_read_pj", "pJ", 1e6, "DRAM energy of a 64-byte line read (burst and I/O)",
               &Power::dram_line_read_pj),
      quantity("dram_line_write_pj", "pJ", 1e6, "DRAM energy of a 64-byte line written", &Power::dram_line_write_pj),
      quantity("dram_activate_pj", "pJ", 1e6,
               "DRAM energy of a row's activate and precharge; an access opens ceil(bytes / dram_row_bytes) rows "
               "(closed-page policy)",
               &Power::dram_activate_pj),
      count_param("power.dram_row_bytes", 64, 1 << 20, d.dram_row_bytes, "DRAM row (page) size",
                  [](C& c, std::uint64_t v) { c.power.dram_row_bytes = std::uint32_t(v); }),
      quantity("dram_background_mw", "mW", 1e5, "DRAM standby and refresh power, the whole DRAM",
               &Power::dram_background_mw),
      quantity("sram_line_pj", "pJ", 1e6, "SRAM energy of a 64-byte line read or written", &Power::sram_line_pj),
      quantity("sram_leakage_mw_per_mib", "mW", 1e4, "SRAM leakage per MiB", &Power::sram_leakage_mw_per_mib),
      quantity("core_mw_per_mhz", "mW/MHz", 100,
               "a firmware core's power while busy per MHz of its clock (no Cortex-R5 figure is published: ARM's "
               "Cortex-A5 at 40 nm, under 0.08)",
               &Power::core_mw_per_mhz),
      quantity("core_idle_mw", "mW", 1e4, "a firmware core's power while idle (clock gated: leakage)",
               &Power::core_idle_mw),
      list_param("power.iss_class_weights", "", 0, 100, d.iss_class_weights,
                 "core.model = iss: energy per issue cycle of each instruction class (alu, load, store, "
                 "load_multiple, store_multiple, branch, multiply, divide, vfp) relative to an ALU cycle",
                 [](C& c, const std::vector<double>& v) { c.power.iss_class_weights = v; }),
      quantity("controller_static_mw", "mW", 1e5,
               "the controller's other logic (host interface, DMA, ECC engine, system bus) while operational",
               &Power::controller_static_mw),
      quantity("link_l0_mw", "mW", 1e5, "the host link's PHY (all lanes) in L0", &Power::link_l0_mw),
      flag_param("power.aspm", false,
                 "the host link enters its low-power states (power.link_*: L1, L1.2) when the drive holds no command",
                 [](C& c, bool v) { c.aspm = v; }),
      list_param("power.link_mw", "mW", 0, 1e5, {70, 0.04},
                 "power.aspm: the link's power in each low-power state (L1: 15-20 mW a lane, L1.2: 10 uW a lane)",
                 [](C& c, const std::vector<double>& v) { c.link_lists.power_mw = v; }),
      list_param("power.link_idle_us", "us", 0, 1e9, {32, 100},
                 "power.aspm: idle time in the state before (L0, then the previous) before each is entered",
                 [](C& c, const std::vector<double>& v) { c.link_lists.idle = v; }),
      list_param("power.link_exit_us", "us", 0, 1e9, {64, 100},
                 "power.aspm: each state's exit latency (L1: the 64 us a Samsung 970 EVO's link capability "
                 "declares; L1.2: T_POWER_ON plus common-mode restore)",
                 [](C& c, const std::vector<double>& v) { c.link_lists.exit = v; }),
      flag_param("power.apst", false,
                 "autonomous power state transitions: the idle drive enters the non-operational states "
                 "power.state_* (PS1, PS2, ... after PS0)",
                 [](C& c, bool v) { c.apst = v; }),
      list_param("power.state_mw", "mW", 0, 1e5, {70, 10},
                 "power.apst: each non-operational state's power, the whole drive (MP; defaults: a Samsung 970 EVO "
                 "Plus's PS3 and PS4)",
                 [](C& c, const std::vector<double>& v) { c.state_lists.power_mw = v; }),
      list_param("power.state_entry_us", "us", 0, 1e9, {210, 2000}, "power.apst: each state's entry latency (ENLAT)",
                 [](C& c, const std::vector<double>& v) { c.state_lists.entry = v; }),
      list_param("power.state_exit_us", "us", 0, 1e9, {1200, 8000}, "power.apst: each state's exit latency (EXLAT)",
                 [](C& c, const std::vector<double>& v) { c.state_lists.exit = v; }),
      list_param("power.state_idle_ms", "ms", 0, 1e7, {70.5, 500},
                 "power.apst: idle time in the state before (PS0, then the previous) before each is entered "
                 "(defaults: Linux's 50 x (ENLAT + EXLAT))",
                 [](C& c, const std::vector<double>& v) { c.state_lists.idle = v; }),
  };
}

namespace {
// A state list of power.apst or power.aspm, all of the same length.
void check_lengths(const std::string& path, const std::string& flag,
                   const std::vector<std::pair<std::string, const std::vector<double>*>>& lists) {
  for (const auto& [key, list] : lists)
    if (list->size() != lists[0].second->size())
      throw ConfigError(path + ": " + flag + ": " + key + " lists " + std::to_string(list->size()) + " states and " +
                        lists[0].first + " " + std::to_string(lists[0].second->size()) +
                        ": one entry per state in each");
}
}  // namespace

void finish_power_config(const std::string& path, PlatformConfig& c) {
  Power& p = c.power;
  if (p.iss_class_weights.size() != hw::kInstructionClasses)
    throw ConfigError(path + ": power.iss_class_weights lists " + std::to_string(p.iss_class_weights.size()) +
                      " weights: one per instruction class (" + std::to_string(hw::kInstructionClasses) + ")");
  p.states.clear();
  p.link_states.clear();
  if (c.apst) {
    const auto& l = c.state_lists;
    check_lengths(path, "power.apst",
                  {{"power.state_mw", &l.power_mw},
                   {"power.state_entry_us", &l.entry},
                   {"power.state_exit_us", &l.exit},
                   {"power.state_idle_ms", &l.idle}});
    for (std::size_t k = 0; k < l.power_mw.size(); ++k)
      p.states.push_back({l.power_mw[k], l.entry[k], l.exit[k], l.idle[k]});
  }
  if (c.aspm) {
    const auto& l = c.link_lists;
    check_lengths(path, "power.aspm",
                  {{"power.link_mw", &l.power_mw}, {"power.link_idle_us", &l.idle}, {"power.link_exit_us", &l.exit}});
    for (std::size_t k = 0; k < l.power_mw.size(); ++k) p.link_states.push_back({l.power_mw[k], l.idle[k], l.exit[k]});
  }
  // The memories' energy per access (hw/memory/memory_target.h).
  c.sram.line_read_pj = c.sram.line_write_pj = p.sram_line_pj;
  c.dram.line_read_pj = p.dram_line_read_pj;
  c.dram.line_write_pj = p.dram_line_write_pj;
  c.dram.activate_pj = p.dram_activate_pj;
  c.dram.row_bytes = p.dram_row_bytes;
}

}  // namespace ssd::platform
