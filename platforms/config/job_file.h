// Reads an fio-style job file (YAML) into job specs (stimuli/job_workload.h):
//
//   jobs:
//     - name: oltp             # default job<N>
//       pattern: random        # random | sequential
//       read_fraction: 0.7
//       block_size: 4096       # or a mix: [[4096, 0.8], [65536, 0.2]] (bytes, weight)
//       count: 100000          # requests
//       range_start: 0         # bytes
//       range_bytes: 0         # bytes, 0 = to the end of the drive
//       align: 0               # random slot size in bytes, 0 = the smallest block size
//       rate_iops: 0           # 0 = closed loop (all jobs, or none, have a rate)
//       arrivals: uniform      # uniform | poisson (open loop)
//       weight: 1              # closed loop: requests per round-robin turn
//       iodepth: 0             # closed loop: the job's own queue depth; all jobs or none
//                              # (0: the jobs share the host's --qd)
//       skew: uniform          # uniform | zipf:THETA | hotcold:HOT_SHARE:HOT_ACCESS
//       seed: 1
//       flush_every: 0         # a flush after every N of the job's writes (fio's fsync=N); 0: none
//       flush_interval: 0      # open loop: a flush every this many seconds of trace time; 0: none
//       fua_share: 0           # the share of writes with Force Unit Access
//       trim_share: 0          # the share of requests that deallocate (trim) their range instead
//       queue: 0               # the NVMe I/O queue (flow) it submits to, from 0; all jobs or none
//                              # (none: one queue); closed loop: with an iodepth
//       priority: medium       # its queue's class: urgent | high | medium | low (host.arbitration wrr)
//
// Errors name the file, the line and the key (ConfigError).
#pragma once

#include <string>
#include <vector>

#include "stimuli/job_workload.h"

namespace ssd::platform {

std::vector<stimuli::JobSpec> load_job_file(const std::string& path);
// The same from the file's text; `path` only names it in errors (the fuzz targets use this).
std::vector<stimuli::JobSpec> load_job_text(const std::string& text, const std::string& path);

}  // namespace ssd::platform
