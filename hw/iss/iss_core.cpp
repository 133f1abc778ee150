#include "hw/iss/iss_core.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/mman.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "tlm/bus_access.h"

namespace ssd::hw {

using sc_core::sc_time;

namespace {

void check(uc_err e, const std::string& what) {
  if (e != UC_ERR_OK) throw std::runtime_error("ISS: " + what + ": " + uc_strerror(e));
}

// Thumb-2: a first halfword of 0b11101, 0b11110 or 0b11111 starts a 32-bit instruction.
std::uint32_t thumb_size_at(uc_struct* uc, std::uint32_t address) {
  std::uint16_t first = 0;
  uc_mem_read(uc, address, &first, 2);
  return (first >> 11) >= 0x1d ? 4 : 2;
}

constexpr std::uint32_t kPageBytes = 4096;
constexpr std::uint32_t kBkptException = 7;  // Unicorn's (QEMU's) EXCP_BKPT

// "_ZN3ssd2fw11OpScheduler5issueEm" -> "ssd::fw::OpScheduler::issue(unsigned long)" (C names as they are).
std::string demangled(const char* name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : std::string(name);
}

}  // namespace

IssCore::IssCore(sc_core::sc_module_name name, const IssConfig& config)
    : sc_module(name),
      bus("bus"),
      cfg_(config),
      period_(sc_time(1.0 / config.clock_mhz, sc_core::SC_US)),
      dcache_(config.dcache_bytes, config.dcache_ways, config.dcache_line_bytes) {
  check(uc_open(UC_ARCH_ARM, UC_MODE_THUMB, &uc_), "open");
  check(uc_ctl_set_cpu_model(uc_, UC_CPU_ARM_CORTEX_R5F), "CPU model Cortex-R5F");  // with VFPv3-D16, as the image is built
  map_region(cfg_.tcm_base, cfg_.tcm_bytes, "the TCM");
  for (const IssBusWindow& w : cfg_.bus_windows) {
    map_region(w.core_base, w.size, "bus window " + w.name);
    uc_hook hook;
    check(uc_hook_add(
              uc_, &hook, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE,
              reinterpret_cast<void*>(+[](uc_engine*, uc_mem_type type, std::uint64_t address, int size,
                                          std::int64_t, void* self) {
                static_cast<IssCore*>(self)->on_bus_access(type == UC_MEM_WRITE, std::uint32_t(address), size);
              }),
              this, w.core_base, std::uint64_t(w.core_base) + w.size - 1),
          "hook " + w.name);
  }
  uc_hook code, interrupt;
  check(uc_hook_add(uc_, &code, UC_HOOK_CODE,
                    reinterpret_cast<void*>(+[](uc_engine*, std::uint64_t address, std::uint32_t size, void* self) {
                      static_cast<IssCore*>(self)->on_instruction(std::uint32_t(address), size);
                    }),
                    this, 1, 0),
        "code hook");
  check(uc_hook_add(uc_, &interrupt, UC_HOOK_INTR,
                    reinterpret_cast<void*>(+[](uc_engine* uc, std::uint32_t exception, void* self) {
                      // BKPT (or any exception: no vector table is modeled): the core stops.
                      IssCore& core = *static_cast<IssCore*>(self);
                      core.halted_ = true;
                      if (core.failure_.empty() && (core.cfg_.halt_is_failure || exception != kBkptException))
                        core.failure_ = "the core took exception " + std::to_string(exception) + " at pc " +
                                        std::to_string(core.pc()) + (exception == kBkptException ? " (BKPT)" : "");
                      uc_emu_stop(uc);
                    }),
                    this, 1, 0),
        "interrupt hook");
  counts_.window_stall.assign(cfg_.bus_windows.size(), sc_core::SC_ZERO_TIME);
  functions_.push_back({0, 0, "(unknown)", 0, 0, {}});
  quantum_keeper_.set_global_quantum(cfg_.quantum);
  quantum_keeper_.reset();
  SC_THREAD(run);
}

IssCore::~IssCore() {
  if (debugger_) uc_close(debugger_);
  if (uc_) uc_close(uc_);
  for (const Region& r : regions_) munmap(r.host, r.size);
}

// Host memory behind a range of the core's (reserved, not committed: a DRAM window may be large
// and mostly untouched), so that the debugger's engine can map the very same bytes.
void IssCore::map_region(std::uint32_t base, std::uint32_t size, const std::string& what) {
  if (base % kPageBytes != 0 || size % kPageBytes != 0 || size == 0)
    throw std::invalid_argument("ISS: " + what + " must be whole 4 KiB pages");
  void* host = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (host == MAP_FAILED) throw std::runtime_error("ISS: cannot reserve memory for " + what);
  regions_.push_back({base, size, static_cast<std::uint8_t*>(host)});
  check(uc_mem_map_ptr(uc_, base, size, UC_PROT_ALL, host), "map " + what);
}

void IssCore::map_registers(IssRegisterWindow window) {
  if (window.core_base % kPageBytes != 0 || window.size % kPageBytes != 0 || window.size == 0)
    throw std::invalid_argument("ISS: register window " + window.name + " must be whole 4 KiB pages");
  registers_.push_back(std::make_unique<IssRegisterWindow>(std::move(window)));
  add_register_hooks(uc_, *registers_.back());
}

void IssCore::add_register_hooks(uc_struct* uc, IssRegisterWindow& w) {
  check(uc_mmio_map(
            uc, w.core_base, w.size,
            [](uc_engine*, std::uint64_t offset, unsigned bytes, void* window) -> std::uint64_t {
              return static_cast<IssRegisterWindow*>(window)->read(std::uint32_t(offset), bytes);
            },
            &w,
            [](uc_engine*, std::uint64_t offset, unsigned bytes, std::uint64_t value, void* window) {
              static_cast<IssRegisterWindow*>(window)->write(std::uint32_t(offset), bytes, std::uint32_t(value));
            },
            &w),
        "map register window " + w.name);
}

const IssBusWindow* IssCore::window_of(std::uint32_t address) const {
  for (const IssBusWindow& w : cfg_.bus_windows)
    if (address >= w.core_base && address - w.core_base < w.size) return &w;
  return nullptr;
}

void IssCore::load_elf(const std::string& path) {
  if (elf_version(EV_CURRENT) == EV_NONE) throw std::runtime_error("ISS: libelf is too old");
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error(path + ": cannot open the firmware image");
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  auto fail = [&](const std::string& why) {
    if (elf) elf_end(elf);
    close(fd);
    throw std::runtime_error(path + ": " + why);
  };
  GElf_Ehdr header;
  if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &header)) fail("not an ELF file");
  if (header.e_machine != EM_ARM || gelf_getclass(elf) != ELFCLASS32) fail("not a 32-bit ARM image");
  std::size_t segments = 0;
  if (elf_getphdrnum(elf, &segments) != 0) fail("no program headers");
  std::size_t file_bytes = 0;
  const char* image = elf_rawfile(elf, &file_bytes);
  for (std::size_t i = 0; i < segments; ++i) {
    GElf_Phdr p;
    if (!gelf_getphdr(elf, int(i), &p) || p.p_type != PT_LOAD || p.p_memsz == 0) continue;
    const std::uint64_t end = p.p_paddr + p.p_memsz;
    const bool in_tcm = p.p_paddr >= cfg_.tcm_base && end <= std::uint64_t(cfg_.tcm_base) + cfg_.tcm_bytes;
    const IssBusWindow* w = window_of(std::uint32_t(p.p_paddr));
    if (!in_tcm && !(w && end <= std::uint64_t(w->core_base) + w->size))
      fail("segment " + std::to_string(i) + " at " + std::to_string(p.p_paddr) + " (+" + std::to_string(p.p_memsz) +
           ") lies outside the core's memories");
    if (p.p_offset + p.p_filesz > file_bytes) fail("segment " + std::to_string(i) + " runs past the end of the file");
    std::vector<char> bytes(p.p_memsz, 0);  // the rest of memsz is zero (.bss)
    std::copy(image + p.p_offset, image + p.p_offset + p.p_filesz, bytes.begin());
    check(uc_mem_write(uc_, p.p_paddr, bytes.data(), bytes.size()), "load segment");
  }
  entry_ = resume_ = std::uint32_t(header.e_entry);
  image_ = path;
  read_symbols(elf);
  elf_end(elf);
  close(fd);
  loaded_ = true;
}

