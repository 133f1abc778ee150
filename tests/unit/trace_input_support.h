// Helpers for the tests of trace input (compression, encodings, time order): the committed
// fixtures in tests/data/traces, whole request sequences, and raw file bytes.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "stimuli/host_request.h"

namespace ssd::test {

inline std::string fixture(const std::string& name) { return std::string(SSD_SOURCE_DIR) + "/tests/data/traces/" + name; }

inline std::vector<stimuli::HostRequest> all_requests(stimuli::Workload& w) {
  std::vector<stimuli::HostRequest> v;
  stimuli::HostRequest r;
  while (w.next(r)) v.push_back(r);
  return v;
}

inline bool same_request(const stimuli::HostRequest& a, const stimuli::HostRequest& b) {
  return a.arrival_ns == b.arrival_ns && a.is_write() == b.is_write() && a.lba == b.lba && a.sectors == b.sectors &&
         a.issuer == b.issuer;
}

inline bool same_requests(const std::vector<stimuli::HostRequest>& a, const std::vector<stimuli::HostRequest>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same_request(a[i], b[i])) return false;
  return true;
}

inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A fresh directory under the system temp dir, removed with its contents at scope exit.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device rd;
    dir_ = std::filesystem::temp_directory_path() / ("ssd_input_test_" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(dir_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

}  // namespace ssd::test
