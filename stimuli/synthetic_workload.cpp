#include "stimuli/synthetic_workload.h"

#include <limits>
#include <sstream>

#include "common/host_addressing.h"

namespace ssd::stimuli {

namespace {

// The read/write generator is seeded with seed ^ this (the 64-bit golden ratio), so it is not the
// address generator's twin; any fixed odd constant would do, but it must never change.
constexpr std::uint64_t kOpSeedMix = 0x9E3779B97F4A7C15ull;

[[noreturn]] void invalid(const std::string& field, const std::string& allowed,
                          const std::string& got) {
  throw WorkloadError("synthetic workload: " + field + " must be " + allowed + ", got " + got);
}

}  // namespace

SyntheticWorkload::SyntheticWorkload(const SyntheticSpec& spec) : spec_(spec) {
  using std::to_string;
  if (spec_.request_bytes == 0 || spec_.request_bytes % kSectorBytes != 0) {
    invalid("request_bytes", "> 0 and a multiple of 512", to_string(spec_.request_bytes));
  }
  if (spec_.range_bytes < spec_.request_bytes || spec_.range_bytes % kSectorBytes != 0) {
    invalid("range_bytes",
            ">= request_bytes (" + to_string(spec_.request_bytes) + ") and a multiple of 512",
            to_string(spec_.range_bytes));
  }
  if (spec_.range_start_bytes % kSectorBytes != 0) {
    invalid("range_start_bytes", "a multiple of 512", to_string(spec_.range_start_bytes));
  }
  if (spec_.range_start_bytes > std::numeric_limits<std::uint64_t>::max() - spec_.range_bytes) {
    invalid("range_start_bytes", "such that range_start_bytes + range_bytes fits in 64 bits",
            to_string(spec_.range_start_bytes));
  }
  if (spec_.align_bytes % kSectorBytes != 0) {
    invalid("align_bytes", "0 (= request_bytes) or a multiple of 512", to_string(spec_.align_bytes));
  }
  // Written as a negated range test so that NaN is rejected too.
  if (!(spec_.read_fraction >= 0.0 && spec_.read_fraction <= 1.0)) {
    std::ostringstream got;
    got << spec_.read_fraction;
    invalid("read_fraction", "in [0, 1]", got.str());
  }
  if (spec_.count == 0) invalid("count", ">= 1", "0");
  if (spec_.issuers == 0) invalid("issuers", ">= 1", "0");
  if (spec_.interarrival_ns != 0 &&
      spec_.count - 1 > std::numeric_limits<std::uint64_t>::max() / spec_.interarrival_ns) {
    invalid("interarrival_ns", "such that (count - 1) * interarrival_ns fits in 64 bits",
            to_string(spec_.interarrival_ns));
  }

  if (spec_.align_bytes == 0) spec_.align_bytes = spec_.request_bytes;
  slots_ = (spec_.range_bytes - spec_.request_bytes) / spec_.align_bytes + 1;
  addr_rng_.seed(spec_.seed);
  op_rng_.seed(spec_.seed ^ kOpSeedMix);
  next_seq_offset_ = spec_.range_start_bytes;
}

std::uint64_t SyntheticWorkload::uniform_below(std::uint64_t n) {
  // Rejection sampling on the raw 64-bit output: values below 2^64 mod n are redrawn, so the
  // accepted values cover every residue equally often and x % n is exactly uniform.
  const std::uint64_t threshold = (0 - n) % n;  // == 2^64 mod n
  for (;;) {
    const std::uint64_t x = addr_rng_();
    if (x >= threshold) return x % n;
  }
}

bool SyntheticWorkload::next(HostRequest& r) {
  if (issued_ == spec_.count) return false;

  std::uint64_t offset = 0;
  if (spec_.pattern == SyntheticSpec::Pattern::Sequential) {
    const std::uint64_t end = spec_.range_start_bytes + spec_.range_bytes;
    // end - request_bytes >= range_start (validated), so this comparison cannot wrap.
    if (next_seq_offset_ > end - spec_.request_bytes) next_seq_offset_ = spec_.range_start_bytes;
    offset = next_seq_offset_;
    next_seq_offset_ += spec_.request_bytes;
  } else {
    offset = spec_.range_start_bytes + spec_.align_bytes * uniform_below(slots_);
  }

  // 53 random bits -> double in [0, 1): read_fraction 0 never reads, 1 always reads.
  const double u = static_cast<double>(op_rng_() >> 11) * (1.0 / 9007199254740992.0);

  r.arrival_ns = issued_ * spec_.interarrival_ns;
  r.op = HostRequest::read_or_write(!(u < spec_.read_fraction));
  r.lba = offset / kSectorBytes;
  r.sectors = spec_.request_bytes / kSectorBytes;
  r.issuer = static_cast<std::uint32_t>(issued_ % spec_.issuers);
  ++issued_;
  return true;
}

std::string SyntheticWorkload::describe() const {
  std::ostringstream s;
  s.precision(4);
  s << (spec_.pattern == SyntheticSpec::Pattern::Sequential ? "sequential " : "random ")
    << spec_.request_bytes << " B, ";
  // The mix only when there is one: "writes" for the default read fraction 0, "reads" for 1.
  if (spec_.read_fraction <= 0) s << "writes, ";
  else if (spec_.read_fraction >= 1) s << "reads, ";
  else s << spec_.read_fraction * 100.0 << "% reads, ";
  s << spec_.count
    << " requests, range [" << spec_.range_start_bytes << ", "
    << spec_.range_start_bytes + spec_.range_bytes << ") B, seed " << spec_.seed;
  return s.str();
}

}  // namespace ssd::stimuli
