// When random page writes after a fill count as settled: the write amplification of successive
// chunks of writes, compared window against window. The preconditioner
// (platforms/run/preconditioner.h) issues the writes and reports each chunk's counters here.
#pragma once

#include <cstdint>

#include "common/geometry.h"
#include "fw/precondition/precondition_spec.h"

namespace ssd::fw {

// Chunks of `chunk_pages` writes, each with its WAF; settled once GC ran in the last chunk, at
// least `min_chunks` ran, and two windows of chunks have mean WAFs within 2% of each other.
// window > 0: the last `window` chunks against the `window` chunks 2 x window earlier;
// window == 0: the two halves of all chunks but the first. Gives up (not settled) after
// `max_pages` writes.
struct SettlingRule {
  std::uint64_t chunk_pages = 1;
  std::uint32_t window = 0;
  std::uint32_t min_chunks = 1;
  std::uint64_t max_pages = 0;

  // Settling after a steady start (preload or steady-state fill), or after the sequential fill.
  static SettlingRule after(bool steady_start, const FlashGeometry& geometry, std::uint64_t logical_pages);
};

// Follows the chunks of one settling run and records them in the outcome.
class SettlingMonitor {
 public:
  // The FTL's counters before the first write.
  SettlingMonitor(const SettlingRule& rule, PreconditionOutcome& out, std::uint64_t programmed,
                  std::uint64_t host_written, std::uint64_t erases);

  std::uint64_t chunk_pages() const { return rule_.chunk_pages; }
  // The rule's limit rounded up to whole chunks, so every write is counted and sampled.
  std::uint64_t max_pages() const { return max_pages_; }
  // After each chunk, with the counters then: records its WAF, returns whether to go on.
  bool chunk_done(std::uint64_t programmed, std::uint64_t host_written, std::uint64_t erases);

 private:
  SettlingRule rule_;
  PreconditionOutcome& out_;
  std::uint64_t max_pages_, programmed0_, host0_, erases0_;
};

}  // namespace ssd::fw
