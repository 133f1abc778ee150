// fio-style synthetic jobs running together: each job has its own pattern, sizes, read share,
// address range, skew and either a rate (open loop) or a weight (closed loop). Requests carry
// the job's index as their issuer, so reports split latency per job.
//
// - Closed loop (no job has a rate): the jobs share the host's queue depth; their requests are
//   interleaved in a weighted round robin (job j contributes `weight` requests per round) until
//   each has issued its count. With `iodepth` on every job, each job keeps its own number of
//   requests outstanding instead (as fio does), the round robin passing over jobs at their depth;
//   the host's queue depth is then their sum.
// - Open loop (every job has a rate): job j's requests arrive every 1/rate seconds, or with
//   exponential gaps of that mean (`poisson`), merged in time order.
// - Addresses: sequential jobs walk their range in request-size steps and wrap; random jobs pick
//   a slot of `align` bytes (default: the smallest size) uniformly, by a Zipf law over the slots
//   (theta; ranks scattered over the range by a fixed permutation so the hot slots are not all at
//   its start), or hot/cold (a hot_share of the range gets hot_access of the requests).
// - Durability (common/host_op.h): a job may flush after every `flush_every` of its writes (fio's
//   fsync=N), right after that write and before its next request; open-loop jobs may also flush
//   every `flush_interval` seconds of trace time (from 0 while they have requests left);
//   `fua_share` of its writes carry Force Unit Access. A flush is an extra request of the job (not
//   counted in `count`), taking a place in its queue depth like any other.
// - Trims: `trim_share` of a job's requests deallocate the range they would have read or written
//   (a file system's deletes and discards), counted in `count`.
// - Queues (common/io_queue.h): a job may name the NVMe I/O queue (flow) it submits to (`queue`,
//   from 0) and that queue's priority class; either every job names its queue or none does (one
//   queue). Every queue from 0 to the highest has a job, the jobs of a queue agree on its class,
//   and in a closed loop every job has an iodepth (a queue holds the iodepths of its jobs): each
//   flow keeps its own requests outstanding, as fio's jobs on their own cores do.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

struct JobSpec {
  enum class Pattern { Sequential, Random };
  enum class Skew { Uniform, Zipf, HotCold };
  std::string name = "job";
  Pattern pattern = Pattern::Random;
  double read_fraction = 0.0;
  // bytes, weight. (Not from an initializer list: GCC 12 at -O3 warns, wrongly, that the list's
  // copy may be used uninitialized where a JobSpec is default-constructed.)
  std::vector<std::pair<std::uint32_t, double>> sizes = std::vector<std::pair<std::uint32_t, double>>(1, {4096, 1.0});
  std::uint64_t count = 1000;
  std::uint64_t range_start_bytes = 0;
  std::uint64_t range_bytes = 0;  // 0: to the end of the drive
  std::uint32_t align_bytes = 0;  // 0: the smallest size
  double rate_iops = 0.0;         // 0: closed loop
  bool poisson = false;
  std::uint32_t weight = 1;
  std::uint32_t iodepth = 0;      // closed loop: the job's own queue depth (0: jobs share the host's)
  Skew skew = Skew::Uniform;
  double zipf_theta = 0.99;
  double hot_share = 0.2, hot_access = 0.8;
  std::uint64_t seed = 1;
  std::uint64_t flush_every = 0;   // writes between flushes (0: none)
  double flush_interval_s = 0.0;   // open loop: trace time between flushes (0: none)
  double fua_share = 0.0;          // share of writes with Force Unit Access
  double trim_share = 0.0;         // share of requests that deallocate their range instead (common/host_op.h)
  std::optional<std::uint32_t> queue;          // the I/O queue it submits to (none: the one queue)
  std::optional<QueuePriority> priority;       // its queue's class (weighted round robin; default medium)
};

class JobWorkload : public Workload {
 public:
  // Throws WorkloadError naming the job and field when a job does not fit the drive or the rules.
  JobWorkload(std::vector<JobSpec> jobs, std::uint64_t capacity_bytes);
  ~JobWorkload() override;

  bool next(HostRequest& r) override;
  std::string describe() const override;
  double fraction_done() const override;
  std::vector<std::uint32_t> stream_depths() const override;
  bool ready() const override;
  std::vector<IoQueueSpec> io_queues() const override { return queues_; }
  // The jobs of the other queues issue nothing (the queues stay, idle): queue `queue`'s flow run
  // alone, each of its jobs drawing the same requests as with the others. Throws WorkloadError when
  // there is no such queue.
  void keep_only_queue(std::uint32_t queue);
  void completed(std::uint32_t issuer) override;
  bool open_loop() const { return open_loop_; }

 private:
  struct Job;
  static bool has_room(const Job& job);
  void plan_queues();  // queues_ from the jobs' queue and priority; throws WorkloadError
  void flush(Job& job, std::size_t index, std::uint64_t at_ns, HostRequest& r);
  std::vector<std::unique_ptr<Job>> jobs_;
  bool open_loop_ = false;
  std::vector<IoQueueSpec> queues_;  // empty: one queue
  std::size_t turn_ = 0;           // closed loop: whose turn
  std::uint32_t issued_in_turn_ = 0;
};

}  // namespace ssd::stimuli
