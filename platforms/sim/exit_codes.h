// ssdsim's exit codes (documented in the README and relied on by scripts and tests).
#pragma once

namespace ssd::platform {

enum ExitCode : int {
  kExitOk = 0,
  kExitIntegrity = 1,  // a read returned the wrong data, or the mapping disagrees with the flash
  kExitBadInput = 2,   // options, platform file, trace, sizes
  kExitInternal = 3,   // the model stopped on an internal error (a NAND rule violation, a stall)
};

}  // namespace ssd::platform
