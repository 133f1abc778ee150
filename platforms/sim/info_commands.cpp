#include "platforms/sim/info_commands.h"

#include <fmt/format.h>

#include <iostream>

#include "fw/ftl/ftl_options.h"
#include "fw/ftl/registry.h"
#include "platforms/config/parameter.h"
#include "platforms/config/platform_config.h"
#include "platforms/sim/data_files.h"

namespace ssd::platform {

void print_ftls() {
  const FlashGeometry g = load_platform(data_file("platforms/default.yaml")).geometry;
  for (const auto& f : fw::ftl_registry()) {
    std::cout << fmt::format("{:16} {}\n", f.name, f.description);
    fw::FtlOptions defaults;
    f.check(defaults, g, 1);
    for (const auto& [key, value] : defaults.effective())
      std::cout << fmt::format("  ftl.{:28} default {:8} {}\n", key, value, defaults.descriptions().at(key));
  }
}

void print_params() {
  for (const auto& p : platform_parameters())
    std::cout << fmt::format("{:34} {:8} {:5} {:28} default {:12} {}\n", p.key, p.type_name(),
                             p.unit.empty() ? "-" : p.unit, p.range_text(),
                             p.fallback.is_string() ? p.fallback.get<std::string>() : p.fallback.dump(), p.help);
  std::cout << fmt::format("{:34} {:8} {:5} {:28} default {:12} {}\n", "ftl.<parameter>", "ftl", "-",
                           "see `ssdsim ftls`", "-", "parameters of the chosen FTL");
  std::cout << fmt::format("{:34} {:8} {:5} {:28} default {:12} {}\n", "firmware_cycles.<ftl>.<cost>", "count", "-",
                           "[0, 10000000]", "-",
                           "an FTL's own cost where it differs (tools/calibrate.py; effective as ftl.cycles.<cost>)");
}

void print_validation(const std::string& file, const std::vector<std::string>& overrides) {
  const PlatformConfig c = load_platform(file, overrides);
  std::cout << fmt::format("{}: valid platform '{}' ({} MiB raw, {} dies)\n", file, c.name,
                           c.geometry.capacity_bytes() >> 20, c.geometry.total_dies());
  for (const auto& [k, v] : c.effective.items())
    std::cout << fmt::format("  {} = {}\n", k, v.is_string() ? v.get<std::string>() : v.dump());
  for (const std::string& w : c.warnings) std::cout << "warning: " << w << "\n";
}

}  // namespace ssd::platform
