// libFuzzer target: the UMass/SPC reader (stimuli/spc_trace.h).
#include "fuzz/trace_fuzz.h"
#include "stimuli/spc_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ssd::fuzz::InputFile file("trace.spc");
  ssd::fuzz::fuzz_reader<ssd::stimuli::SpcTrace>(data, size, file);
  return 0;
}
