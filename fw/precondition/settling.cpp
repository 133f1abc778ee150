#include "fw/precondition/settling.h"

#include <algorithm>
#include <cmath>

namespace ssd::fw {

SettlingRule SettlingRule::after(bool steady_start, const FlashGeometry& g, std::uint64_t logical) {
  SettlingRule rule;
  rule.max_pages = 10 * logical;
  if (steady_start) {
    // Already steady by construction: small chunks (about 0.1% of the capacity, at least two
    // blocks per plane), compared half against half. Chunks are a whole number of host blocks
    // per plane: host writes stripe over the planes, so their frontiers close (and GC starts)
    // on all planes at once every block, and chunks out of step with that rhythm see it as a
    // beat in their WAF (measured: 10.6 vs 13.0 on 64 GiB with 1% chunks).
    const std::uint64_t stripe = std::uint64_t(g.total_planes()) * g.pages_per_block;
    rule.chunk_pages = stripe * std::max<std::uint64_t>(2, (logical / 1000 + stripe - 1) / stripe);
    rule.window = 0;
    rule.min_chunks = 9;
  } else {
    // From the sequential fill the WAF climbs for about a capacity: 5% chunks, and the last
    // four compared with four chunks 40% of a capacity earlier, so a slow drift fails.
    rule.chunk_pages = std::max<std::uint64_t>(1, logical / 20);
    rule.window = 4;
    rule.min_chunks = 20;
  }
  return rule;
}

SettlingMonitor::SettlingMonitor(const SettlingRule& rule, PreconditionOutcome& out, std::uint64_t programmed,
                                 std::uint64_t host_written, std::uint64_t erases)
    : rule_(rule),
      out_(out),
      max_pages_((rule.max_pages + rule.chunk_pages - 1) / rule.chunk_pages * rule.chunk_pages),
      programmed0_(programmed),
      host0_(host_written),
      erases0_(erases) {}

bool SettlingMonitor::chunk_done(std::uint64_t programmed, std::uint64_t host, std::uint64_t erases) {
  std::vector<double>& waf = out_.settling_waf;
  waf.push_back(double(programmed - programmed0_) / double(std::max<std::uint64_t>(1, host - host0_)));
  const bool gc_active = erases > erases0_;
  programmed0_ = programmed, host0_ = host, erases0_ = erases;
  out_.random_page_writes += rule_.chunk_pages;
  const std::size_t n = waf.size();
  if (!gc_active || n < rule_.min_chunks) return out_.random_page_writes < max_pages_;
  // Compare the mean WAF of two equal windows of chunks.
  std::size_t recent_first, before_first, width;
  if (rule_.window == 0) {  // the two halves of every chunk after the first
    width = (n - 1) / 2;
    before_first = n - 2 * width;
    recent_first = n - width;
  } else {  // the last `window` chunks and the `window` chunks 2 x window chunks earlier
    width = rule_.window;
    recent_first = n - width;
    before_first = n - 3 * width;
  }
  double recent = 0, before = 0;
  for (std::size_t i = 0; i < width; ++i) {
    recent += waf[recent_first + i];
    before += waf[before_first + i];
  }
  out_.write_amplification = recent / double(width);
  out_.steady_reached = std::abs(recent - before) <= 0.02 * before;
  return !out_.steady_reached && out_.random_page_writes < max_pages_;
}

}  // namespace ssd::fw
