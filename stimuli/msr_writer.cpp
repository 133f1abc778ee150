#include "stimuli/msr_writer.h"

#include <fmt/format.h>
#include <zlib.h>

#include <iterator>
#include <utility>

namespace ssd::stimuli {

namespace {

constexpr std::size_t kFlushBytes = 1 << 20;

bool gzip_path(const std::string& path) { return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0; }

}  // namespace

MsrWriter::MsrWriter(const std::string& path, std::string hostname) : path_(path), hostname_(std::move(hostname)) {
  if (gzip_path(path)) {
    gzip_ = gzopen(path.c_str(), "wb6");
  } else {
    plain_ = std::fopen(path.c_str(), "wb");
  }
  if (!plain_ && !gzip_) throw WorkloadError("cannot write trace file '" + path + "'");
  buffer_.reserve(kFlushBytes + 256);
}

MsrWriter::~MsrWriter() {
  if (plain_) std::fclose(plain_);
  if (gzip_) gzclose(static_cast<gzFile>(gzip_));
}

void MsrWriter::write(const HostRequest& r) {
  if (r.is_flush() || r.is_trim()) return;  // the MSR format has no flush or trim (stand-ins hold none: trace_model.h)
  fmt::format_to(std::back_inserter(buffer_), "{},{},{},{},{},{},0\n", kBaseTicks + r.arrival_ns / 100, hostname_,
                 r.issuer, r.is_write() ? "Write" : "Read", r.lba * 512, std::uint64_t{r.sectors} * 512);
  ++requests_;
  if (buffer_.size() >= kFlushBytes) flush();
}

void MsrWriter::flush() {
  if (buffer_.empty()) return;
  const bool ok = plain_ ? std::fwrite(buffer_.data(), 1, buffer_.size(), plain_) == buffer_.size()
                         : gzwrite(static_cast<gzFile>(gzip_), buffer_.data(), unsigned(buffer_.size())) ==
                               int(buffer_.size());
  if (!ok) throw WorkloadError("cannot write trace file '" + path_ + "' (disk full?)");
  buffer_.clear();
}

void MsrWriter::close() {
  flush();
  bool ok = true;
  if (plain_) ok = std::fclose(plain_) == 0;
  if (gzip_) ok = gzclose(static_cast<gzFile>(gzip_)) == Z_OK;
  plain_ = nullptr;
  gzip_ = nullptr;
  if (!ok) throw WorkloadError("cannot write trace file '" + path_ + "' (closing it failed)");
}

}  // namespace ssd::stimuli
