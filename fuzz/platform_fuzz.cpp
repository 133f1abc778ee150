// libFuzzer target: the platform YAML loader (platforms/config/platform_config.h), fed the
// file's text. ConfigError is the documented refusal; anything else is a finding.
#include "fuzz/fuzz_input.h"
#include "platforms/config/parameter.h"
#include "platforms/config/platform_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const ssd::platform::PlatformConfig c = ssd::platform::load_platform_text(text, "platform.yaml");
    ssd::fuzz::expect(c.geometry.total_pages() < ssd::kNoPpn, "an accepted geometry is addressable");
    for (const auto& p : ssd::platform::platform_parameters())
      ssd::fuzz::expect(c.effective.contains(p.key), "every declared parameter has an effective value");
  } catch (const ssd::platform::ConfigError&) {
  }
  return 0;
}
