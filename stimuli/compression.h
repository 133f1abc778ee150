// Which compression a trace file uses, told by its first bytes (its magic number), not its name:
// a renamed or extension-less file is still recognised. gzip, bzip2, xz and zstd are read
// directly (stimuli/decompressor.h); a few other archive and compression formats are recognised
// only to name them in the error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ssd::stimuli {

enum class Compression : std::uint8_t { None, Gzip, Bzip2, Xz, Zstd };

// The compression of a file starting with `head` (its first bytes; at least 6 when the file has
// them). Throws WorkloadError naming `path` for a recognised format that is not read here
// (zip, 7z, lz4, lzip, compress .Z).
Compression detect_compression(std::string_view head, const std::string& path);
const char* compression_name(Compression c);  // "gzip", "bzip2", "xz", "zstd"; "none"

// `name` without a trailing .gz, .bz2, .xz, .zst or .zstd (so "hm_0.csv.gz" reads as "hm_0.csv").
std::string_view without_compression_suffix(std::string_view name);

}  // namespace ssd::stimuli
