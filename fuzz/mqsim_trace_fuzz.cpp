// libFuzzer target: the MQSim ASCII reader (stimuli/mqsim_trace.h).
#include "fuzz/trace_fuzz.h"
#include "stimuli/mqsim_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ssd::fuzz::InputFile file("trace.trace");
  ssd::fuzz::fuzz_reader<ssd::stimuli::MqsimTrace>(data, size, file);
  return 0;
}