std::uint32_t IssCore::pc() const {
  std::uint32_t pc = 0;
  uc_reg_read(uc_, UC_ARM_REG_PC, &pc);
  return pc;
}

// The image's symbols by name, and its functions by address (for the profile).
void IssCore::read_symbols(Elf* elf) {
  symbols_.clear();
  functions_.clear();
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    for (std::size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, int(i), &sym)) continue;
      const char* n = elf_strptr(elf, sh.sh_link, sym.st_name);
      if (!n || !*n) continue;
      symbols_.emplace(n, std::uint32_t(sym.st_value));
      if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_size > 0) {
        const std::uint32_t start = std::uint32_t(sym.st_value) & ~1u;
        functions_.push_back({start, start + std::uint32_t(sym.st_size), demangled(n), 0, 0, {}});
      }
    }
  }
  std::sort(functions_.begin(), functions_.end(), [](const Function& a, const Function& b) { return a.start < b.start; });
  functions_.push_back({0, 0, "(unknown)", 0, 0, {}});
  decoded_.assign(cfg_.tcm_bytes / 2, Decoded{});
}

std::uint32_t IssCore::symbol(const std::string& name) const {
  const auto it = symbols_.find(name);
  if (it == symbols_.end()) throw std::runtime_error(image_ + ": no symbol '" + name + "'");
  return it->second;
}

