// A text trace replayed in time order (--time-order sort), for traces whose timestamps go
// backwards (merged per-disk logs, multi-volume captures). Stable: requests with equal times keep
// their file order. Arrivals are relative to the earliest request.
//
// Memory stays bounded whatever the trace's size: an external merge sort. The first next() reads
// the whole trace in runs of `run_requests` requests (40 bytes each), sorts each run and spills
// it to an anonymous temporary file under $TMPDIR (stimuli/sort_runs.h); a k-way merge then
// replays them. More than `fan_in` runs are first merged in groups, so the merge keeps at most
// `fan_in` files open and `fan_in` read buffers (128 KiB each) in memory. A trace that fits in
// one run is sorted in memory and never touches the disk.
//
// Errors while reading (malformed lines, corrupt compressed data) surface from that first
// next() with their file:line. After sorting, position() is the file:line of the request last
// handed out, so later messages (a request beyond the drive) still point into the file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stimuli/host_request.h"
#include "stimuli/sort_runs.h"
#include "stimuli/text_trace.h"

namespace ssd::stimuli {

class SortedTrace : public Workload {
 public:
  static constexpr std::size_t kDefaultRunRequests = std::size_t(1) << 20;  // 40 MiB of records
  static constexpr std::size_t kDefaultFanIn = 64;

  // `trace` must have been opened with TimeOrder::Sort (absolute times in file order).
  explicit SortedTrace(std::unique_ptr<TextTrace> trace, std::size_t run_requests = kDefaultRunRequests,
                       std::size_t fan_in = kDefaultFanIn);

  bool next(HostRequest& r) override;
  std::string describe() const override { return trace_->describe() + ", sorted by time"; }
  std::string position() const override;
  double fraction_done() const override;
  std::uint64_t skipped_lines() const override { return trace_->skipped_lines(); }
  std::string first_skipped() const override { return trace_->first_skipped(); }
  std::uint64_t backward_steps() const override { return trace_->backward_steps(); }
  std::uint64_t largest_backward_step_ns() const override { return trace_->largest_backward_step_ns(); }

  std::size_t spilled_runs() const { return spilled_runs_; }  // runs written to temporary files

 private:
  void sort();
  void spill(std::vector<std::unique_ptr<SpillRun>>& runs);
  bool next_record(SortRecord& r);

  std::unique_ptr<TextTrace> trace_;
  std::size_t run_requests_, fan_in_;
  bool sorted_ = false;
  std::vector<SortRecord> memory_run_;  // the whole trace when it fits in one run
  std::size_t memory_pos_ = 0;
  std::unique_ptr<RunMerger> merger_;
  std::size_t spilled_runs_ = 0;
  std::uint64_t total_ = 0, served_ = 0, first_time_ns_ = 0, line_ = 0;
};

}  // namespace ssd::stimuli
