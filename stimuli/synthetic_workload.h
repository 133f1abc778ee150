// Synthetic workloads: sequential or uniformly random fixed-size requests over a byte range.
//
// Reproducible across platforms: std::mt19937_64's output sequence is fixed by the C++ standard,
// and the draws built on it (uniform integer, read/write choice) are implemented here rather
// than with std::uniform_*_distribution, whose algorithms differ between standard libraries.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

struct SyntheticSpec {
  enum class Pattern { Sequential, Random } pattern = Pattern::Random;
  double read_fraction = 0.0;           // probability that a request is a read, [0, 1]
  std::uint32_t request_bytes = 4096;   // every request has this size (> 0, multiple of 512)
  std::uint64_t count = 1000;           // number of requests (> 0)
  std::uint64_t range_start_bytes = 0;  // first byte of the addressed range (multiple of 512)
  std::uint64_t range_bytes = 0;        // size of the range (>= request_bytes, multiple of 512)
  std::uint32_t align_bytes = 0;        // Random: offset granularity from range start; 0 = request_bytes
  std::uint64_t seed = 1;
  std::uint64_t interarrival_ns = 0;    // arrival of request i is i * interarrival_ns
  std::uint32_t issuers = 1;            // request i comes from issuer i % issuers (interleaved streams)
};

// Sequential: offsets start at range_start_bytes and advance by request_bytes; when the next
// request would pass the end of the range it starts again at range_start_bytes (align_bytes is
// not used). Random: offset = range_start_bytes + align * k, k uniform in
// [0, (range_bytes - request_bytes) / align], so every request lies wholly inside the range.
// Read or write is a separate draw (its own generator, so the read/write sequence of a seed is
// the same for both patterns): read with probability read_fraction.
class SyntheticWorkload : public Workload {
 public:
  // Throws WorkloadError naming the offending field and its allowed values.
  explicit SyntheticWorkload(const SyntheticSpec& spec);

  bool next(HostRequest& r) override;
  // e.g. "random 4096 B, 30% reads, 1000 requests, range [0, 1073741824) B, seed 1"
  std::string describe() const override;
  double fraction_done() const override { return double(issued_) / double(spec_.count); }

  const SyntheticSpec& spec() const { return spec_; }

 private:
  std::uint64_t uniform_below(std::uint64_t n);  // uniform in [0, n), n > 0, unbiased

  SyntheticSpec spec_;          // align_bytes already resolved (never 0)
  std::uint64_t slots_ = 0;     // Random: number of possible offsets
  std::mt19937_64 addr_rng_;
  std::mt19937_64 op_rng_;
  std::uint64_t issued_ = 0;
  std::uint64_t next_seq_offset_ = 0;
};

}  // namespace ssd::stimuli
