// The controller's core as an instruction-set simulator: a firmware image built for the ARM
// Cortex-R5F (preset firmware-r5) runs on Unicorn (Debian's libunicorn-dev, CPU model
// UC_CPU_ARM_CORTEX_R5F, started privileged as out of reset), so what the firmware costs comes
// from the instructions it executes and the memory it touches instead of annotated constants.
//
// Memory as the controller has it: a tightly coupled memory (code, stack, hot data; no bus) and
// windows of the core's address space that reach the system bus (SRAM, DRAM buffer): every load
// and store there is a TLM transaction on `bus`, at the core's local time, so the firmware's
// accesses contend with DMA as the annotated core's table accesses do. The bytes live in the
// ISS's memory (the models behind the bus are timing-only).
//
// Time: each retired instruction adds its class's issue cycles (hw/iss/cpi_table.h) at the core
// clock; each bus access adds the delay the bus and memory return. The ISS runs ahead of SystemC
// time under TLM-2.0 temporal decoupling (tlm_utils::tlm_quantumkeeper, `quantum`) and
// synchronises at the end of every quantum and wherever a register model asks (synchronize()).
// A BKPT halts the core.
//
// Controller registers are windows of the core's address space with a read and a write
// callback (map_registers): they run in the core's thread, so they may synchronise and wait
// (a core waiting for work). Before the simulation starts, boot() runs the image untimed until it
// reaches a function that says it is ready; after it, call() runs one of
// the image's functions untimed on a debugger's view of the same memory, as a debug probe
// would (end-of-run checks), without disturbing the core.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <unordered_map>
#include <vector>

#include "hw/iss/cpi_table.h"
#include "hw/core/data_cache.h"
#include "hw/iss/instruction_class.h"

struct uc_struct;
typedef struct Elf Elf;

namespace ssd::hw {

// A range of the core's address space reached over the system bus.
struct IssBusWindow {
  std::string name;
  std::uint32_t core_base = 0, size = 0;  // 4 KiB aligned
  std::uint64_t bus_address = 0;          // where the window starts on the system bus
};

// A range of the core's address space that reaches the controller's registers.
struct IssRegisterWindow {
  std::string name;
  std::uint32_t core_base = 0, size = 0;  // 4 KiB aligned
  // Accesses of `bytes` (1, 2 or 4) at `offset`; a read returns the value in its low bytes.
  std::function<std::uint32_t(std::uint32_t offset, unsigned bytes)> read;
  std::function<void(std::uint32_t offset, unsigned bytes, std::uint32_t value)> write;
};

struct IssConfig {
  double clock_mhz = 400;
  CpiTable cpi;
  sc_core::sc_time quantum = sc_core::sc_time(1, sc_core::SC_US);
  std::uint32_t tcm_base = 0, tcm_bytes = 256 << 10;  // 4 KiB aligned
  std::vector<IssBusWindow> bus_windows;
  // Whether a halt (BKPT, or an exception the core took) is the end of a program (tests) or a
  // failure of firmware that should run for ever (the platform's image).
  bool halt_is_failure = false;
  // Every `sample_period` of the core's time, the sampler (set_sampler) hears which function runs
  // and how many instructions retired since the last sample (the waveform).
  sc_core::sc_time sample_period = sc_core::sc_time(1, sc_core::SC_US);
  // L1 data cache over the bus windows (hw/core/data_cache.h); 0 bytes: none.
  std::uint32_t dcache_bytes = 0, dcache_ways = kCortexR5CacheWays, dcache_line_bytes = kCortexR5CacheLineBytes;
};

class IssCore : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<IssCore> bus;

  SC_HAS_PROCESS(IssCore);
  IssCore(sc_core::sc_module_name name, const IssConfig& config);
  ~IssCore() override;

  // Maps controller registers (before load_elf).
  void map_registers(IssRegisterWindow window);

  // Loads the PT_LOAD segments of an ELF image (into the TCM or a bus window; throws naming the
  // file when a segment falls outside them) and starts the core at its entry point.
  void load_elf(const std::string& path);

  struct Counts {
    std::uint64_t instructions = 0;
    std::array<std::uint64_t, kInstructionClasses> per_class{};
    double issue_cycles = 0;
    std::uint64_t bus_accesses = 0;
    sc_core::sc_time bus_stall = sc_core::SC_ZERO_TIME;  // time the bus accesses added
    std::vector<sc_core::sc_time> window_stall;         // of it, per bus window (config order)
  };
  // Where the core spent its cycles, by function of the image (its symbol table).
  struct FunctionCost {
    std::string name;
    std::uint64_t instructions = 0;
    double issue_cycles = 0;
    sc_core::sc_time stall = sc_core::SC_ZERO_TIME;
  };
  // Functions that ran, in no particular order (code outside any function: "(unknown)").
  std::vector<FunctionCost> profile() const;
  // The image's functions by index (as the sampler names them; the last is "(unknown)").
  std::vector<std::string> function_names() const;
  // Called at each sample: when (absolute SystemC time), the function running, the instructions
  // retired since the previous sample.
  using Sampler = std::function<void(sc_core::sc_time at, std::uint32_t function, std::uint64_t instructions)>;
  void set_sampler(Sampler sampler) { sampler_ = std::move(sampler); }
  const Counts& counts() const { return counts_; }
  const IssConfig& config() const { return cfg_; }
  const std::string& image() const { return image_; }

  // Runs the loaded image from its entry point, untimed and uncounted, until it reaches the
  // function `ready` (the firmware is ready for work). Before the simulation; the core then goes on
  // from there. (Not stopped from a register callback: the ISS would execute that access again.)
  void boot(const std::string& ready);
  // From a register callback: brings SystemC time up to the core's local time.
  void synchronize();
  // The core's time ahead of SystemC time (in its thread).
  sc_core::sc_time local_time() const { return quantum_keeper_.get_local_time(); }
  // Halts the core for good from a register callback (a fatal firmware error): `why` is kept.
  void fail(const std::string& why);
  const std::string& failure() const { return failure_; }

