// The run command's output files: checked before simulating (so a run never ends unable to
// write its results), and the FST conversion of a waveform.
#pragma once

#include <string>

namespace ssd::platform {

// Creates the parent folder and checks that `path` can be written; leaves no empty file behind.
// Throws ConfigError naming `what` (report, waveform, CSV) and the path.
void check_writable(const std::string& path, const char* what);

bool ends_with(const std::string& s, const std::string& suffix);

// Converts a VCD to FST with GTKWave's vcd2fst and removes the VCD; throws ConfigError on failure.
void convert_to_fst(const std::string& vcd, const std::string& fst);

}  // namespace ssd::platform
