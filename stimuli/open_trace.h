// Opens a trace file with the reader for its format: "msr" (MSR Cambridge CSV), "mqsim" (MQSim
// ASCII), "disksim" (DiskSim ASCII), "blkparse" (blkparse text, D events), "spc" (UMass/SPC), or
// "auto": *.csv is MSR and *.spc SPC; otherwise the first line decides (7 comma fields: MSR;
// comma fields with r/w fourth: SPC; "maj,min ..." events: blkparse; 5 blank-separated numbers:
// MQSim when the time is an integer, DiskSim when it has a fraction). Throws WorkloadError naming
// the file when the format is unknown or cannot be told.
//
// Every format may be compressed with gzip, bzip2, xz or zstd (told by the content, so the name
// need not say; see stimuli/trace_file.h): "auto" then goes by the name without the compression
// suffix (hm_0.csv.gz is MSR) or by the first decompressed line. A UTF-8 byte-order mark is
// skipped; UTF-16 and UTF-32 text is refused with an error that says so.
//
// `order` says what to do with requests whose time goes backwards (stimuli/text_trace.h):
// clamp them, refuse the trace, or replay it sorted by time (stimuli/sorted_trace.h).
#pragma once

#include <memory>
#include <string>

#include "stimuli/host_request.h"
#include "stimuli/text_trace.h"

namespace ssd::stimuli {

std::unique_ptr<Workload> open_trace(const std::string& path, const std::string& format,
                                     MalformedLines policy = MalformedLines::Stop,
                                     TimeOrder order = TimeOrder::Clamp);
inline const char* trace_formats() { return "auto, msr, mqsim, disksim, blkparse, spc"; }

}  // namespace ssd::stimuli
