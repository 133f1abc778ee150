// What preconditioning to do before measuring (--precondition), and what it did.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssd::platform {

struct PreconditionSpec {
  bool fill = false;             // write every logical page once, sequentially
  double random_capacities = 0;  // then this many capacities of uniform random page writes
  enum class Steady : std::uint8_t {
    No,
    Direct,  // the FTL's preload of the steady state, else Fill, else Run
    Fill,    // the steady-state fill (stimuli/steady_state_fill.h) where the FTL allows, else Run
    Run,     // run random page writes from the sequential fill until the WAF settles
  } steady = Steady::No;
  std::uint64_t seed = 1;

  bool writes_anything() const { return fill || random_capacities > 0 || steady != Steady::No; }

  // none | fill | fill+random:X | fill+steady | fill+steady:fill | fill+steady:run. Throws std::invalid_argument
  // saying what was expected.
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

}  // namespace ssd::platform