std::vector<std::string> IssCore::function_names() const {
  std::vector<std::string> names;
  for (const Function& f : functions_) names.push_back(f.name);
  return names;
}

std::vector<IssCore::FunctionCost> IssCore::profile() const {
  std::vector<FunctionCost> out;
  for (const Function& f : functions_)
    if (f.instructions) out.push_back({f.name, f.instructions, f.issue_cycles, f.stall});
  return out;
}

void IssCore::read_memory(std::uint32_t address, void* out, std::uint32_t bytes) {
  check(uc_mem_read(uc_, address, out, bytes), "read memory at " + std::to_string(address));
}

void IssCore::write_memory(std::uint32_t address, const void* in, std::uint32_t bytes) {
  check(uc_mem_write(uc_, address, in, bytes), "write memory at " + std::to_string(address));
}

std::string IssCore::read_string(std::uint32_t address, std::uint32_t max) {
  std::string out;
  char c = 0;
  while (out.size() < max && uc_mem_read(uc_, address + std::uint32_t(out.size()), &c, 1) == UC_ERR_OK && c != '\0')
    out.push_back(c);
  return out;
}

void IssCore::synchronize() {
  if (!untimed_) quantum_keeper_.sync();
}

void IssCore::fail(const std::string& why) {
  if (debugging_) {  // the debug call fails, not the core
    if (debug_failure_.empty()) debug_failure_ = why;
    uc_emu_stop(debugger_);
    return;
  }
  failure_ = why;
  halted_ = true;
  uc_emu_stop(uc_);
}

std::uint32_t IssCore::resume_pc() const {
  std::uint32_t pc = 0, cpsr = 0;
  uc_reg_read(uc_, UC_ARM_REG_PC, &pc);
  uc_reg_read(uc_, UC_ARM_REG_CPSR, &cpsr);
  return pc | ((cpsr >> 5) & 1u);  // Thumb state: resume with the address's low bit set
}

