// Decodes ARMv7-R Thumb-2 instructions into the classes the CPI table charges, with Capstone
// (Debian's libcapstone-dev), once per address: the firmware's code does not change while it runs.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "hw/iss/cpi_table.h"

namespace ssd::hw {

class InstructionClassifier {
 public:
  InstructionClassifier();
  ~InstructionClassifier();
  InstructionClassifier(const InstructionClassifier&) = delete;
  InstructionClassifier& operator=(const InstructionClassifier&) = delete;

  struct Decoded {
    InstructionClass cls = InstructionClass::Alu;
    std::uint8_t registers = 0;  // registers a load/store multiple moves
    std::uint8_t it_block = 0;   // an IT instruction: the instructions its block makes conditional (1-4)
  };
  // The instruction of `size` bytes at `address`, whose bytes are `code`.
  const Decoded& classify(std::uint32_t address, const std::uint8_t* code, std::uint32_t size);

 private:
  Decoded decode(std::uint32_t address, const std::uint8_t* code, std::uint32_t size) const;
  std::size_t handle_ = 0;  // Capstone's csh
  std::unordered_map<std::uint32_t, Decoded> cache_;
};

}  // namespace ssd::hw
