// Every platform parameter, one line each: key, (unit,) range, default, meaning, the field it sets.
// Ranges refuse zero and absurd values; counts are whole numbers, physical quantities take fractions.
#include <systemc>

#include "fw/ftl/registry.h"
#include "fw/firmware/write_buffer.h"
#include "platforms/config/parameter.h"
#include "platforms/config/platform_config.h"

namespace ssd::platform {

namespace {
using C = PlatformConfig;
using sc_core::sc_time;
std::vector<sc_time> times_us(const std::vector<double>& v) {
  std::vector<sc_time> out;
  for (double x : v) out.push_back(sc_time(x, sc_core::SC_US));
  return out;
}
// A firmware cost (firmware_cycles.<name>): cycles, its default the one fw::FirmwareCosts holds.
Parameter cost_param(const std::string& name, std::uint32_t fw::FirmwareCosts::*cost, std::string help) {
  return count_param("firmware_cycles." + name, 0, 1e7, double(fw::FirmwareCosts{}.*cost), std::move(help),
                     [cost](C& c, std::uint64_t v) { c.firmware.costs.*cost = std::uint32_t(v); });
}
// A coefficient of the RBER power law (reliability.rber_<name>; hw/nand/reliability_config.h).
Parameter rber_param(const std::string& name, double hw::RberCoefficients::*field, double fallback, std::string help) {
  return quantity_param("reliability.rber_" + name, "", 0, 1e6, false, fallback, std::move(help),
                        [field](C& c, double v) { c.reliability.rber.*field = v; });
}
}  // namespace

// The list below followed by the power.* parameters (power_parameters.cpp).
std::vector<Parameter> with_power_parameters(std::vector<Parameter> listed) {
  for (Parameter& p : power_parameters()) listed.push_back(std::move(p));
  return listed;
}

const std::vector<Parameter>& platform_parameters() {
  static const std::vector<Parameter> all = with_power_parameters({
      text_param("name", "unnamed", "platform name, echoed in reports", [](C& c, const std::string& v) { c.name = v; }),
      count_param("geometry.channels", 1, 64, 8, "flash channels (ONFI buses)",
                  [](C& c, std::uint64_t v) { c.geometry.channels = std::uint32_t(v); }),
      count_param("geometry.ways", 1, 32, 4, "chips (chip enables) per channel",
                  [](C& c, std::uint64_t v) { c.geometry.ways = std::uint32_t(v); }),
      count_param("geometry.dies_per_way", 1, 8, 1, "dies per chip",
                  [](C& c, std::uint64_t v) { c.geometry.dies_per_way = std::uint32_t(v); }),
      count_param("geometry.planes_per_die", 1, 8, 2, "planes per die",
                  [](C& c, std::uint64_t v) { c.geometry.planes_per_die = std::uint32_t(v); }),
      count_param("geometry.blocks_per_plane", 4, 1u << 22, 1024, "erase blocks per plane (beyond a real plane's few thousand for single-chip drives sized to a trace's footprint)",
                  [](C& c, std::uint64_t v) { c.geometry.blocks_per_plane = std::uint32_t(v); }),
      count_param("geometry.pages_per_block", 2, 4096, 256, "pages per block",
                  [](C& c, std::uint64_t v) { c.geometry.pages_per_block = std::uint32_t(v); }),
      count_param("geometry.page_bytes", 512, 65536, 8192, "data bytes per page (the mapping unit), a multiple of 512",
                  [](C& c, std::uint64_t v) { c.geometry.page_bytes = std::uint32_t(v); }),
      count_param("geometry.oob_bytes", 0, 8192, 448,
                  "spare (OOB) bytes per page (holds the logical page; not counted in bus transfers, which move the "
                  "data bytes)",
                  [](C& c, std::uint64_t v) { c.geometry.oob_bytes = std::uint32_t(v); }),
      list_param("nand.t_read_us", "us", 0, 100000, {50},
                 "array read time tR per page type (LSB, CSB, MSB...: page p uses entry p mod count)",
                 [](C& c, const std::vector<double>& v) { c.nand.t_read = times_us(v); }),
      list_param("nand.t_prog_us", "us", 0, 100000, {600}, "array program time tPROG per page type",
                 [](C& c, const std::vector<double>& v) { c.nand.t_prog = times_us(v); }),
      quantity_param("nand.t_erase_us", "us", 0, 1e6, true, 3000, "block erase time tBERS",
                     [](C& c, double v) { c.nand.t_erase = sc_time(v, sc_core::SC_US); }),
      // SLC mode defaults: the SLC column of HP's white paper "Solid State Drive Technology:
      // Differences between SLC, MLC and TLC NAND" (Table 1: read 25 us, program 200-300 us,
      // erase 1.5-2 ms).
      quantity_param("nand.slc_t_read_us", "us", 0, 100000, true, 25,
                     "SLC mode (several bits a cell, a block programmed one bit a cell): array read time",
                     [](C& c, double v) { c.nand.slc_t_read = sc_time(v, sc_core::SC_US); }),
      quantity_param("nand.slc_t_prog_us", "us", 0, 100000, true, 250, "SLC mode: array program time",
                     [](C& c, double v) { c.nand.slc_t_prog = sc_time(v, sc_core::SC_US); }),
      quantity_param("nand.slc_t_erase_us", "us", 0, 1e6, true, 2000, "SLC mode: block erase time",
                     [](C& c, double v) { c.nand.slc_t_erase = sc_time(v, sc_core::SC_US); }),
      quantity_param("nand.slc_cycle_wear", "", 0, 1, false, 1,
                     "SLC mode: the wear of a program/erase cycle in SLC mode as a share of a native one (the "
                     "P/E cycles the RBER law and the grown-bad-block hazard see; 1: a cycle is a cycle)",
                     [](C& c, double v) { c.reliability.failures.slc_cycle_wear = v; }),
      count_param("nand.read_cmd_cycles", 1, 64, 7, "command/address bus cycles of a read (00h, 5 address, 30h)",
                  [](C& c, std::uint64_t v) { c.nand.read_cmd_cycles = std::uint32_t(v); }),
      count_param("nand.program_cmd_cycles", 1, 64, 7, "command/address bus cycles of a program (80h, 5 address, 10h)",
                  [](C& c, std::uint64_t v) { c.nand.program_cmd_cycles = std::uint32_t(v); }),
      count_param("nand.erase_cmd_cycles", 1, 64, 5, "command/address bus cycles of an erase (60h, 3 address, D0h)",
                  [](C& c, std::uint64_t v) { c.nand.erase_cmd_cycles = std::uint32_t(v); }),
      quantity_param("nand.cmd_cycle_ns", "ns", 0.1, 1000, false, 10, "length of one command/address cycle",
                     [](C& c, double v) { c.nand.cmd_cycle = sc_time(v, sc_core::SC_NS); }),
      flag_param("nand.multiplane", true,
                 "run same-kind operations to the same page offset on different planes of a die as one multi-plane "
                 "operation",
                 [](C& c, bool v) { c.nand.multiplane = v; }),
      quantity_param("nand.multiplane_wait_us", "us", 0, 1e6, false, 0,
                     "a die waits this long after a lone program arrived for a partner on another plane "
                     "before starting it alone (0: never waits; reads never wait)",
                     [](C& c, double v) { c.nand.multiplane_wait = sc_time(v, sc_core::SC_US); }),
      flag_param("nand.cache_read", false,
                 "cache read: the next read's tR overlaps the data out of the last (ONFI read cache random)",
                 [](C& c, bool v) { c.nand.cache_read = v; }),
      flag_param("nand.cache_program", false,
                 "cache program: the next program's data in overlaps tPROG of the last (ONFI program page cache)",
                 [](C& c, bool v) { c.nand.cache_program = v; }),
      flag_param("nand.program_suspend", false, "a read reaching a programming die suspends the program",
                 [](C& c, bool v) { c.nand.program_suspend = v; }),
      flag_param("nand.erase_suspend", false, "a read reaching an erasing die suspends the erase",
                 [](C& c, bool v) { c.nand.erase_suspend = v; }),
      quantity_param("nand.t_suspend_us", "us", 0, 1e4, false, 20,
                     "time from a suspend command until the die takes a read (tPSPD/tESPD)",
                     [](C& c, double v) { c.nand.t_suspend = sc_time(v, sc_core::SC_US); }),
      quantity_param("nand.t_resume_us", "us", 0, 1e4, false, 10,
                     "array time a resumed program or erase adds to what it had left",
                     [](C& c, double v) { c.nand.t_resume = sc_time(v, sc_core::SC_US); }),
      count_param("nand.suspend_max_reads", 1, 1024, 8,
                  "reads that may pass one program or erase before it is no longer suspended",
                  [](C& c, std::uint64_t v) { c.nand.suspend_max_reads = std::uint32_t(v); }),
      flag_param("nand.sequential_program", true, "the part requires in-order page programming within a block",
                 [](C& c, bool v) { c.sequential_program = v; }),
      flag_param("reliability.errors", false,
                 "reads see raw bit errors (reliability.rber_*: wear, retention, read disturb) that the ECC engine "
                 "(ecc.*) corrects, retries or reports as uncorrectable; off: every read decodes at once",
                 [](C& c, bool v) { c.reliability.errors = v; }),
      rber_param("epsilon", &hw::RberCoefficients::epsilon, 8.34e-5, "the RBER's floor"),
      rber_param("alpha", &hw::RberCoefficients::alpha, 3.30e-11, "wear term alpha c^k: its factor"),
      rber_param("k", &hw::RberCoefficients::k, 1.71, "wear term: the power of the P/E cycles c"),
      rber_param("beta", &hw::RberCoefficients::beta, 5.56e-19, "retention term beta c^m t^n (t in days): its factor"),
      rber_param("m", &hw::RberCoefficients::m, 2.49, "retention term: the power of c"),
      rber_param("n", &hw::RberCoefficients::n, 3.33, "retention term: the power of the retention time t"),
      rber_param("gamma", &hw::RberCoefficients::gamma, 6.26e-13, "read-disturb term gamma c^p r^q: its factor"),
      rber_param("p", &hw::RberCoefficients::p, 1.76, "read-disturb term: the power of c"),
      rber_param("q", &hw::RberCoefficients::q, 0.47, "read-disturb term: the power of the block's reads r"),
      text_param("reliability.rber_source",
                 "2y-nm MLC set (epsilon .. q) of SimpleSSD 2.1 (ftl/read_reclaim), from Kim, Choi, Min, FAST 2019",
                 "where the reliability.rber_* coefficients come from (echoed in the report)",
                 [](C& c, const std::string& v) { c.reliability.rber_source = v; }),
      quantity_param("reliability.disturb_read_unit", "reads", 1, 1e9, false, 1,
                     "the read-disturb term's r counts the block's reads in units of this many",
                     [](C& c, double v) { c.reliability.disturb_read_unit = v; }),
      list_param("reliability.page_type_factor", "", 0, 1000, {1},
                 "RBER multiplier per page type (LSB, CSB, MSB; index = page % entries)",
                 [](C& c, const std::vector<double>& v) { c.reliability.page_type_factor = v; }),
      count_param("reliability.seed", 0, 1e18, 1, "seed of the decode outcomes' random stream (one per channel)",
                  [](C& c, std::uint64_t v) { c.reliability.seed = v; }),
      count_param("ecc.codeword_bytes", 256, 65536, 1024, "data bytes per ECC codeword (a page holds ceil(page / this))",
                  [](C& c, std::uint64_t v) { c.reliability.ecc.codeword_bytes = std::uint32_t(v); }),
      count_param("ecc.parity_bytes", 1, 65536, 42,
                  "parity bytes per codeword, kept in the page's spare area (BCH over GF(2^14): 14 bits per bit it "
                  "corrects)",
                  [](C& c, std::uint64_t v) { c.reliability.ecc.parity_bytes = std::uint32_t(v); }),
      count_param("ecc.correctable_bits", 1, 100000, 24,
                  "bit errors per codeword a hard decode corrects (BCH t; LDPC's hard-decision limit as a count)",
                  [](C& c, std::uint64_t v) { c.reliability.ecc.correctable_bits = std::uint32_t(v); }),
      quantity_param("ecc.t_decode_us", "us", 0, 1e4, false, 2, "a hard decode's latency after the page's data out",
                     [](C& c, double v) { c.reliability.ecc.t_decode_us = v; }),
      count_param("ecc.retry_steps", 0, 64, 8, "read-retry steps (re-reads with shifted read voltages) after a failed decode",
                  [](C& c, std::uint64_t v) { c.reliability.ecc.retry_steps = std::uint32_t(v); }),
      quantity_param("ecc.retry_factor", "", 0, 1, false, 0.5,
                     "each retry step multiplies the RBER's retention and read-disturb terms by this",
                     [](C& c, double v) { c.reliability.ecc.retry_factor = v; }),
      count_param("ecc.retry_cmd_cycles", 0, 64, 6,
                  "command/address cycles of the SET FEATURES before each retry's read (EFh, address, 4 parameters)",
                  [](C& c, std::uint64_t v) { c.reliability.ecc.retry_cmd_cycles = std::uint32_t(v); }),
      quantity_param("ecc.t_retry_setup_us", "us", 0, 1e4, false, 1,
                     "the die's busy time taking a retry's new read voltages (tFEAT)",
                     [](C& c, double v) { c.reliability.ecc.t_retry_setup_us = v; }),
      count_param("ecc.soft_levels", 0, 16, 0,
                  "soft decoding after the retries: extra sensing levels (each one more page of soft bits on the "
                  "channel); 0: none, the read is uncorrectable after the retries",
                  [](C& c, std::uint64_t v) { c.reliability.ecc.soft_levels = std::uint32_t(v); }),
      count_param("ecc.soft_correctable_bits", 0, 100000, 0, "bit errors per codeword a soft decode corrects",
                  [](C& c, std::uint64_t v) { c.reliability.ecc.soft_correctable_bits = std::uint32_t(v); }),
      quantity_param("ecc.t_soft_sense_us", "us", 0, 1e4, false, 0, "array time of each extra soft sensing level",
                     [](C& c, double v) { c.reliability.ecc.t_soft_sense_us = v; }),
      quantity_param("ecc.t_soft_decode_us", "us", 0, 1e5, false, 0, "a soft decode's latency",
                     [](C& c, double v) { c.reliability.ecc.t_soft_decode_us = v; }),
      quantity_param("failures.factory_bad_share", "", 0, 0.5, false, 0,
                     "share of the blocks bad from the factory (each block drawn from failures.seed; a datasheet's "
                     "bound on all bad blocks over the rated life is about 2%)",
                     [](C& c, double v) { c.reliability.failures.factory_bad_share = v; }),
      list_param("failures.factory_bad_blocks", "", -1, 4294967295.0, {},
                 "blocks bad from the factory besides the drawn ones (block numbers, plane-major as the report's)",
                 [](C& c, const std::vector<double>& v) {
                   c.reliability.failures.factory_bad_blocks.assign(v.begin(), v.end());
                 }),
      flag_param("failures.grown", false,
                 "programs and erases may report failure as blocks wear (failures.grown_bad_share by "
                 "failures.rated_pe_cycles); the firmware retires the block and moves its data",
                 [](C& c, bool v) { c.reliability.failures.grown = v; }),
      quantity_param("failures.grown_bad_share", "", 0, 1, false, 0.015,
                     "share of the blocks that have gone bad once every block reached failures.rated_pe_cycles",
                     [](C& c, double v) { c.reliability.failures.grown_bad_share = v; }),
      quantity_param("failures.rated_pe_cycles", "cycles", 1, 1e7, false, 3000, "the rated endurance R of the hazard",
                     [](C& c, double v) { c.reliability.failures.rated_pe_cycles = v; }),
      quantity_param("failures.wear_exponent", "", 0, 100, false, 3,
                     "k: a block's chance to fail per P/E cycle grows as (cycles / R)^k",
                     [](C& c, double v) { c.reliability.failures.wear_exponent = v; }),
      quantity_param("failures.erase_share", "", 0, 1, false, 0.5,
                     "share of the grown failures that are erase failures (the rest: program failures)",
                     [](C& c, double v) { c.reliability.failures.erase_share = v; }),
      count_param("failures.fail_program", 0, 1e18, 0,
                  "closed-form studies and tests: every N-th program the array performs in the run reports failure "
                  "(the N-th, 2N-th, ...; 0: none)",
                  [](C& c, std::uint64_t v) { c.reliability.failures.fail_program = v; }),
      count_param("failures.fail_erase", 0, 1e18, 0,
                  "closed-form studies and tests: every N-th erase the array performs in the run reports failure "
                  "(0: none)",
                  [](C& c, std::uint64_t v) { c.reliability.failures.fail_erase = v; }),
      count_param("failures.seed", 0, 1e18, 1, "seed of the factory's bad blocks and of the grown failures' draws",
                  [](C& c, std::uint64_t v) { c.reliability.failures.seed = v; }),
      count_param("channel.width_bits", 8, 16, 8, "ONFI data bus width: 8 or 16",
                  [](C& c, std::uint64_t v) { c.channel.width_bits = std::uint32_t(v); }),
      quantity_param("channel.rate_mts", "MT/s", 10, 10000, false, 400,
                     "bus transfer rate (ONFI timing mode 0 is 10 MT/s)",
                     [](C& c, double v) { c.channel.rate_mts = v; }),
      choice_param("channel.scheduler", hw::die_queue_policy_names(), "fifo",
                   "per-die queue policy (read_first: reads overtake programs/erases of other blocks; host_first: "
                   "host commands overtake GC work of other blocks until it has waited channel.gc_max_wait_us; "
                   "flow_priority: commands of more urgent host queues (their priority class) overtake the others "
                   "and the firmware's own work, until a command has waited channel.gc_max_wait_us)",
                   [](C& c, const std::string& v) { c.scheduler = v; }),
      quantity_param("channel.gc_max_wait_us", "us", 1, 1e6, false, 1000,
                     "host_first: a GC command waits at most this long for host work passing it; flow_priority: "
                     "any command waits at most this long for commands of more urgent flows",
                     [](C& c, double v) { c.channel.gc_max_wait = sc_time(v, sc_core::SC_US); }),
      choice_param("channel.arbitration", hw::bus_arbitration_names(), "command_first",
                   "which waiting die gets the channel bus: fifo (longest waiting), command_first (command/address "
                   "cycles before data transfers), die_ready (commands first, then the transfer with the most work "
                   "queued behind it)",
                   [](C& c, const std::string& v) { c.arbitration = v; }),
      count_param("bus.width_bytes", 1, 256, 16, "system bus data width",
                  [](C& c, std::uint64_t v) { c.bus.width_bytes = std::uint32_t(v); }),
      quantity_param("bus.clock_mhz", "MHz", 1, 10000, false, 400, "system bus clock",
                     [](C& c, double v) { c.bus.clock_mhz = v; }),
      count_param("sram.size_kib", 1, 1048576, 2048, "SRAM for firmware tables, KiB",
                  [](C& c, std::uint64_t v) { c.sram.size_bytes = v << 10; }),
      quantity_param("sram.latency_ns", "ns", 0, 10000, false, 5, "SRAM access latency",
                     [](C& c, double v) { c.sram.latency = sc_time(v, sc_core::SC_NS); }),
      quantity_param("sram.bandwidth_mbps", "MB/s", 1, 1e6, false, 6400, "SRAM port bandwidth",
                     [](C& c, double v) { c.sram.bandwidth_mbps = v; }),
      count_param("dram.size_mib", 1, 1048576, 1024, "DRAM buffer (page data, tables that do not fit in SRAM), MiB",
                  [](C& c, std::uint64_t v) { c.dram.size_bytes = v << 20; }),
      quantity_param("dram.latency_ns", "ns", 0, 10000, false, 60, "DRAM access latency",
                     [](C& c, double v) { c.dram.latency = sc_time(v, sc_core::SC_NS); }),
      quantity_param("dram.bandwidth_mbps", "MB/s", 1, 1e6, false, 6400, "DRAM bandwidth",
                     [](C& c, double v) { c.dram.bandwidth_mbps = v; }),
      count_param("core.count", 1, 16, 1, "embedded cores running the firmware",
                  [](C& c, std::uint64_t v) { c.core.count = std::uint32_t(v); }),
      quantity_param("core.clock_mhz", "MHz", 1, 10000, false, 400, "core clock",
                     [](C& c, double v) { c.core.clock_mhz = v; }),
      choice_param("core.dispatch", {hw::core_dispatch_names().begin(), hw::core_dispatch_names().end()}, "first_idle",
                   "which core runs a firmware job (see hw/core/core_dispatch.h)",
                   [](C& c, const std::string& v) { c.core.dispatch = v; }),
      choice_param("core.model", {"annotated", "iss"}, "annotated",
                   "how the firmware runs: annotated (host-compiled, charging the firmware_cycles costs) or iss (the "
                   "firmware image built for a Cortex-R5F on the instruction-set simulator, timed by its instructions "
                   "and memory accesses)",
                   [](C& c, const std::string& v) { c.core.model = v; }),
      text_param("core.image", "", "core.model = iss: the firmware image (ELF) to run; empty: the one built with ssdsim",
                 [](C& c, const std::string& v) { c.firmware_image = v; }),
      count_param("core.tcm_kib", 1024, 16384, 1024,
                  "core.model = iss: the core's tightly coupled memory (code, data, stack), KiB; the image is linked "
                  "for 1 MiB",
                  [](C& c, std::uint64_t v) { c.iss.tcm_bytes = std::uint32_t(v << 10); }),
      count_param("core.dcache_kib", 0, 64, 32,
                  "core.model = iss: the core's L1 data cache over SRAM and DRAM, KiB (4-way, 32-byte lines, "
                  "write-back; 0: none, every load and store goes over the bus)",
                  [](C& c, std::uint64_t v) { c.iss.dcache_bytes = std::uint32_t(v << 10); }),
      flag_param("core.annotated_dcache", false,
                 "core.model = annotated: the firmware's annotated table accesses, and its accesses to its own "
                 "records (operations in flight, write-buffer entries), go through an L1 data cache of "
                 "core.dcache_kib per core (a hit costs no bus transaction, a miss fills its 32-byte line), as the "
                 "ISS core's loads and stores do; off: each table access is a bus transaction of its own and the "
                 "records cost only the cycles charged (costs calibrated with it on assume it on)",
                 [](C& c, bool v) { c.annotated_dcache = v; }),
      choice_param("core.table_access_timing", {"contended", "annotated"}, "contended",
                   "core.model = annotated: how the firmware's table accesses (and its data cache's line fills) are "
                   "timed on the system bus and SRAM/DRAM: contended (each booked at the job's local time, so it "
                   "waits for DMA transfers and they wait for it) or annotated (TLM-2.0 loosely timed: each takes "
                   "its uncontended time and is counted in the bus's and memory's transfers, bytes and energy "
                   "but neither booked nor in their busy time: faster to simulate, blind to contention between "
                   "firmware and DMA)",
                   [](C& c, const std::string& v) { c.core.annotated_table_accesses = v == "annotated"; }),
      quantity_param("core.quantum_ns", "ns", 1, 1e6, false, 1000,
                     "core.model = iss: how far the ISS may run ahead of SystemC time before it synchronises (it "
                     "also synchronises at every register access)",
                     [](C& c, double v) { c.iss.quantum = sc_time(v, sc_core::SC_NS); }),
      quantity_param("core.cpi.alu", "cycles", 0.25, 100, false, 1, "ISS issue cycles of a data-processing instruction",
                     [](C& c, double v) { c.iss.cpi.alu = v; }),
      quantity_param("core.cpi.load", "cycles", 0.25, 100, false, 1, "ISS issue cycles of a load (before memory stalls)",
                     [](C& c, double v) { c.iss.cpi.load = v; }),
      quantity_param("core.cpi.store", "cycles", 0.25, 100, false, 1, "ISS issue cycles of a store (before memory stalls)",
                     [](C& c, double v) { c.iss.cpi.store = v; }),
      quantity_param("core.cpi.branch", "cycles", 0.25, 100, false, 1, "ISS issue cycles of a correctly predicted branch",
                     [](C& c, double v) { c.iss.cpi.branch = v; }),
      quantity_param("core.cpi.multiply", "cycles", 0.25, 100, false, 2, "ISS issue cycles of a multiply",
                     [](C& c, double v) { c.iss.cpi.multiply = v; }),
      quantity_param("core.cpi.divide", "cycles", 0.25, 100, false, 8,
                     "ISS cycles of UDIV/SDIV (Cortex-R4 TRM: 3-4 + operand-dependent)",
                     [](C& c, double v) { c.iss.cpi.divide = v; }),
      quantity_param("core.cpi.vfp", "cycles", 0.25, 100, false, 1, "ISS issue cycles of a VFP instruction",
                     [](C& c, double v) { c.iss.cpi.vfp = v; }),
      quantity_param("core.cpi.register_pair", "cycles", 0.25, 100, false, 1,
                     "ISS cycles per two registers of LDM/STM/PUSH/POP",
                     [](C& c, double v) { c.iss.cpi.per_register_pair = v; }),
      quantity_param("core.cpi.branch_mispredict", "", 0, 1, false, 0,
                     "ISS share of branches paying the pipeline refill (no predictor is modeled)",
                     [](C& c, double v) { c.iss.cpi.branch_mispredict = v; }),
      quantity_param("core.cpi.mispredict_penalty", "cycles", 0, 100, false, 8, "ISS cycles of a pipeline refill",
                     [](C& c, double v) { c.iss.cpi.mispredict_penalty = v; }),
      count_param("firmware.buffer_slots", 1, 1048576, 1024,
                  "data-buffer pages in DRAM: bounds the host data in flight (a command waits for free pages)",
                  [](C& c, std::uint64_t v) { c.firmware.buffer_slots = std::uint32_t(v); }),
      choice_param("firmware.write_buffer", fw::write_buffer_policy_names(), "block_lru",
                   "DRAM write buffer: writes complete once buffered and stay until evicted (off: write-through, "
                   "complete when programmed; fifo; page_lru; block_lru: a logical block's dirty pages together)",
                   [](C& c, const std::string& v) { c.firmware.write_buffer.policy = fw::write_buffer_policy(v); }),
      quantity_param("firmware.write_buffer_dram_share", "", 0, 0.9, true, 0.0625,
                     "share of the DRAM the write buffer takes (64 MiB of 1 GiB)",
                     [](C& c, double v) { c.write_buffer_dram_share = v; }),
      quantity_param("firmware.write_buffer_high_water", "", 0, 1, false, 0.75,
                     "dirty share of the write buffer above which it evicts in the background",
                     [](C& c, double v) { c.firmware.write_buffer.high_water = v; }),
      count_param("firmware.write_buffer_flush_depth", 0, 4096, 2,
                  "evicted pages in flight, times the drive's planes (0: no limit): further evictions wait dirty, "
                  "so host reads and read-modify-writes do not queue behind eviction bursts (block_lru may "
                  "exceed it by one logical block's pages)",
                  [](C& c, std::uint64_t v) { c.firmware.write_buffer.flush_depth = std::uint32_t(v); }),
      count_param("firmware.read_reclaim_reads", 0, 4e9, 0,
                  "read reclaim (read disturb): once a block has been read this many times since its erase, the "
                  "firmware moves its valid data (fw/firmware/read_reclaim.h; 0: never)",
                  [](C& c, std::uint64_t v) { c.firmware.read_reclaim_reads = std::uint32_t(v); }),
      count_param("firmware.read_only_margin", 0, 1e6, 4,
                  "bad blocks: the drive turns read-only while this many usable blocks (segments; per plane for "
                  "page mapping) beyond what its FTL needs remain, so the work in flight can finish",
                  [](C& c, std::uint64_t v) { c.firmware.read_only_margin = std::uint32_t(v); }),
      flag_param("firmware.erase_after_copies", false,
                 "GC and merges erase a block only once every copy of its data is programmed elsewhere "
                 "(fw/runtime/op_scheduler.h): power-loss safe, at the cost of blocks freed later; off: the erase "
                 "waits for the copies' reads only, and a power cut between the two loses data",
                 [](C& c, bool v) { c.firmware.erase_after_copies = v; }),
      flag_param("firmware.word_line_safety", false,
                 "on MLC/TLC flash without capacitors (firmware.plp = none), what the firmware promises durable is "
                 "never left in a word line a later program could tear: a flush, a FUA write and (without a write "
                 "buffer) every write completes once the open word lines are padded to their end and every "
                 "program under way is done, and with firmware.erase_after_copies a GC or merge copy keeps its "
                 "source until its word line is closed (padded when nothing else closes it). The padding pages "
                 "count in the WAF (ftl counter word_line_padding_pages). Off: a power cut during an upper page's "
                 "program can take a durable lower page with it. No effect on SLC",
                 [](C& c, bool v) { c.firmware.word_line_safety = v; }),
      choice_param("firmware.plp", {"none", "capacitors"}, "none",
                   "power-loss protection: none, or capacitors that hold the drive up for firmware.plp_hold_up_us "
                   "after a power cut, while the firmware programs the write buffer's pages and the flash finishes "
                   "what it had begun (platforms/report/power_cut_section.h); with them the drive has no volatile "
                   "write cache: every completed write counts as durable, a flush completes at once and a FUA write "
                   "is buffered like any other",
                   [](C& c, const std::string& v) { c.firmware.plp = v == "capacitors"; }),
      choice_param("firmware.plp_destage", {"dump", "ftl"}, "dump",
                   "capacitors: where the write buffer's pages go in the hold-up. dump: into a dump area the "
                   "firmware holds back from the FTL (the last blocks of every plane, enough for the whole buffer; "
                   "fw/firmware/plp_dump.h), each page programmed directly with its logical page and sequence number "
                   "in the OOB, for the recovery's scan to find; ftl: each dirty page to the FTL as an eviction, "
                   "which may first merge or collect (a hybrid's merges can outlast the hold-up)",
                   [](C& c, const std::string& v) {
                     c.firmware.plp_destage = v == "dump" ? fw::FirmwareConfig::PlpDestage::Dump
                                                          : fw::FirmwareConfig::PlpDestage::Ftl;
                   }),
      quantity_param("firmware.plp_hold_up_us", "us", 0, 1e7, false, 0,
                     "capacitors: how long they hold the drive up after a power cut (their energy over the drive's "
                     "power draw)",
                     [](C& c, double v) { c.firmware.plp_hold_up_us = v; }),
      quantity_param("firmware.checkpoint_interval_mib", "MiB", 0, 1e9, false, 0,
                     "map checkpoints (fw/recovery/map_checkpointer.h): every this many MiB of host data the FTL is "
                     "given, the firmware writes the tables its FTL family needs to find its pages (a page map, a "
                     "hybrid's block and log maps, DFTL's and CAST's directory and cached entries) to two slots of "
                     "its own, in turn, and after preconditioning; the pages count in the WAF. After a power cut the "
                     "boot reads the newest whole checkpoint and scans only the blocks not sealed when it was taken "
                     "or erased since. 0: none, the boot scans every block",
                     [](C& c, double v) { c.firmware.checkpoint_interval_bytes = std::uint64_t(v * 1048576.0); }),
            choice_param("firmware.wear_leveling", fw::wear_leveling_names(), "none",
                   "wear leveling (fw/ftl/common/wear_leveling.h): none; dynamic (a free block is taken by lowest "
                   "erase count); static (dynamic, and a GC whose blocks' erase counts spread wider than "
                   "firmware.wear_leveling_spread moves the data of the least-erased block; page mapping, DFTL, CAST)",
                   [](C& c, const std::string& v) { c.firmware.wear_leveling.mode = fw::wear_leveling_mode(v); }),
      count_param("firmware.wear_leveling_spread", 1, 1e6, 100,
                  "static wear leveling: the erase-count spread (most minus least erased) that makes the least-erased "
                  "block holding data the GC victim",
                  [](C& c, std::uint64_t v) { c.firmware.wear_leveling.spread = std::uint32_t(v); }),
      cost_param("host_command", &fw::FirmwareCosts::host_command, "cycles to fetch and decode one host command"),
      cost_param("host_page", &fw::FirmwareCosts::host_page, "cycles per logical page of a command"),
      cost_param("host_complete", &fw::FirmwareCosts::host_complete, "cycles to post one completion"),
      cost_param("op_issue", &fw::FirmwareCosts::op_issue, "cycles to issue one flash read or erase"),
      cost_param("op_complete", &fw::FirmwareCosts::op_complete,
                 "cycles to handle one flash read's or erase's completion"),
      cost_param("map_lookup", &fw::FirmwareCosts::map_lookup, "cycles of a mapping lookup (plus its table access)"),
      cost_param("map_update", &fw::FirmwareCosts::map_update, "cycles of a mapping update (plus its table accesses)"),
      cost_param("page_allocate", &fw::FirmwareCosts::page_allocate, "cycles to allocate a page from a write frontier"),
      cost_param("gc_scan_per_block", &fw::FirmwareCosts::gc_scan_per_block,
                 "cycles per block scanned by greedy victim selection"),
      cost_param("buffer_insert", &fw::FirmwareCosts::buffer_insert,
                 "cycles to put a written page into the write buffer (0: not charged, as before the ISS calibration "
                 "found it)"),
      cost_param("buffer_evict", &fw::FirmwareCosts::buffer_evict,
                 "cycles to hand a page from the write buffer to the FTL (0: not charged)"),
      cost_param("op_issue_program", &fw::FirmwareCosts::op_issue_program, "cycles to issue one flash program"),
      cost_param("op_complete_program", &fw::FirmwareCosts::op_complete_program,
                 "cycles to handle one program's completion"),
      cost_param("op_issue_dma_in", &fw::FirmwareCosts::op_issue_dma_in,
                 "cycles to issue one host DMA of a write's data"),
      cost_param("op_complete_dma_in", &fw::FirmwareCosts::op_complete_dma_in,
                 "cycles to handle the completion of a write's DMA"),
      cost_param("op_issue_dma_out", &fw::FirmwareCosts::op_issue_dma_out,
                 "cycles to issue one host DMA of a read's data"),
      cost_param("op_complete_dma_out", &fw::FirmwareCosts::op_complete_dma_out,
                 "cycles to handle the completion of a read's DMA"),
      quantity_param("firmware_cycles.clock_mhz", "MHz", 0, 10000, false, 0,
                     "the core clock the costs were calibrated at (tools/calibrate.py; 0: not calibrated): the "
                     "measured cycles include memory stalls at that clock, so an annotated core at another clock "
                     "is warned",
                     [](C& c, double v) { c.firmware_cycles_clock_mhz = v; }),
      text_param("firmware_cycles.source", "hand-picked, not measured",
                 "where the firmware_cycles costs come from (tools/calibrate.py writes its ISS measurement's "
                 "provenance: compiler, flags, CPU model, CPI table)",
                 [](C&, const std::string&) {}),
      count_param("host.lanes", 1, 32, 4, "host link (PCIe) lanes",
                  [](C& c, std::uint64_t v) { c.host.lanes = std::uint32_t(v); }),
      quantity_param("host.lane_gtps", "GT/s", 1, 128, false, 8, "per-lane rate",
                     [](C& c, double v) { c.host.lane_gtps = v; }),
      quantity_param("host.encoding", "", 0, 1, true, 128.0 / 130.0, "payload share of the line rate (128b/130b)",
                     [](C& c, double v) { c.host.encoding = v; }),
      quantity_param("host.latency_ns", "ns", 0, 1e6, false, 500, "one-way host link latency",
                     [](C& c, double v) { c.host.latency = sc_time(v, sc_core::SC_NS); }),
      count_param("host.queue_depth", 1, 65536, 64, "entries of each NVMe submission queue (MQES): the most commands the host keeps outstanding on one queue; `run --qd` and a job's iodepth may not exceed it",
                  [](C& c, std::uint64_t v) { c.host.queue_depth = std::uint32_t(v); }),
      choice_param("host.arbitration", {"rr", "wrr"}, "rr",
                   "how the controller picks the submission queue of its next command fetch: round robin, or "
                   "weighted round robin with the urgent class first (hw/host/submission_arbiter.h)",
                   [](C& c, const std::string& v) { c.host.arbitration.policy = *hw::parse_arbitration_policy(v); }),
      count_param("host.arbitration_burst", 0, 65536, 1,
                  "commands fetched from a queue each time the arbiter chooses it (NVMe's arbitration burst, 2^AB; "
                  "0: all it holds)",
                  [](C& c, std::uint64_t v) { c.host.arbitration.burst = std::uint32_t(v); }),
      count_param("host.wrr_weight_high", 1, 256, 4, "weighted round robin: commands per round for the high class",
                  [](C& c, std::uint64_t v) { c.host.arbitration.weights[0] = std::uint32_t(v); }),
      count_param("host.wrr_weight_medium", 1, 256, 2, "weighted round robin: commands per round for the medium class",
                  [](C& c, std::uint64_t v) { c.host.arbitration.weights[1] = std::uint32_t(v); }),
      count_param("host.wrr_weight_low", 1, 256, 1, "weighted round robin: commands per round for the low class",
                  [](C& c, std::uint64_t v) { c.host.arbitration.weights[2] = std::uint32_t(v); }),
      count_param("host.controller_commands", 0, 1u << 20, 0,
                  "commands the controller holds fetched and not yet completed; while it is full, commands wait "
                  "in their submission queues and arbitration decides which goes next (0: every queue's entries, "
                  "so commands never wait to be fetched)",
                  [](C& c, std::uint64_t v) { c.host.controller_commands = std::uint32_t(v); }),
      count_param("host.coalescing_threshold", 0, 256, 0,
                  "interrupt coalescing: completion entries per interrupt (NVMe aggregation threshold + 1; 0 or 1: "
                  "an interrupt for each)",
                  [](C& c, std::uint64_t v) { c.host.coalescing_threshold = std::uint32_t(v); }),
      quantity_param("host.coalescing_time_us", "us", 0, 25500, false, 0,
                     "interrupt coalescing: the longest a completion entry waits for its interrupt (NVMe aggregation "
                     "time, in 100 us units there)",
                     [](C& c, double v) { c.host.coalescing_time = sc_time(v, sc_core::SC_US); }),
      count_param("host.mdts_bytes", 0, 1ull << 31, 0,
                  "maximum data transfer size (NVMe MDTS): the host splits larger requests into commands of at "
                  "most this many bytes, at multiples of it (0: as large as the data buffer holds, "
                  "firmware.buffer_slots - 1 pages; larger than that is refused)",
                  [](C& c, std::uint64_t v) { c.host.mdts_bytes = v; }),
            text_param("ftl.name", "page_mapping", "the FTL the firmware runs (`ssdsim ftls`; its own parameters: ftl.<name>)",
                 [](C& c, const std::string& v) { c.firmware.ftl = v; }),
  });
  return all;
}

}  // namespace ssd::platform
