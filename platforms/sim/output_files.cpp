#include "platforms/sim/output_files.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "platforms/config/platform_config.h"

namespace ssd::platform {

void check_writable(const std::string& path, const char* what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  const bool existed = fs::exists(path, ec);
  bool ok = !ec && static_cast<bool>(std::ofstream(path, std::ios::app));
  if (ok && !existed) fs::remove(path, ec);  // leave no empty file behind if the run fails
  if (!ok) throw ConfigError(std::string("cannot write ") + what + " file '" + path + "'");
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void convert_to_fst(const std::string& vcd, const std::string& fst) {
  pid_t pid = 0;
  std::vector<std::string> args{"vcd2fst", vcd, fst};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (posix_spawnp(&pid, "vcd2fst", nullptr, nullptr, argv.data(), environ) != 0)
    throw ConfigError("cannot run vcd2fst to write '" + fst + "' (Debian package gtkwave; the VCD is at '" + vcd + "')");
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw ConfigError("vcd2fst failed to convert '" + vcd + "' to '" + fst + "'");
  std::filesystem::remove(vcd);
}

}  // namespace ssd::platform
