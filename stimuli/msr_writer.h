// Writes requests as an MSR Cambridge CSV (the format stimuli/msr_trace.h reads):
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
// Timestamp is a Windows FILETIME (100 ns ticks), here kBaseTicks plus the request's arrival
// (rounded down to a tick); Offset and Size are bytes; DiskNumber is the request's issuer; the
// response time is unknown and written as 0. A path ending in ".gz" is written gzip-compressed
// (zlib, which the readers already use), which every reader of the project reads directly.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

class MsrWriter {
 public:
  // 2007-02-22 17:00:00 UTC, the week the MSR Cambridge traces were taken.
  static constexpr std::uint64_t kBaseTicks = 128166372000000000ull;

  // Throws WorkloadError "cannot write trace file '<path>'".
  explicit MsrWriter(const std::string& path, std::string hostname = "standin");
  ~MsrWriter();  // closes what close() did not; errors then go unreported
  MsrWriter(const MsrWriter&) = delete;
  MsrWriter& operator=(const MsrWriter&) = delete;

  void write(const HostRequest& r);  // a flush is left out: the format has none
  // Flushes and closes; throws WorkloadError naming the file when anything failed to be written.
  void close();

  std::uint64_t requests() const { return requests_; }

 private:
  void flush();

  std::string path_, hostname_, buffer_;
  std::FILE* plain_ = nullptr;
  void* gzip_ = nullptr;  // gzFile, kept out of the header
  std::uint64_t requests_ = 0;
};

}  // namespace ssd::stimuli
