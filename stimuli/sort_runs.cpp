#include "stimuli/sort_runs.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <type_traits>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

namespace {
static_assert(std::is_trivially_copyable_v<SortRecord>, "records are written to disk as raw bytes");
constexpr std::size_t kReadRecords = 4096;  // per run while merging: 128 KiB

std::string temp_dir() {
  std::error_code ec;
  const auto dir = std::filesystem::temp_directory_path(ec);
  return ec ? std::string("/tmp") : dir.string();
}
}  // namespace

SpillRun::SpillRun() : dir_(temp_dir()) {
  std::string name = dir_ + "/ssdsim-sort-XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd >= 0) {
    ::unlink(name.c_str());
    file_ = ::fdopen(fd, "w+b");
    if (!file_) ::close(fd);
  }
  if (!file_)
    throw WorkloadError("cannot create a temporary file in '" + dir_ + "' to sort the trace (" + std::strerror(errno) +
                        "; set TMPDIR to a folder with room)");
}

SpillRun::~SpillRun() {
  if (file_) std::fclose(file_);
}

void SpillRun::append(const SortRecord* records, std::size_t n) {
  if (std::fwrite(records, sizeof(SortRecord), n, file_) != n)
    throw WorkloadError("cannot write a temporary file in '" + dir_ + "' to sort the trace (" + std::strerror(errno) +
                        "; disk full? set TMPDIR to a folder with room)");
  size_ += n;
}

void SpillRun::rewind() {
  if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0)
    throw WorkloadError("cannot write a temporary file in '" + dir_ + "' to sort the trace (" + std::strerror(errno) +
                        "; disk full? set TMPDIR to a folder with room)");
  buffer_.resize(kReadRecords);
  pos_ = end_ = 0;
}

bool SpillRun::next(SortRecord& r) {
  if (pos_ == end_) {
    end_ = std::fread(buffer_.data(), sizeof(SortRecord), buffer_.size(), file_);
    pos_ = 0;
    if (end_ == 0) {
      if (std::ferror(file_)) throw WorkloadError("cannot read back a temporary file of the trace sort in '" + dir_ + "'");
      return false;
    }
  }
  r = buffer_[pos_++];
  return true;
}

RunMerger::RunMerger(std::vector<std::unique_ptr<SpillRun>> runs) : runs_(std::move(runs)) {
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    runs_[i]->rewind();
    Head h{{}, i};
    if (runs_[i]->next(h.record)) heads_.push(h);
  }
}

bool RunMerger::next(SortRecord& r) {
  if (heads_.empty()) return false;
  Head h = heads_.top();
  heads_.pop();
  r = h.record;
  if (runs_[h.run]->next(h.record)) heads_.push(h);
  return true;
}

}  // namespace ssd::stimuli
