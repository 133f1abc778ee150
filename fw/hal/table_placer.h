// Where firmware tables go: SRAM first when asked and it fits, else the DRAM buffer, packed one
// after another. Shared by every HAL implementation so table addresses do not depend on which
// HAL the firmware runs on.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "fw/hal/hal.h"

namespace ssd::fw {

// The platform's memories cannot hold the firmware's tables: a configuration problem.
class ResourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class TablePlacer {
 public:
  TablePlacer(std::uint64_t sram_bytes, std::uint64_t dram_bytes) : sram_bytes_(sram_bytes), dram_bytes_(dram_bytes) {}

  TableRegion place(const std::string& name, std::uint64_t bytes, MemoryKind preferred) {
    const TableRegion r = allocate(name, bytes, preferred, "firmware table");
    tables_.push_back(r);
    return r;
  }
  // The firmware's records (Hal::place_records), not listed among the tables: where the image's
  // heap puts them. That heap runs from SRAM on into DRAM in the order things are made, so once a
  // table wanting SRAM did not fit there, everything made after it is in DRAM.
  TableRegion place_records(const std::string& name, std::uint64_t bytes) {
    return allocate(name, bytes, spilled_ ? MemoryKind::Dram : MemoryKind::Sram, "firmware records");
  }
  const std::vector<TableRegion>& tables() const { return tables_; }

 private:
  TableRegion allocate(const std::string& name, std::uint64_t bytes, MemoryKind preferred, const char* what) {
    TableRegion r{name, preferred, 0, bytes};
    if (preferred == MemoryKind::Sram && sram_used_ + bytes <= sram_bytes_) {
      r.base = sram_used_;
      sram_used_ += bytes;
    } else if (dram_used_ + bytes <= dram_bytes_) {
      spilled_ = spilled_ || preferred == MemoryKind::Sram;
      r.memory = MemoryKind::Dram;
      r.base = dram_used_;
      dram_used_ += bytes;
    } else {
      throw ResourceError(std::string(what) + " '" + name + "' (" + std::to_string(bytes) +
                          " bytes) fits neither in SRAM nor in the DRAM buffer (raise sram.size_kib or "
                          "dram.size_mib)");
    }
    return r;
  }

  std::uint64_t sram_bytes_, dram_bytes_, sram_used_ = 0, dram_used_ = 0;
  bool spilled_ = false;  // something that wanted SRAM went to DRAM
  std::vector<TableRegion> tables_;
};

}  // namespace ssd::fw