void IssCore::boot(const std::string& ready) {
  if (!loaded_) throw std::logic_error("ISS: boot() before load_elf()");
  const std::uint32_t until = symbol(ready) & ~1u;
  // Out of reset a Cortex-R5 runs privileged (Supervisor mode, interrupts masked), so the
  // start-up code may set up the caches, the MPU and the FPU through CP15.
  std::uint32_t cpsr = 0x1d3u | ((entry_ & 1u) << 5);
  uc_reg_write(uc_, UC_ARM_REG_CPSR, &cpsr);
  untimed_ = true;
  const uc_err e = uc_emu_start(uc_, entry_, until, 0, 0);
  untimed_ = false;
  if (!failure_.empty()) throw std::runtime_error(image_ + ": the firmware failed at boot: " + failure_);
  if (e != UC_ERR_OK && !halted_)
    throw std::runtime_error(image_ + ": the firmware stopped at boot at " + std::to_string(pc()) + ": " + uc_strerror(e));
  if (halted_) throw std::runtime_error(image_ + ": the firmware halted at boot at " + std::to_string(pc()));
  if ((pc() & ~1u) != until) throw std::runtime_error(image_ + ": the firmware stopped at boot at " + std::to_string(pc()));
  resume_ = resume_pc();
  booted_ = true;
}

std::uint32_t IssCore::call(const std::string& name, std::initializer_list<std::uint32_t> args) {
  if (args.size() > 4) throw std::invalid_argument("ISS: call() passes at most four arguments");
  if (!debugger_) {
    check(uc_open(UC_ARCH_ARM, UC_MODE_THUMB, &debugger_), "open the debugger");
    check(uc_ctl_set_cpu_model(debugger_, UC_CPU_ARM_CORTEX_R5F), "debugger CPU model");
    for (const Region& r : regions_) check(uc_mem_map_ptr(debugger_, r.base, r.size, UC_PROT_ALL, r.host), "debugger map");
    for (auto& w : registers_) add_register_hooks(debugger_, *w);
    uc_hook interrupt;
    check(uc_hook_add(debugger_, &interrupt, UC_HOOK_INTR,
                      reinterpret_cast<void*>(+[](uc_engine* uc, std::uint32_t, void*) { uc_emu_stop(uc); }), nullptr, 1, 0),
          "debugger interrupt hook");
  }
  const std::uint32_t function = symbol(name), back = symbol("ssd_debug_return");
  // A stack below the core's (its frames stay untouched), 8-byte aligned as the AAPCS wants.
  std::uint32_t sp = 0;
  uc_reg_read(uc_, UC_ARM_REG_SP, &sp);
  sp = (sp - 4096) & ~7u;
  // The FPU as the core's start-up code enabled it (coprocessor access, FPEXC.EN, FPSCR).
  for (const int r : {UC_ARM_REG_C1_C0_2, UC_ARM_REG_FPEXC, UC_ARM_REG_FPSCR}) {
    std::uint32_t v = 0;
    uc_reg_read(uc_, r, &v);
    uc_reg_write(debugger_, r, &v);
  }
  const std::uint32_t lr = back | 1u, cpsr = 0x1d3u | (1u << 5);
  uc_reg_write(debugger_, UC_ARM_REG_CPSR, &cpsr);
  uc_reg_write(debugger_, UC_ARM_REG_SP, &sp);
  uc_reg_write(debugger_, UC_ARM_REG_LR, &lr);
  int reg = UC_ARM_REG_R0;
  for (std::uint32_t a : args) uc_reg_write(debugger_, reg++, &a);
  const bool was_untimed = untimed_;
  untimed_ = debugging_ = true;
  debug_failure_.clear();
  const uc_err e = uc_emu_start(debugger_, function | 1u, back & ~1u, 0, 0);
  untimed_ = was_untimed;
  debugging_ = false;
  if (!debug_failure_.empty()) throw std::runtime_error(image_ + ": debug call of " + name + ": " + debug_failure_);
  std::uint32_t pc = 0, r0 = 0;
  uc_reg_read(debugger_, UC_ARM_REG_PC, &pc);
  if (e != UC_ERR_OK || (pc & ~1u) != (back & ~1u))
    throw std::runtime_error(image_ + ": debug call of " + name + " stopped at " + std::to_string(pc) + ": " +
                             uc_strerror(e));
  uc_reg_read(debugger_, UC_ARM_REG_R0, &r0);
  return r0;
}

