#include "platforms/sim/data_files.h"

#include <cstdlib>
#include <filesystem>

#include "platforms/config/platform_config.h"

namespace ssd::platform {

namespace fs = std::filesystem;

namespace {
fs::path data_folder() {
  if (const char* env = std::getenv("SSDSIM_DATA_DIR"); env && *env) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw ConfigError("cannot locate the ssdsim executable to find its data files; set SSDSIM_DATA_DIR");
  for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (fs::is_regular_file(dir / "platforms" / "default.yaml", ec)) return dir;
    if (dir == dir.root_path()) break;
  }
  throw ConfigError("cannot find the data files (platforms/default.yaml) in any folder above " + exe.string() +
                    "; set SSDSIM_DATA_DIR to the project's folder");
}
}  // namespace

std::string data_file(const std::string& relative) {
  static const fs::path folder = data_folder();
  return (folder / relative).string();
}

}  // namespace ssd::platform
