// The pieces of the external merge sort behind SortedTrace (stimuli/sorted_trace.h): requests as
// fixed-size records, sorted runs of them spilled to temporary binary files, and a k-way merge.
// Records order by (time, line): line numbers grow in file order, so ties keep file order
// (a stable sort) without a separate sequence number.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "common/host_op.h"

namespace ssd::stimuli {

struct SortRecord {
  std::uint64_t time_ns = 0;  // absolute trace time
  std::uint64_t line = 0;     // physical line in the trace file
  std::uint64_t lba = 0;
  std::uint32_t sectors = 0;
  std::uint32_t issuer = 0;
  std::uint32_t op = 0;  // HostOp, with Force Unit Access in bit 8
};

// A line's flush goes before its request (a preflush: stimuli/blkparse_trace.h).
inline bool earlier(const SortRecord& a, const SortRecord& b) {
  constexpr std::uint32_t kFlush = static_cast<std::uint32_t>(HostOp::Flush);
  if (a.time_ns != b.time_ns) return a.time_ns < b.time_ns;
  if (a.line != b.line) return a.line < b.line;
  return (a.op & 0xff) == kFlush && (b.op & 0xff) != kFlush;
}

// A sorted run in an anonymous temporary file under $TMPDIR (default /tmp), unlinked as soon as
// it is created, so nothing is left behind even when the process is killed. Written once, then
// read once from the start. Throws WorkloadError when the file cannot be created or written.
class SpillRun {
 public:
  SpillRun();
  ~SpillRun();
  SpillRun(const SpillRun&) = delete;
  SpillRun& operator=(const SpillRun&) = delete;

  void append(const SortRecord* records, std::size_t n);
  void append(const SortRecord& r) { append(&r, 1); }
  void rewind();  // done writing: reads start at the first record
  bool next(SortRecord& r);
  std::uint64_t size() const { return size_; }  // records

 private:
  std::FILE* file_ = nullptr;
  std::string dir_;
  std::vector<SortRecord> buffer_;
  std::size_t pos_ = 0, end_ = 0;
  std::uint64_t size_ = 0;
};

// Merges sorted runs into one sorted stream; memory: one read buffer per run.
class RunMerger {
 public:
  explicit RunMerger(std::vector<std::unique_ptr<SpillRun>> runs);
  bool next(SortRecord& r);

 private:
  struct Head {
    SortRecord record;
    std::size_t run;
  };
  struct Later {
    bool operator()(const Head& a, const Head& b) const { return earlier(b.record, a.record); }
  };
  std::vector<std::unique_ptr<SpillRun>> runs_;
  std::priority_queue<Head, std::vector<Head>, Later> heads_;
};

}  // namespace ssd::stimuli
