// What preconditioning to do before measuring (--precondition), and what it did.
//
// fw/precondition/ is preconditioning's one home. It sits in fw/ because the FTL families'
// preloads (fw/ftl/<family>/steady_state_preload.cpp) build on it and firmware may not look
// upward; it holds no SystemC and no host model, so everything here is plain C++:
// - precondition_spec.h: what to do (parsed from --precondition) and what was done;
// - steady_state_preload.h: the interface per FTL family (Ftl::steady_state_preload()): page
//   mapping and DFTL/CAST preload their steady state through it, the hybrids offer none;
// - greedy_steady_state.h, steady_state_dealer.h: the steady-state layouts those preloads use
//   and the dealing of logical pages onto flash;
// - steady_state_fill.h: the write order of the steady-state fill, for FTLs that cannot preload;
// - settling.h: when random writes after a fill count as settled.
// The runner that issues the writes on the functional drive, with the integrity oracle, is
// platforms/run/preconditioner.h. The sequential fill is laid out directly, as one-page writes in
// logical order leave it (Ftl::preload_sequential_fill: every FTL; DFTL and CAST only when their
// cache holds a translation page's entries), and otherwise replayed as the plain workload
// stimuli/sequential_fill.h (256 KiB requests, so a layout of its own: CAST's ABL records one
// start per request).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssd::fw {

struct PreconditionSpec {
  bool fill = false;             // write every logical page once, sequentially
  double random_capacities = 0;  // then this many capacities of uniform random page writes
  enum class Steady : std::uint8_t {
    No,
    Direct,  // the FTL's preload of the steady state, else Fill, else Run
    Fill,    // the steady-state fill (fw/precondition/steady_state_fill.h) where the FTL allows, else Run
    Run,     // run random page writes from the sequential fill until the WAF settles
  } steady = Steady::No;
  std::uint64_t seed = 1;
  // The preconditioning ends as a host's Flush command does: the firmware writes to flash every
  // mapping that SRAM alone holds (Ftl::flush_mapping: DFTL's and CAST's dirty cached runs), so
  // the measured workload starts on a quiescent drive and does not pay for the write-backs of
  // the fill's mappings, which stand for the drive's past and not for the workload's own recent
  // writes. A real drive reaches the same state on the host's flush, at shutdown, or when idle.
  // false (+no-flush): the cache stays as the writes left it, its newest runs dirty.
  bool flush = true;
  // An aged drive, set in closed form rather than by simulating years (+pe:N, +pe_spread:S,
  // +days:D): every block has been erased about N times (drawn per block from a normal
  // distribution with standard deviation S x N, rounded, at least 0, seeded), and the data the
  // preconditioning writes is D days old when the run starts (its retention age for the NAND
  // error model, reliability.errors).
  double pe_cycles = 0, pe_spread = 0, data_age_days = 0;

  bool writes_anything() const { return fill || random_capacities > 0 || steady != Steady::No; }
  bool ages() const { return pe_cycles > 0 || data_age_days > 0; }

  // none | fill | fill+random:X | fill+steady | fill+steady:fill | fill+steady:run, each but none
  // optionally followed by +no-flush, and any of them by the age parts +pe:N, +pe_spread:S and
  // +days:D. Throws std::invalid_argument saying what was expected.
  static PreconditionSpec parse(const std::string& text);
};

struct PreconditionOutcome {
  std::string description;
  bool steady_reached = false;
  std::uint64_t random_page_writes = 0;  // while settling
  double write_amplification = 0;        // mean over the last settling window (0: none ran)
  std::vector<double> settling_waf;      // per settling chunk, in order

  static PreconditionOutcome fresh_drive() {
    PreconditionOutcome none;
    none.description = "none (fresh drive)";
    return none;
  }
};

}  // namespace ssd::fw
