// One streaming decoder per compression format (zlib for gzip, libbz2, liblzma for xz, libzstd),
// behind one interface so that stimuli/trace_file.h drives them all with the same loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "stimuli/compression.h"

namespace ssd::stimuli {

class Decompressor {
 public:
  struct Step {
    std::size_t consumed = 0;  // input bytes used
    std::size_t produced = 0;  // output bytes written
    bool ended = false;        // a whole stream (gzip member, bzip2 stream, zstd frame) is complete
    std::string error;         // the decoder's reason when the data are corrupt ("" otherwise)
  };
  virtual ~Decompressor() = default;
  // Decodes from `in` into `out`. `finish`: no input follows `in` (the end of the file); a step
  // that then neither ends the stream nor produces anything means the file is truncated.
  virtual Step step(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out, std::size_t out_size,
                    bool finish) = 0;
  // Ready for the next concatenated stream (gzip -c a >> f; gzip -c b >> f is one valid file).
  virtual void restart() = 0;
};

// Throws std::bad_alloc or std::runtime_error when the library cannot set a decoder up.
std::unique_ptr<Decompressor> make_decompressor(Compression c);

}  // namespace ssd::stimuli
