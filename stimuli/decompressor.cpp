#include "stimuli/decompressor.h"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <climits>
#include <stdexcept>

namespace ssd::stimuli {

namespace {

// The libraries count sizes in unsigned int; callers pass buffers far below that.
unsigned int clamp_uint(std::size_t n) { return n > UINT_MAX ? UINT_MAX : static_cast<unsigned int>(n); }

class GzipDecompressor : public Decompressor {
 public:
  GzipDecompressor() {
    // 15 + 32: the largest window, and a gzip or zlib header detected automatically.
    if (inflateInit2(&s_, 15 + 32) != Z_OK) throw std::runtime_error("zlib: cannot set up a decoder");
  }
  ~GzipDecompressor() override { inflateEnd(&s_); }
  Step step(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out, std::size_t out_size, bool) override {
    s_.next_in = const_cast<Bytef*>(in);
    s_.avail_in = clamp_uint(in_size);
    s_.next_out = out;
    s_.avail_out = clamp_uint(out_size);
    const int rc = inflate(&s_, Z_NO_FLUSH);
    Step st{in_size - s_.avail_in, out_size - s_.avail_out, rc == Z_STREAM_END, ""};
    if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR)
      st.error = s_.msg ? s_.msg : "invalid data";
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    return st;  // Z_BUF_ERROR: no progress possible, more input needed
  }
  void restart() override { inflateReset(&s_); }

 private:
  z_stream s_{};
};

class Bzip2Decompressor : public Decompressor {
 public:
  Bzip2Decompressor() { init(); }
  ~Bzip2Decompressor() override { BZ2_bzDecompressEnd(&s_); }
  Step step(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out, std::size_t out_size, bool) override {
    s_.next_in = reinterpret_cast<char*>(const_cast<std::uint8_t*>(in));
    s_.avail_in = clamp_uint(in_size);
    s_.next_out = reinterpret_cast<char*>(out);
    s_.avail_out = clamp_uint(out_size);
    const int rc = BZ2_bzDecompress(&s_);
    Step st{in_size - s_.avail_in, out_size - s_.avail_out, rc == BZ_STREAM_END, ""};
    if (rc == BZ_DATA_ERROR) st.error = "data integrity error";
    if (rc == BZ_DATA_ERROR_MAGIC) st.error = "not a bzip2 stream";
    if (rc == BZ_PARAM_ERROR) st.error = "decoder misuse";
    if (rc == BZ_MEM_ERROR) throw std::bad_alloc();
    return st;
  }
  void restart() override {
    BZ2_bzDecompressEnd(&s_);
    init();
  }

 private:
  void init() {
    s_ = bz_stream{};
    if (BZ2_bzDecompressInit(&s_, 0, 0) != BZ_OK) throw std::runtime_error("libbz2: cannot set up a decoder");
  }
  bz_stream s_{};
};

class XzDecompressor : public Decompressor {
 public:
  XzDecompressor() { init(); }
  ~XzDecompressor() override { lzma_end(&s_); }
  Step step(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out, std::size_t out_size, bool finish) override {
    s_.next_in = in;
    s_.avail_in = in_size;
    s_.next_out = out;
    s_.avail_out = out_size;
    // LZMA_CONCATENATED reads every stream of the file (and the padding between them); it reports
    // the end only when told that no input follows.
    const lzma_ret rc = lzma_code(&s_, finish ? LZMA_FINISH : LZMA_RUN);
    Step st{in_size - s_.avail_in, out_size - s_.avail_out, rc == LZMA_STREAM_END, ""};
    if (rc == LZMA_FORMAT_ERROR) st.error = "not an xz stream";
    if (rc == LZMA_DATA_ERROR) st.error = "corrupt data";
    if (rc == LZMA_OPTIONS_ERROR) st.error = "unsupported options";
    if (rc == LZMA_MEMLIMIT_ERROR || rc == LZMA_MEM_ERROR) throw std::bad_alloc();
    return st;  // LZMA_BUF_ERROR: no progress possible
  }
  void restart() override {
    lzma_end(&s_);
    init();
  }

 private:
  void init() {
    s_ = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&s_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw std::runtime_error("liblzma: cannot set up a decoder");
  }
  lzma_stream s_ = LZMA_STREAM_INIT;
};

class ZstdDecompressor : public Decompressor {
 public:
  ZstdDecompressor() : d_(ZSTD_createDCtx()) {
    if (!d_) throw std::bad_alloc();
  }
  ~ZstdDecompressor() override { ZSTD_freeDCtx(d_); }
  Step step(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out, std::size_t out_size, bool) override {
    ZSTD_inBuffer i{in, in_size, 0};
    ZSTD_outBuffer o{out, out_size, 0};
    const std::size_t rc = ZSTD_decompressStream(d_, &o, &i);
    Step st{i.pos, o.pos, false, ""};
    if (ZSTD_isError(rc)) {
      st.error = ZSTD_getErrorName(rc);
      return st;
    }
    // 0: a frame is fully decoded and flushed; the context then starts the next frame itself.
    st.ended = rc == 0;
    return st;
  }
  void restart() override { ZSTD_DCtx_reset(d_, ZSTD_reset_session_only); }

 private:
  ZSTD_DCtx* d_;
};

}  // namespace

std::unique_ptr<Decompressor> make_decompressor(Compression c) {
  switch (c) {
    case Compression::Gzip: return std::make_unique<GzipDecompressor>();
    case Compression::Bzip2: return std::make_unique<Bzip2Decompressor>();
    case Compression::Xz: return std::make_unique<XzDecompressor>();
    case Compression::Zstd: return std::make_unique<ZstdDecompressor>();
    case Compression::None: break;
  }
  return nullptr;
}

}  // namespace ssd::stimuli
