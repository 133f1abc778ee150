// The controller's memory map as initiators on the system bus see it: SRAM for firmware tables,
// DRAM for the data buffer (and tables that do not fit in SRAM).
#pragma once

#include <cstdint>

namespace ssd::tlmx {

struct AddressMap {
  std::uint64_t sram_base = 0x0000'0000;
  std::uint64_t sram_size = 0;
  std::uint64_t dram_base = 0x1'0000'0000ull;
  std::uint64_t dram_size = 0;
};

}  // namespace ssd::tlmx