IssCore::Decoded IssCore::decode(std::uint32_t address, std::uint32_t size) {
  std::uint8_t code[4] = {};
  Decoded d;
  if (uc_mem_read(uc_, address, code, size) != UC_ERR_OK) return d;
  const InstructionClassifier::Decoded& c = classifier_.classify(address, code, size);
  d.cls = static_cast<std::uint8_t>(c.cls);
  d.cycles = static_cast<float>(cfg_.cpi.cycles(c.cls, c.registers));
  d.size = static_cast<std::uint8_t>(size);
  d.it_block = c.it_block;
  for (std::uint32_t i = 0, at = address + size; i < c.it_block; ++i) {  // the block's extent, once
    const std::uint32_t member = thumb_size_at(uc_, at);
    d.it_bytes = static_cast<std::uint8_t>(d.it_bytes + member);
    at += member;
  }
  d.known = true;
  d.function = function_at(address);
  return d;
}

std::uint32_t IssCore::function_at(std::uint32_t address) const {
  const auto f = std::upper_bound(functions_.begin(), functions_.end() - 1, address,
                                  [](std::uint32_t a, const Function& fn) { return a < fn.start; });
  if (f != functions_.begin() && address < std::prev(f)->end)
    return static_cast<std::uint32_t>(std::prev(f) - functions_.begin());
  return static_cast<std::uint32_t>(functions_.size() - 1);  // (unknown)
}

std::string IssCore::code_location(std::uint32_t address) const {
  return fmt::format("{:#010x} in {}", address, functions_[function_at(address & ~1u)].name);
}

const IssCore::Decoded& IssCore::decoded(std::uint32_t address, std::uint32_t size) {
  const std::uint32_t slot = (address - cfg_.tcm_base) / 2;
  if (address >= cfg_.tcm_base && slot < decoded_.size()) {
    if (!decoded_[slot].known) decoded_[slot] = decode(address, size ? size : thumb_size_at(uc_, address));
    return decoded_[slot];
  }
  scratch_decoded_ = decode(address, size ? size : thumb_size_at(uc_, address));  // code outside the TCM (not how the image is linked): decoded each time
  return scratch_decoded_;
}

bool IssCore::charge_it_block_until(std::uint32_t address) {
  // The block's instructions before `address` ran unhooked (condition-failed ones still issue, as
  // on the Cortex-R5); an address outside the block means the rest of it ran (a branch in an IT
  // block is its last instruction).
  const bool inside = address >= it_next_ && address < it_end_;
  const std::uint32_t until = inside ? address : it_end_;
  while (it_next_ < until) {
    const Decoded& d = decoded(it_next_);
    charge(d);
    it_next_ += d.size;
  }
  if (!inside) it_end_ = 0;
  return inside;
}

void IssCore::on_instruction(std::uint32_t address, std::uint32_t size) {
  if (untimed_) return;
  // The quantum is used up: stop before this instruction (Unicorn leaves the PC on it), which runs
  // and counts after the synchronisation. Only where the PC is exact: right after a hooked
  // instruction that belongs to no IT block (else a few instructions later).
  if (quantum_keeper_.need_sync() && address == last_end_ && !last_in_it_) {
    uc_emu_stop(uc_);
    return;
  }
  const bool in_it = it_end_ != 0 && charge_it_block_until(address);
  if (in_it) it_next_ = address + size;
  const Decoded& d = decoded(address, size);
  charge(d);
  if (d.it_block) {  // the block: the next it_block instructions
    it_next_ = address + size;
    it_end_ = it_next_ + d.it_bytes;
  }
  last_end_ = address + size;
  last_in_it_ = in_it || d.it_block != 0;
}

