#include "platforms/sim/data_files.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "platforms/config/platform_config.h"

namespace ssd::platform {

namespace fs = std::filesystem;

namespace {

bool holds_data(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "platforms" / "default.yaml", ec);
}

// Where the shipped platforms and the bundled trace are, in the order installed tools look:
// $SSDSIM_DATA_DIR; a folder at or above the executable (a build folder inside the source tree);
// the install prefix's share/ssdsim (`cmake --install`: the executable in PREFIX/bin); the source
// folder recorded when the build was configured (a build folder anywhere else).
fs::path data_folder() {
  if (const char* env = std::getenv("SSDSIM_DATA_DIR"); env && *env) {
    if (!holds_data(env))
      throw ConfigError(std::string("SSDSIM_DATA_DIR = ") + env + " holds no platforms/default.yaml");
    return env;
  }
  std::vector<fs::path> tried;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
      if (holds_data(dir)) return dir;
      if (dir == dir.root_path()) break;
    }
    tried.push_back("every folder above " + exe.string());
    const fs::path installed = exe.parent_path().parent_path() / "share" / "ssdsim";
    if (holds_data(installed)) return installed;
    tried.push_back(installed);
  }
#ifdef SSD_SOURCE_DIR
  if (holds_data(SSD_SOURCE_DIR)) return SSD_SOURCE_DIR;
  tried.push_back(SSD_SOURCE_DIR);
#endif
  std::string where;
  for (const auto& t : tried) where += (where.empty() ? "" : ", ") + t.string();
  throw ConfigError("cannot find the data files (platforms/default.yaml) in " + where +
                    "; set SSDSIM_DATA_DIR to the project's folder");
}

}  // namespace

std::string data_file(const std::string& relative) {
  static const fs::path folder = data_folder();
  return (folder / relative).string();
}

}  // namespace ssd::platform
