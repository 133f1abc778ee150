// What every fuzz target shares: the readers under test take file paths, so each input is
// written to a file in a private temporary directory (tmpfs when there is one), and a broken
// promise of a reader is reported as a crash, so libFuzzer keeps the input.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace ssd::fuzz {

class InputFile {
 public:
  // `name` is the file's name inside the directory (its extension can matter to a reader).
  explicit InputFile(const std::string& name) {
    std::string base = "/tmp";
    if (const char* t = std::getenv("TMPDIR"); t && *t) base = t;
    else if (access("/dev/shm", W_OK) == 0) base = "/dev/shm";
    std::string templ = base + "/ssd-fuzz-XXXXXX";
    if (!mkdtemp(templ.data())) fatal("cannot create a temporary directory under " + base);
    dir_ = templ;
    path_ = dir_ + "/" + name;
  }
  ~InputFile() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Replaces the file's contents with the input; returns its path.
  const std::string& write(const std::uint8_t* data, std::size_t size) {
    const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) fatal("cannot write " + path_);
    for (std::size_t done = 0; done < size;) {
      const ssize_t n = ::write(fd, data + done, size - done);
      if (n <= 0) fatal("cannot write " + path_);
      done += static_cast<std::size_t>(n);
    }
    close(fd);
    return path_;
  }
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] static void fatal(const std::string& what) {
    std::fprintf(stderr, "fuzz harness: %s\n", what.c_str());
    std::exit(99);
  }
  std::string dir_, path_;
};

// A reader broke a promise its header makes: abort so libFuzzer reports and keeps the input.
inline void expect(bool holds, const char* promise) {
  if (holds) return;
  std::fprintf(stderr, "fuzz: broken promise: %s\n", promise);
  std::abort();
}

}  // namespace ssd::fuzz
