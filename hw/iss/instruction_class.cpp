#include "hw/iss/instruction_class.h"

#include <capstone/capstone.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace ssd::hw {

namespace {
bool starts_with(const char* s, const char* prefix) { return std::strncmp(s, prefix, std::strlen(prefix)) == 0; }
}  // namespace

InstructionClassifier::InstructionClassifier() {
  csh h;
  if (cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &h) != CS_ERR_OK) throw std::runtime_error("Capstone: cannot open ARM Thumb");
  cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
  handle_ = h;
}

InstructionClassifier::~InstructionClassifier() {
  csh h = handle_;
  cs_close(&h);
}

const InstructionClassifier::Decoded& InstructionClassifier::classify(std::uint32_t address, const std::uint8_t* code,
                                                                      std::uint32_t size) {
  auto it = cache_.find(address);
  if (it == cache_.end()) it = cache_.emplace(address, decode(address, code, size)).first;
  return it->second;
}

InstructionClassifier::Decoded InstructionClassifier::decode(std::uint32_t address, const std::uint8_t* code,
                                                             std::uint32_t size) const {
  cs_insn* insn = nullptr;
  Decoded d;
  if (cs_disasm(handle_, code, size, address, 1, &insn) != 1) return d;  // undecodable: charged as ALU
  const char* m = insn->mnemonic;
  const unsigned operands = insn->detail ? insn->detail->arm.op_count : 0;
  if (insn->id == ARM_INS_IT) {  // "it", "itt", "ite", ... : one conditional instruction per letter after the i
    d.it_block = static_cast<std::uint8_t>(std::strlen(m) - 1);
  } else if (cs_insn_group(handle_, insn, ARM_GRP_JUMP) || insn->id == ARM_INS_BL || insn->id == ARM_INS_BLX ||
      insn->id == ARM_INS_CBZ || insn->id == ARM_INS_CBNZ || insn->id == ARM_INS_TBB || insn->id == ARM_INS_TBH) {
    d.cls = InstructionClass::Branch;
  } else if (insn->id == ARM_INS_POP || starts_with(m, "ldm") || starts_with(m, "vpop") || starts_with(m, "vldm")) {
    d.cls = InstructionClass::LoadMultiple;
    d.registers = static_cast<std::uint8_t>(starts_with(m, "ldm") && operands > 0 ? operands - 1 : operands);
  } else if (insn->id == ARM_INS_PUSH || starts_with(m, "stm") || starts_with(m, "vpush") || starts_with(m, "vstm")) {
    d.cls = InstructionClass::StoreMultiple;
    d.registers = static_cast<std::uint8_t>(starts_with(m, "stm") && operands > 0 ? operands - 1 : operands);
  } else if (starts_with(m, "ldr") || starts_with(m, "vldr")) {
    d.cls = InstructionClass::Load;
  } else if (starts_with(m, "str") || starts_with(m, "vstr")) {
    d.cls = InstructionClass::Store;
  } else if (insn->id == ARM_INS_SDIV || insn->id == ARM_INS_UDIV) {
    d.cls = InstructionClass::Divide;
  } else if (std::strstr(m, "mul") != nullptr || starts_with(m, "mla") || starts_with(m, "mls") ||
             starts_with(m, "smla") || starts_with(m, "umla") || starts_with(m, "umaal")) {
    d.cls = m[0] == 'v' ? InstructionClass::Vfp : InstructionClass::Multiply;
  } else if (m[0] == 'v') {
    d.cls = InstructionClass::Vfp;
  }
  cs_free(insn, 1);
  return d;
}

}  // namespace ssd::hw
