// The GTKWave view of a run's waveform (a .gtkw save file beside it), generated for the
// platform that ran and for the signals that were traced: host, firmware cores, firmware and
// FTL state, the busy share of every shared resource (system bus, SRAM, DRAM, PCIe link, cores,
// dies, channels), then one group per channel (the first open, the others collapsed) with its bus owner and each die's state,
// origin (host, GC or mapping work) and queue. Die state and origin get translate filters
// (written beside the view) so GTKWave shows names instead of codes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlm/vcd_tracer.h"

namespace ssd::platform {

struct WaveformView {
  std::string dump_path;    // the VCD or FST the view opens
  std::string view_path;    // the .gtkw file to write
  std::uint64_t start_ticks = 0;  // the traced window's start (kernel ticks, the dump's unit)
  std::vector<tlmx::VcdTracer::SignalInfo> signals;
  std::vector<std::string> firmware_functions;  // core.model = iss: names of ssd.cores.core0_function's values
};

// "results/run.vcd" -> "results/run.gtkw" (also for .fst).
std::string view_path_for(const std::string& dump_path);

// Writes the view and its filters (die_state.filter, die_origin.filter in the view's folder, and
// firmware_functions.filter from the image's symbol table on the ISS core);
// throws ConfigError when a file cannot be written.
void write_waveform_view(const WaveformView& view);

}  // namespace ssd::platform
