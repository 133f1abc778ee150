// libFuzzer target: the blkparse text reader (stimuli/blkparse_trace.h).
#include "fuzz/trace_fuzz.h"
#include "stimuli/blkparse_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ssd::fuzz::InputFile file("trace.txt");
  ssd::fuzz::fuzz_reader<ssd::stimuli::BlkparseTrace>(data, size, file);
  return 0;
}
