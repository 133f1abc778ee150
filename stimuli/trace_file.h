// The bytes of a trace file, decompressed on the fly when the file is gzip, bzip2, xz or zstd
// (told by its magic number: stimuli/compression.h), so a compressed multi-gigabyte trace is
// read in a streaming fashion and never unpacked to disk or memory. A corrupt or truncated
// compressed stream is an error naming the file, never a silently short trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "stimuli/compression.h"
#include "stimuli/decompressor.h"

namespace ssd::stimuli {

class TraceFile {
 public:
  // Throws WorkloadError "cannot open trace file '<path>'" (also for a directory), or naming an
  // archive or compression format that is not read.
  explicit TraceFile(const std::string& path);

  // Up to `n` bytes of the (decompressed) content; 0 at its end. Throws WorkloadError
  // "<path>: corrupt <format> data ..." or "<path>: the <format> stream is truncated ...".
  std::size_t read(char* out, std::size_t n);

  Compression compression() const { return compression_; }
  std::uint64_t size() const { return size_; }  // of the file on disk; 0 when unknown
  // Bytes of the file on disk consumed so far (compressed bytes for a compressed file).
  std::uint64_t consumed() const { return consumed_; }

 private:
  void refill();
  [[noreturn]] void corrupt(const std::string& why) const;

  std::string path_;
  std::ifstream in_;
  std::vector<std::uint8_t> buffer_;
  std::size_t begin_ = 0, end_ = 0;  // unread input in buffer_
  bool at_eof_ = false;              // the file has no more bytes than those in buffer_
  Compression compression_ = Compression::None;
  std::unique_ptr<Decompressor> decoder_;
  bool stream_ended_ = false;
  std::uint64_t size_ = 0, consumed_ = 0;
};

}  // namespace ssd::stimuli
