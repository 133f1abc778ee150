#include "stimuli/sorted_trace.h"

#include <algorithm>

namespace ssd::stimuli {

SortedTrace::SortedTrace(std::unique_ptr<TextTrace> trace, std::size_t run_requests, std::size_t fan_in)
    : trace_(std::move(trace)), run_requests_(std::max<std::size_t>(1, run_requests)),
      fan_in_(std::max<std::size_t>(2, fan_in)) {}

void SortedTrace::spill(std::vector<std::unique_ptr<SpillRun>>& runs) {
  std::sort(memory_run_.begin(), memory_run_.end(), earlier);
  runs.push_back(std::make_unique<SpillRun>());
  runs.back()->append(memory_run_.data(), memory_run_.size());
  ++spilled_runs_;
  memory_run_.clear();
}

void SortedTrace::sort() {
  sorted_ = true;
  std::vector<std::unique_ptr<SpillRun>> runs;
  memory_run_.reserve(std::min<std::size_t>(run_requests_, 4096));
  HostRequest r;
  while (trace_->next(r)) {
    if (memory_run_.size() == run_requests_) spill(runs);
    memory_run_.push_back({r.arrival_ns, trace_->lines_read(), r.lba, r.sectors, r.issuer,
                           static_cast<std::uint32_t>(r.op) | (r.fua ? 0x100u : 0u)});
    ++total_;
  }
  if (runs.empty()) {  // it all fits in one run: no temporary file
    std::sort(memory_run_.begin(), memory_run_.end(), earlier);
  } else {
    if (!memory_run_.empty()) spill(runs);
    memory_run_.shrink_to_fit();
    // Merge groups of runs until one merge can take them all. Groups are consecutive runs, and
    // records order by (time, line), so the result stays stable.
    while (runs.size() > fan_in_) {
      std::vector<std::unique_ptr<SpillRun>> merged;
      for (std::size_t i = 0; i < runs.size(); i += fan_in_) {
        std::vector<std::unique_ptr<SpillRun>> group;
        for (std::size_t j = i; j < std::min(runs.size(), i + fan_in_); ++j) group.push_back(std::move(runs[j]));
        RunMerger m(std::move(group));
        merged.push_back(std::make_unique<SpillRun>());
        SortRecord rec;
        while (m.next(rec)) merged.back()->append(rec);
      }
      runs = std::move(merged);
    }
    merger_ = std::make_unique<RunMerger>(std::move(runs));
  }
}

bool SortedTrace::next_record(SortRecord& r) {
  if (merger_) return merger_->next(r);
  if (memory_pos_ == memory_run_.size()) return false;
  r = memory_run_[memory_pos_++];
  return true;
}

bool SortedTrace::next(HostRequest& r) {
  if (!sorted_) sort();
  SortRecord rec;
  if (!next_record(rec)) return false;
  if (served_++ == 0) first_time_ns_ = rec.time_ns;
  r.arrival_ns = rec.time_ns - first_time_ns_;
  r.op = static_cast<HostOp>(rec.op & 0xff);
  r.fua = (rec.op & 0x100) != 0;
  r.lba = rec.lba;
  r.sectors = rec.sectors;
  r.issuer = rec.issuer;
  line_ = rec.line;
  return true;
}

std::string SortedTrace::position() const {
  if (!sorted_ || served_ == 0) return trace_->position();  // still reading (an error while sorting)
  return trace_->path() + ":" + std::to_string(line_);
}

double SortedTrace::fraction_done() const {
  if (!sorted_) return 0.0;
  return total_ ? double(served_) / double(total_) : 1.0;
}

}  // namespace ssd::stimuli
