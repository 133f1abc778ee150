// libFuzzer target: the MSR Cambridge CSV reader (stimuli/msr_trace.h).
#include "fuzz/trace_fuzz.h"
#include "stimuli/msr_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ssd::fuzz::InputFile file("trace.csv");
  ssd::fuzz::fuzz_reader<ssd::stimuli::MsrTrace>(data, size, file);
  return 0;
}
