// What an instruction costs on the controller's core when it runs on the instruction-set
// simulator (hw/iss/iss_core.h): issue cycles per instruction class, before the memory stalls the
// bus and memory models add. Classes are decoded once per instruction address
// (hw/iss/instruction_class.h).
//
// Defaults: the Cortex-R4/R5 cycle timings (ARM DDI 0363G, Cortex-R4 TRM appendix C "Cycle
// timings and interlock behavior"; the Cortex-R5 shares its eight-stage pipeline): most
// data-processing instructions, loads and stores issue in one cycle; multiplies in one to two
// (two here: the 64-bit ones dominate the firmware's address arithmetic); UDIV/SDIV issue in
// one cycle and write back after 3-4 + floor((clz(B) - clz(A) + 1) / 2) cycles, about 8 for the
// operands a firmware divides (block and page counts), counted in full as a stall (the next
// instruction usually needs the quotient); a taken branch the predictor got right costs one
// cycle, a mispredicted one the refill of the pipeline (8), and a share `branch_mispredict` of
// branches is taken as mispredicted (no predictor is modeled). Load/store multiple (PUSH, POP,
// LDM, STM) transfer two registers a cycle. VFP instructions: one cycle (single-issue model).
// Result latencies (a load's second cycle when the next instruction uses it) are not modeled:
// the model counts issue cycles, and the calibration (issue 33, part 3) measures what it misses.
#pragma once

#include <cstdint>

namespace ssd::hw {

enum class InstructionClass : std::uint8_t { Alu, Load, Store, LoadMultiple, StoreMultiple, Branch, Multiply, Divide, Vfp, Count };
inline constexpr std::size_t kInstructionClasses = static_cast<std::size_t>(InstructionClass::Count);

inline const char* instruction_class_name(InstructionClass c) {
  static const char* const names[kInstructionClasses] = {"alu",    "load",     "store",  "load_multiple", "store_multiple",
                                                         "branch", "multiply", "divide", "vfp"};
  return names[static_cast<std::size_t>(c)];
}

struct CpiTable {
  double alu = 1, load = 1, store = 1, branch = 1, multiply = 2, divide = 8, vfp = 1;
  double per_register_pair = 1;   // LDM/STM/PUSH/POP: cycles per two registers moved (at least 1)
  double branch_mispredict = 0;   // share of branches paying the pipeline refill
  double mispredict_penalty = 8;  // cycles

  // Issue cycles of one instruction of class `c`; `registers` for the multiple transfers.
  double cycles(InstructionClass c, unsigned registers = 0) const {
    switch (c) {
      case InstructionClass::Alu: return alu;
      case InstructionClass::Load: return load;
      case InstructionClass::Store: return store;
      case InstructionClass::LoadMultiple:
      case InstructionClass::StoreMultiple: return registers > 2 ? per_register_pair * ((registers + 1) / 2) : per_register_pair;
      case InstructionClass::Branch: return branch + branch_mispredict * mispredict_penalty;
      case InstructionClass::Multiply: return multiply;
      case InstructionClass::Divide: return divide;
      case InstructionClass::Vfp: return vfp;
      case InstructionClass::Count: break;
    }
    return alu;
  }
};

}  // namespace ssd::hw
