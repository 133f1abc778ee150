// libFuzzer target: format auto-detection (stimuli/open_trace.h). The file's name says nothing
// (no .csv or .spc), so the first line decides which reader gets the rest.
#include "fuzz/trace_fuzz.h"
#include "stimuli/open_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ssd::fuzz::InputFile file("trace");
  ssd::fuzz::fuzz_trace(data, size, file, [](const std::string& path, ssd::stimuli::MalformedLines policy) {
    return ssd::stimuli::open_trace(path, "auto", policy);
  });
  return 0;
}
