#include "stimuli/compression.h"

#include "stimuli/host_request.h"

namespace ssd::stimuli {

namespace {
bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool ends_with_nocase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i) {
    char c = s[s.size() - suffix.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}
}  // namespace

Compression detect_compression(std::string_view head, const std::string& path) {
  using namespace std::string_view_literals;
  if (starts_with(head, "\x1f\x8b"sv)) return Compression::Gzip;
  // "BZh" and the block size '1'..'9': plain text starting with "BZh" stays text.
  if (head.size() >= 4 && starts_with(head, "BZh"sv) && head[3] >= '1' && head[3] <= '9') return Compression::Bzip2;
  if (starts_with(head, "\xfd" "7zXZ\x00"sv)) return Compression::Xz;
  if (starts_with(head, "\x28\xb5\x2f\xfd"sv)) return Compression::Zstd;
  const char* other = nullptr;
  if (starts_with(head, "PK\x03\x04"sv)) other = "a zip archive";
  if (starts_with(head, "7z\xbc\xaf\x27\x1c"sv)) other = "a 7z archive";
  if (starts_with(head, "\x04\x22\x4d\x18"sv)) other = "lz4-compressed";
  if (starts_with(head, "LZIP"sv)) other = "lzip-compressed";
  if (starts_with(head, "\x1f\x9d"sv)) other = "compressed with compress (.Z)";
  if (other)
    throw WorkloadError("trace file '" + path + "' is " + other +
                        ", which is not read directly: unpack it, or recompress it with gzip, bzip2, xz or zstd");
  return Compression::None;
}

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::Gzip: return "gzip";
    case Compression::Bzip2: return "bzip2";
    case Compression::Xz: return "xz";
    case Compression::Zstd: return "zstd";
    case Compression::None: break;
  }
  return "none";
}

std::string_view without_compression_suffix(std::string_view name) {
  for (std::string_view suffix : {".gz", ".bz2", ".xz", ".zst", ".zstd"})
    if (ends_with_nocase(name, suffix)) return name.substr(0, name.size() - suffix.size());
  return name;
}

}  // namespace ssd::stimuli
