// libFuzzer target: `--set key=value` overrides (one per line of the input) applied to the
// bundled tiny platform (platforms/tiny.yaml), as `ssdsim run --set` does.
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "platforms/config/platform_config.h"

namespace {
std::string tiny_platform() {
  std::ifstream in(SSD_SOURCE_DIR "/platforms/tiny.yaml");
  ssd::fuzz::expect(in.is_open(), "platforms/tiny.yaml is readable");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string base = tiny_platform();
  std::vector<std::string> overrides;
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(lines, line);) overrides.push_back(line);
  try {
    const ssd::platform::PlatformConfig c = ssd::platform::load_platform_text(base, "tiny.yaml", overrides);
    ssd::fuzz::expect(c.geometry.total_pages() < ssd::kNoPpn, "an accepted geometry is addressable");
  } catch (const ssd::platform::ConfigError&) {
  }
  return 0;
}
