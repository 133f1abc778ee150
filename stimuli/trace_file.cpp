#include "stimuli/trace_file.h"

#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

namespace {
constexpr std::size_t kInputChunk = 64 * 1024;
}  // namespace

TraceFile::TraceFile(const std::string& path) : path_(path), buffer_(kInputChunk) {
  // An ifstream "opens" a directory on Linux and then reads nothing, which would pass for an
  // empty trace; refuse it explicitly.
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) in_.open(path, std::ios::binary);
  if (!in_.is_open()) throw WorkloadError("cannot open trace file '" + path + "'");
  const auto size = std::filesystem::file_size(path, ec);
  size_ = ec ? 0 : static_cast<std::uint64_t>(size);
  refill();
  compression_ = detect_compression(
      std::string_view(reinterpret_cast<const char*>(buffer_.data()) + begin_, end_ - begin_), path_);
  decoder_ = make_decompressor(compression_);
}

void TraceFile::refill() {
  // Fills the buffer (a short first read would hide the magic number of a pipe-like file).
  begin_ = end_ = 0;
  while (end_ < buffer_.size() && !at_eof_) {
    in_.read(reinterpret_cast<char*>(buffer_.data()) + end_, std::streamsize(buffer_.size() - end_));
    end_ += static_cast<std::size_t>(in_.gcount());
    if (in_.bad()) throw WorkloadError(path_ + ": read error after " + std::to_string(consumed_ + end_) + " bytes");
    if (in_.eof()) at_eof_ = true;
  }
}

void TraceFile::corrupt(const std::string& why) const {
  // The format's name is also its command-line tool's.
  const std::string format = compression_name(compression_);
  throw WorkloadError(path_ + ": " + why + " (at byte " + std::to_string(consumed_) + " of the " + format +
                      " file; `" + format + " -t` tests it)");
}

std::size_t TraceFile::read(char* out, std::size_t n) {
  for (;;) {
    if (begin_ == end_ && !at_eof_) refill();
    const bool finish = at_eof_ && begin_ == end_;
    if (!decoder_) {
      const std::size_t k = std::min(n, end_ - begin_);
      std::memcpy(out, buffer_.data() + begin_, k);
      begin_ += k;
      consumed_ += k;
      if (k > 0 || finish) return k;
      continue;
    }
    if (stream_ended_) {
      if (finish) return 0;
      decoder_->restart();  // another stream follows (concatenated files)
      stream_ended_ = false;
    }
    const Decompressor::Step s =
        decoder_->step(buffer_.data() + begin_, end_ - begin_, reinterpret_cast<std::uint8_t*>(out), n, finish);
    begin_ += s.consumed;
    consumed_ += s.consumed;
    if (!s.error.empty()) corrupt(std::string("corrupt ") + compression_name(compression_) + " data: " + s.error);
    stream_ended_ = s.ended;
    if (s.produced > 0) return s.produced;
    if (s.ended || s.consumed > 0) continue;
    // No progress: the decoder needs input the file does not have.
    if (finish) corrupt(std::string("the ") + compression_name(compression_) + " stream is truncated");
    if (begin_ < end_) corrupt(std::string("corrupt ") + compression_name(compression_) + " data: the decoder is stuck");
  }
}

}  // namespace ssd::stimuli