void IssCore::charge(const Decoded& d) {
  ++counts_.instructions;
  ++counts_.per_class[d.cls];
  Function& f = functions_[d.function];
  current_function_ = d.function;
  ++f.instructions;
  f.issue_cycles += d.cycles;
  counts_.issue_cycles += d.cycles;
  fractional_cycles_ += d.cycles;
  if (fractional_cycles_ >= 1) {
    const double whole = std::floor(fractional_cycles_);
    fractional_cycles_ -= whole;
    quantum_keeper_.inc(period_ * whole);
  }
  if (sampler_) {
    const sc_time now = sc_core::sc_time_stamp() + quantum_keeper_.get_local_time();
    if (now >= next_sample_) {
      sampler_(now, d.function, counts_.instructions - sampled_instructions_);
      sampled_instructions_ = counts_.instructions;
      next_sample_ = now + cfg_.sample_period;
    }
  }
}

void IssCore::on_bus_access(bool write, std::uint32_t address, int bytes) {
  if (untimed_) return;
  const IssBusWindow* w = window_of(address);
  if (!w) return;
  if (!dcache_.enabled()) {
    bus_transaction(*w, write, address, static_cast<std::uint32_t>(bytes));
    return;
  }
  const DataCache::Outcome o = dcache_.access(address, write);
  if (o.hit) return;
  if (o.writeback) {
    const auto line = static_cast<std::uint32_t>(o.writeback_line);
    if (const IssBusWindow* victim = window_of(line)) bus_transaction(*victim, true, line, dcache_.line_bytes());
  }
  bus_transaction(*w, false, static_cast<std::uint32_t>(o.fill_line), dcache_.line_bytes());
}

// One load, store or cache-line burst over the system bus, at the core's local time: the time it
// takes (latency and contention) stalls the core.
void IssCore::bus_transaction(const IssBusWindow& w, bool write, std::uint32_t address, std::uint32_t bytes) {
  tlmx::prepare_bus_access(access_, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND,
                           w.bus_address + (address - w.core_base), scratch_.data(), bytes);
  sc_time delay = quantum_keeper_.get_local_time();
  const sc_time before = delay;
  bus->b_transport(access_, delay);
  if (access_.is_response_error())  // no exception through the ISS's frames: the core fails, run() reports it
    fail("bus access failed at core address " + std::to_string(address) + ": " + access_.get_response_string());
  ++counts_.bus_accesses;
  counts_.bus_stall += delay - before;
  counts_.window_stall[std::size_t(&w - cfg_.bus_windows.data())] += delay - before;
  functions_[current_function_].stall += delay - before;
  quantum_keeper_.set(delay);
}

void IssCore::run() {
  if (!loaded_) return;
  // One quantum at a time: the code hook stops the core once its local time (instructions and bus
  // stalls) reaches the quantum, then it synchronises. Not Unicorn's instruction count, which
  // stops anywhere, also inside an IT block (see charge_it_block_until).
  if (!booted_) {  // out of reset (see boot())
    std::uint32_t cpsr = 0x1d3u | ((entry_ & 1u) << 5);
    uc_reg_write(uc_, UC_ARM_REG_CPSR, &cpsr);
  }
  std::uint32_t pc = resume_;
  while (!halted_) {
    const uc_err e = uc_emu_start(uc_, pc, 0xffffffffu, 0, 0);
    if (e != UC_ERR_OK && !halted_) {  // where it stopped and who called: enough for addr2line
      std::uint32_t at = 0, lr = 0, sp = 0;
      uc_reg_read(uc_, UC_ARM_REG_PC, &at);
      uc_reg_read(uc_, UC_ARM_REG_LR, &lr);
      uc_reg_read(uc_, UC_ARM_REG_SP, &sp);
      SC_REPORT_ERROR(name(), fmt::format("firmware stopped at {}, called from {}, stack pointer {:#010x}: {}",
                                          code_location(at), code_location(lr), sp, uc_strerror(e))
                                  .c_str());
    }
    pc = resume_pc();
    quantum_keeper_.sync();
  }
  halted_at_ = sc_core::sc_time_stamp();
  halted_event_.notify(sc_core::SC_ZERO_TIME);
  if (!failure_.empty()) SC_REPORT_ERROR(name(), (image_ + ": the firmware failed: " + failure_).c_str());
}

}  // namespace ssd::hw
