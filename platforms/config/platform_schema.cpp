// Every platform parameter: key, kind, allowed range, default, meaning.
#include "platforms/config/platform_config.h"

namespace ssd::platform {

const std::vector<SchemaEntry>& platform_schema() {
  static const std::vector<SchemaEntry> schema = {
      {"name", "text", "any", "unnamed", "platform name, echoed in reports"},
      {"geometry.channels", "int", "1..64", "8", "flash channels (ONFI buses)"},
      {"geometry.ways", "int", "1..32", "4", "chips (chip enables) per channel"},
      {"geometry.dies_per_way", "int", "1..8", "1", "dies per chip"},
      {"geometry.planes_per_die", "int", "1..8", "2", "planes per die"},
      {"geometry.blocks_per_plane", "int", "4..65536", "1024", "erase blocks per plane"},
      {"geometry.pages_per_block", "int", "2..4096", "256", "pages per block"},
      {"geometry.page_bytes", "int", "512..65536, multiple of 512", "8192", "data bytes per page (the mapping unit)"},
      {"geometry.oob_bytes", "int", "0..8192", "448", "spare (OOB) bytes per page"},
      {"nand.t_read_us", "list", "1..10 values in (0, 100000]", "[50]",
       "array read time tR per page type (LSB, CSB, MSB...: page p uses entry p mod count), microseconds"},
      {"nand.t_prog_us", "list", "1..10 values in (0, 100000]", "[600]",
       "array program time tPROG per page type, microseconds"},
      {"nand.t_erase_us", "real", "(0, 1000000]", "3000", "block erase time tBERS, microseconds"},
      {"nand.read_cmd_cycles", "int", "1..64", "7", "command/address bus cycles of a read (00h, 5 address, 30h)"},
      {"nand.program_cmd_cycles", "int", "1..64", "7", "command/address bus cycles of a program (80h, 5 address, 10h)"},
      {"nand.erase_cmd_cycles", "int", "1..64", "5", "command/address bus cycles of an erase (60h, 3 address, D0h)"},
      {"nand.cmd_cycle_ns", "real", "(0, 1000]", "10", "length of one command/address cycle, nanoseconds"},
      {"nand.multiplane", "bool", "true/false", "true",
       "run same-kind operations to the same page offset on different planes of a die as one multi-plane operation"},
      {"nand.sequential_program", "bool", "true/false", "true", "the part requires in-order page programming within a block"},
      {"channel.width_bits", "int", "8, 16", "8", "ONFI data bus width"},
      {"channel.rate_mts", "real", "(0, 10000]", "400", "bus transfer rate, mega-transfers per second"},
      {"channel.scheduler", "choice", "fifo, read_first", "fifo",
       "per-die queue policy (read_first: reads overtake programs/erases of other blocks)"},
      {"bus.width_bytes", "int", "1..256", "16", "system bus data width"},
      {"bus.clock_mhz", "real", "(0, 10000]", "400", "system bus clock"},
      {"sram.size_kib", "int", "1..1048576", "2048", "SRAM for firmware tables"},
      {"sram.latency_ns", "real", "[0, 10000]", "5", "SRAM access latency"},
      {"sram.bandwidth_mbps", "real", "(0, 1e6]", "6400", "SRAM port bandwidth, MB/s"},
      {"dram.size_mib", "int", "1..1048576", "1024", "DRAM buffer (page data, tables that do not fit in SRAM)"},
      {"dram.latency_ns", "real", "[0, 10000]", "60", "DRAM access latency"},
      {"dram.bandwidth_mbps", "real", "(0, 1e6]", "6400", "DRAM bandwidth, MB/s"},
      {"core.count", "int", "1..16", "1", "embedded cores running the firmware"},
      {"core.clock_mhz", "real", "(0, 10000]", "400", "core clock"},
      {"firmware.buffer_slots", "int", "1..1048576", "1024", "page slots of the data buffer ring in DRAM"},
      {"firmware_cycles.host_command", "int", "0..1e7", "1200", "cycles to fetch and decode one host command"},
      {"firmware_cycles.host_page", "int", "0..1e7", "150", "cycles per logical page of a command"},
      {"firmware_cycles.host_complete", "int", "0..1e7", "400", "cycles to post one completion"},
      {"firmware_cycles.op_issue", "int", "0..1e7", "120", "cycles to issue one flash or DMA operation"},
      {"firmware_cycles.op_complete", "int", "0..1e7", "100", "cycles to handle one completion"},
      {"firmware_cycles.map_lookup", "int", "0..1e7", "12", "cycles of a mapping lookup (plus its table access)"},
      {"firmware_cycles.map_update", "int", "0..1e7", "20", "cycles of a mapping update (plus its table accesses)"},
      {"firmware_cycles.page_allocate", "int", "0..1e7", "40", "cycles to allocate a page from a write frontier"},
      {"firmware_cycles.gc_scan_per_block", "int", "0..1e7", "4", "cycles per block scanned by greedy victim selection"},
      {"host.lanes", "int", "1..32", "4", "host link (PCIe) lanes"},
      {"host.lane_gtps", "real", "(0, 128]", "8", "per-lane rate, GT/s"},
      {"host.encoding", "real", "(0, 1]", "0.984615", "payload share of the line rate (128b/130b)"},
      {"host.latency_ns", "real", "[0, 1e6]", "500", "one-way host link latency"},
      {"host.queue_depth", "int", "1..65536", "64", "NVMe submission queue entries"},
      {"ftl.name", "choice", "see `ssdsim ftls`", "page_mapping", "the FTL the firmware runs"},
      {"ftl.<parameter>", "ftl", "see `ssdsim ftls`", "", "parameters of the chosen FTL"},
  };
  return schema;
}

}  // namespace ssd::platform