  // Runs the image's function `symbol` with up to four word arguments on a debugger's copy of the
  // core (same memory, its own registers, a stack below the core's), untimed; returns r0. The
  // image must define ssd_debug_return, where the call returns to (a BKPT).
  std::uint32_t call(const std::string& symbol, std::initializer_list<std::uint32_t> args);
  // Writes `bytes` of the core's memory at `address` (register models filling descriptors).
  void write_memory(std::uint32_t address, const void* in, std::uint32_t bytes);
  // Reads a NUL-terminated string of at most `max` bytes.
  std::string read_string(std::uint32_t address, std::uint32_t max = 4096);
  bool halted() const { return halted_; }
  sc_core::sc_time halted_at() const { return halted_at_; }  // when the halting instruction retired
  const sc_core::sc_event& halted_event() const { return halted_event_; }
  // Where the core is (the next instruction), for diagnostics.
  std::uint32_t pc() const;
  // The address of a symbol of the loaded image (its symbol table), or throws naming it.
  std::uint32_t symbol(const std::string& name) const;
  // Reads `bytes` of the core's memory at `address` (results, mailboxes).
  void read_memory(std::uint32_t address, void* out, std::uint32_t bytes);

 private:
  struct Region {
    std::uint32_t base, size;
    std::uint8_t* host;
  };
  void map_region(std::uint32_t base, std::uint32_t size, const std::string& what);
  void add_register_hooks(uc_struct* uc, IssRegisterWindow& window);
  void run();
  std::uint32_t resume_pc() const;
  void on_instruction(std::uint32_t address, std::uint32_t size);
  void read_symbols(Elf* elf);
  // What an instruction costs, decoded once per address (code runs from the TCM).
  struct Decoded {
    float cycles = 0;
    std::uint8_t cls = 0;
    std::uint8_t size = 0;      // bytes
    std::uint8_t it_block = 0;  // an IT instruction: how many instructions it makes conditional
    std::uint8_t it_bytes = 0;  // and the bytes they take
    bool known = false;
    std::uint32_t function = 0;  // index into functions_
  };
  Decoded decode(std::uint32_t address, std::uint32_t size);
  // Cached for the TCM; size 0: read from the instruction's first halfword.
  const Decoded& decoded(std::uint32_t address, std::uint32_t size = 0);
  void charge(const Decoded& d);  // one executed instruction: counts, cycles, time
  // Unicorn 2.0.1 calls the code hook for the first instruction of a Thumb IT block only, and
  // after the block's unhooked ones its PC can lag: a stop there resumes inside the block, which
  // runs an instruction twice and unconditionally. So the hook charges the block's unhooked
  // instructions itself and stops the core only where the PC is exact (see on_instruction).
  // Returns whether `address` is itself one of the block's instructions.
  bool charge_it_block_until(std::uint32_t address);
  std::uint32_t it_next_ = 0, it_end_ = 0;  // the IT block's instructions not yet charged: [next, end)
  std::uint32_t last_end_ = 0;              // where the last hooked instruction ended
  bool last_in_it_ = false;                 // it was an IT instruction or one of its block
  std::uint32_t function_at(std::uint32_t address) const;  // index into functions_
  std::string code_location(std::uint32_t address) const;   // "0x… in function", for errors
  void on_bus_access(bool write, std::uint32_t address, int bytes);
  void bus_transaction(const IssBusWindow& window, bool write, std::uint32_t address, std::uint32_t bytes);
  const IssBusWindow* window_of(std::uint32_t address) const;

  IssConfig cfg_;
  sc_core::sc_time period_;
  uc_struct* uc_ = nullptr;
  uc_struct* debugger_ = nullptr;  // created by the first call()
  std::vector<Region> regions_;    // host memory behind the core's, shared with the debugger
  std::vector<std::unique_ptr<IssRegisterWindow>> registers_;
  bool untimed_ = false;           // booting or debugging: no time, no counts, no bus
  bool debugging_ = false;         // in call(): a failure is the debug call's
  std::string debug_failure_;
  std::string failure_;
  InstructionClassifier classifier_;
  DataCache dcache_;
  std::vector<Decoded> decoded_;  // by (address - TCM base) / 2
  Decoded scratch_decoded_;       // decoded() outside the TCM
  struct Function {
    std::uint32_t start, end;
    std::string name;
    std::uint64_t instructions = 0;
    double issue_cycles = 0;
    sc_core::sc_time stall;
  };
  std::vector<Function> functions_;  // sorted by start; the last is "(unknown)"
  std::uint32_t current_function_ = 0;
  Sampler sampler_;
  sc_core::sc_time next_sample_ = sc_core::SC_ZERO_TIME;
  std::uint64_t sampled_instructions_ = 0;
  std::unordered_map<std::string, std::uint32_t> symbols_;
  tlm_utils::tlm_quantumkeeper quantum_keeper_;
  tlm::tlm_generic_payload access_;
  std::array<std::uint8_t, 64> scratch_{};  // bus transactions carry no data (timing only)
  std::uint32_t entry_ = 0, resume_ = 0;
  std::string image_;
  bool loaded_ = false, halted_ = false, booted_ = false;
  sc_core::sc_time halted_at_ = sc_core::SC_ZERO_TIME;
  double fractional_cycles_ = 0;  // issue cycles not yet turned into time (CPIs need not be whole)
  Counts counts_;
  sc_core::sc_event halted_event_;
};

}  // namespace ssd::hw
