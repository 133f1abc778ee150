// One host I/O request as a workload produces it, before it becomes an NVMe command.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/host_op.h"
#include "common/io_queue.h"

namespace ssd::stimuli {

struct HostRequest {
  std::uint64_t arrival_ns = 0;  // trace time (open-loop replay), relative to the first request
  HostOp op = HostOp::Read;
  bool fua = false;              // a write with Force Unit Access (common/host_op.h)
  std::uint64_t lba = 0;         // first 512-byte sector (a flush: 0)
  std::uint32_t sectors = 0;     // length in 512-byte sectors (> 0; a flush: 0); a trim: the range deallocated
  std::uint32_t issuer = 0;      // trace device / process / stream id (for FTLs that use it)
  std::uint32_t queue = 0;       // the I/O queue (flow) it is submitted to: an index into Workload::io_queues()

  bool is_write() const { return op == HostOp::Write; }
  bool is_read() const { return op == HostOp::Read; }
  bool is_flush() const { return op == HostOp::Flush; }
  bool is_trim() const { return op == HostOp::Trim; }
  // Changes what the pages hold (a write or a trim): the host orders it against every request it overlaps.
  bool modifies() const { return op == HostOp::Write || op == HostOp::Trim; }
  static HostOp read_or_write(bool write) { return write ? HostOp::Write : HostOp::Read; }
};

// A stream of requests: traces are read lazily so millions of requests need no memory.
class Workload {
 public:
  virtual ~Workload() = default;
  // Fills `r` with the next request; false at the end. Throws WorkloadError on bad input.
  virtual bool next(HostRequest& r) = 0;
  virtual std::string describe() const = 0;
  // Where the last request came from, for error messages ("trace.csv:12"); "" if not a file.
  virtual std::string position() const { return ""; }
  // Closed loop with a queue depth per stream (fio's iodepth per job): the depth of each issuer
  // 0..n-1, empty when the streams share the host's queue depth. The host then takes a request
  // only when ready() (some stream has room) and reports each completion with completed().
  virtual std::vector<std::uint32_t> stream_depths() const { return {}; }
  virtual bool ready() const { return true; }
  // The host's I/O queues (NVMe queue pairs, one flow each) that HostRequest::queue indexes; empty:
  // one queue of the host's queue depth.
  virtual std::vector<IoQueueSpec> io_queues() const { return {}; }
  virtual void completed(std::uint32_t issuer) { (void)issuer; }
  // How much of the workload has been read, in [0, 1] (for the progress line's ETA); negative
  // when unknown.
  virtual double fraction_done() const { return -1.0; }
  // Malformed lines a trace reader skipped (MalformedLines::Skip), and the first one's message.
  virtual std::uint64_t skipped_lines() const { return 0; }
  virtual std::string first_skipped() const { return ""; }
  // Requests of a trace whose time went backwards (before an earlier request's), and the largest
  // such step; see stimuli/text_trace.h for what happened to them (clamped, sorted or refused).
  virtual std::uint64_t backward_steps() const { return 0; }
  virtual std::uint64_t largest_backward_step_ns() const { return 0; }
};

class WorkloadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ssd::stimuli
