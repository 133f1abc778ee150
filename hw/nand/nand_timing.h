// NAND and ONFI channel timing, all from the platform file.
#pragma once

#include <cstdint>
#include <systemc>
#include <vector>

namespace ssd::hw {

struct NandTiming {
  // Array times per page type (index = page % bits_per_cell: LSB, CSB, MSB); erase per block.
  std::vector<sc_core::sc_time> t_read{sc_core::sc_time(50, sc_core::SC_US)};
  std::vector<sc_core::sc_time> t_prog{sc_core::sc_time(600, sc_core::SC_US)};
  sc_core::sc_time t_erase{3, sc_core::SC_MS};
  // SLC mode of a part with several bits a cell (fw::HalOp::slc): the array times of a block
  // programmed in SLC mode, one page a word line.
  sc_core::sc_time slc_t_read{25, sc_core::SC_US};
  sc_core::sc_time slc_t_prog{250, sc_core::SC_US};
  sc_core::sc_time slc_t_erase{2, sc_core::SC_MS};
  // Command/address cycles of each operation (ONFI: e.g. read 00h + 5 address + 30h = 7) and
  // the length of one such cycle on the bus.
  std::uint32_t read_cmd_cycles = 7;
  std::uint32_t program_cmd_cycles = 7;
  std::uint32_t erase_cmd_cycles = 5;
  sc_core::sc_time cmd_cycle{10, sc_core::SC_NS};
  bool multiplane = true;  // combine same-kind operations on different planes of a die
  // A die about to start a lone program with no partner for it waits this long after the
  // program arrived for a partner on another plane before starting it alone (the firmware issues
  // a die's plane pair a few microseconds apart); zero starts at once. Reads never wait.
  sc_core::sc_time multiplane_wait = sc_core::SC_ZERO_TIME;
  // ONFI cache commands: cache read overlaps the next page's tR with the data out of the last
  // (read page cache random, 00h-address-31h); cache program overlaps the next page's data in
  // with tPROG of the last (80h-address-data-15h). The copy between the page and cache registers
  // (tRCBSY/tCBSY, a few microseconds) is taken as instantaneous.
  bool cache_read = false;
  bool cache_program = false;
  // Suspend for reads: a read reaching a die that programs (erases) suspends the operation,
  // which resumes, owing the array time it had left plus t_resume, when no read waits or
  // suspend_max_reads reads have passed it (so a stream of reads cannot starve it).
  bool program_suspend = false;
  bool erase_suspend = false;
  sc_core::sc_time t_suspend{20, sc_core::SC_US};
  sc_core::sc_time t_resume{10, sc_core::SC_US};
  std::uint32_t suspend_max_reads = 8;

  std::size_t page_type(std::uint32_t page_in_block) const { return page_in_block % t_read.size(); }
  sc_core::sc_time read_time(std::uint32_t page) const { return t_read[page_type(page)]; }
  sc_core::sc_time prog_time(std::uint32_t page) const { return t_prog[page % t_prog.size()]; }
};

struct ChannelTiming {
  std::uint32_t width_bits = 8;
  double rate_mts = 400;  // mega-transfers per second (fractions allowed: 333.33 MT/s is a real part)
  // channel.scheduler = host_first: the longest host work may pass a GC command before it runs
  sc_core::sc_time gc_max_wait = sc_core::sc_time(1, sc_core::SC_MS);
  // Time to move `bytes` across the bus: bytes / (width in bytes x transfer rate).
  sc_core::sc_time transfer(std::uint64_t bytes) const {
    const double seconds = double(bytes) / (double(width_bits) / 8.0 * double(rate_mts) * 1e6);
    return sc_core::sc_time(seconds * 1e12, sc_core::SC_PS);
  }
};

}  // namespace ssd::hw
