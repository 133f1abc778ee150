// libFuzzer target: the DiskSim ASCII reader (stimuli/disksim_trace.h).
#include "fuzz/trace_fuzz.h"
#include "stimuli/disksim_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ssd::fuzz::InputFile file("trace.trace");
  ssd::fuzz::fuzz_reader<ssd::stimuli::DisksimTrace>(data, size, file);
  return 0;
}
