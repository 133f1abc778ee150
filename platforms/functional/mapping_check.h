// The end-of-run mapping check (mapping_check.cpp says how it is made).
#pragma once

#include <string>

#include "hw/nand/nand_array.h"
#include "platforms/functional/mapping_view.h"
#include "stimuli/integrity_oracle.h"

namespace ssd::platform {

// Reads every logical page and compares it with the oracle (the write buffer's copy where it
// holds the newest); also checks that the FTL's mapping agrees with the OOB of every mapped
// page, and that every page it counts as valid is mapped to. Returns a description of the first
// problem, or "".
std::string verify_mapping(const MappingView& mapping, const hw::NandArray& array,
                           const stimuli::IntegrityOracle& oracle);
inline std::string verify_mapping(const fw::Firmware& firmware, const hw::NandArray& array,
                                  const stimuli::IntegrityOracle& oracle) {
  return verify_mapping(FirmwareMapping(firmware), array, oracle);
}

}  // namespace ssd::platform
