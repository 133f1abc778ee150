#include "platforms/run/preconditioner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "platforms/functional/functional_drive.h"
#include "stimuli/sequential_fill.h"
#include "stimuli/steady_state_fill.h"
#include "stimuli/synthetic_workload.h"

namespace ssd::platform {

namespace {
constexpr std::uint32_t kQueueDepth = 64;
}

Preconditioner::Preconditioner(fw::Firmware& firmware, FunctionalHal& hal, stimuli::IntegrityOracle& oracle,
                               MetricSet& ftl, std::uint32_t page_bytes, std::uint32_t fill_chunk_sectors)
    : firmware_(firmware),
      hal_(hal),
      oracle_(oracle),
      ftl_(ftl),
      page_bytes_(page_bytes),
      fill_chunk_sectors_(fill_chunk_sectors) {}

void Preconditioner::sequential_fill() {
  stimuli::SequentialFill fill(firmware_.capacity_sectors(), fill_chunk_sectors_);
  replay_functional(firmware_, hal_, fill, oracle_, kQueueDepth);
}

stimuli::SyntheticSpec Preconditioner::random_pages(std::uint64_t count, std::uint64_t seed) const {
  stimuli::SyntheticSpec s;
  s.pattern = stimuli::SyntheticSpec::Pattern::Random;
  s.request_bytes = page_bytes_;
  s.range_bytes = firmware_.capacity_sectors() * fw::kSectorBytes;
  s.count = count;
  s.seed = seed;
  return s;
}

void Preconditioner::random_writes(std::uint64_t pages, std::uint64_t seed) {
  stimuli::SyntheticWorkload random(random_pages(pages, seed));
  replay_functional(firmware_, hal_, random, oracle_, kQueueDepth);
}

void Preconditioner::settle(const SettlingRule& rule, std::uint64_t seed, PreconditionOutcome& out) {
  // A whole number of chunks, so every write is counted and sampled.
  const std::uint64_t chunk = rule.chunk_pages, max_pages = (rule.max_pages + chunk - 1) / chunk * chunk;
  // One uninterrupted stream of random page writes, sampled every `chunk` requests, so each
  // chunk's WAF is the drive's as it runs (draining at every boundary would let GC catch up).
  class Settling : public stimuli::Workload {
   public:
    Settling(const stimuli::SyntheticSpec& spec, std::function<bool()> at_chunk_end, std::uint64_t chunk)
        : random_(spec), at_chunk_end_(std::move(at_chunk_end)), chunk_(chunk) {}
    bool next(stimuli::HostRequest& r) override {
      if (issued_ > 0 && issued_ % chunk_ == 0 && !at_chunk_end_()) return false;
      ++issued_;
      return random_.next(r);
    }
    std::string describe() const override { return random_.describe(); }

   private:
    stimuli::SyntheticWorkload random_;
    std::function<bool()> at_chunk_end_;
    std::uint64_t chunk_, issued_ = 0;
  };

  std::vector<double>& waf = out.settling_waf;
  std::uint64_t programmed0 = ftl_.counter("flash_pages_programmed"), host0 = ftl_.counter("host_pages_written");
  std::uint64_t erases0 = ftl_.counter("erases");
  // Returns whether to go on.
  auto chunk_done = [&]() {
    const std::uint64_t programmed = ftl_.counter("flash_pages_programmed"), host = ftl_.counter("host_pages_written");
    const std::uint64_t erases = ftl_.counter("erases");
    waf.push_back(double(programmed - programmed0) / double(std::max<std::uint64_t>(1, host - host0)));
    const bool gc_active = erases > erases0;
    programmed0 = programmed, host0 = host, erases0 = erases;
    out.random_page_writes += chunk;
    const std::size_t n = waf.size();
    if (!gc_active || n < rule.min_chunks) return out.random_page_writes < max_pages;
    // Compare the mean WAF of two equal windows of chunks.
    std::size_t recent_first, before_first, width;
    if (rule.window == 0) {  // the two halves of every chunk after the first
      width = (n - 1) / 2;
      before_first = n - 2 * width;
      recent_first = n - width;
    } else {  // the last `window` chunks and the `window` chunks 2 x window chunks earlier
      width = rule.window;
      recent_first = n - width;
      before_first = n - 3 * width;
    }
    double recent = 0, before = 0;
    for (std::size_t i = 0; i < width; ++i) {
      recent += waf[recent_first + i];
      before += waf[before_first + i];
    }
    out.write_amplification = recent / double(width);
    out.steady_reached = std::abs(recent - before) <= 0.02 * before;
    return !out.steady_reached && out.random_page_writes < max_pages;
  };
  Settling settling(random_pages(max_pages + 1, seed), chunk_done, chunk);
  replay_functional(firmware_, hal_, settling, oracle_, kQueueDepth);
}

std::string Preconditioner::steady_state_fill(std::uint64_t seed) {
  const std::uint64_t logical = firmware_.ftl().logical_pages(), before_gc = firmware_.ftl().pages_before_gc();
  if (before_gc <= logical) return "";
  // It writes every logical page, so it replaces the sequential fill.
  stimuli::SteadyStateFill fill(logical, before_gc, page_bytes_ / fw::kSectorBytes, seed);
  replay_functional(firmware_, hal_, fill, oracle_, kQueueDepth);
  return fmt::format(
      "steady-state fill ({} page writes laid out as after long uniform random writes: victim "
      "valid share {:.3f}, FIFO write amplification {:.2f})",
      fill.length(), fill.victim_valid_share(), fill.predicted_waf());
}

Preconditioner::SettlingRule Preconditioner::settling_rule(bool steady_start) const {
  const std::uint64_t logical = firmware_.ftl().logical_pages();
  const FlashGeometry& g = hal_.geometry();
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

PreconditionOutcome Preconditioner::run(const PreconditionSpec& spec) {
  if (!spec.writes_anything()) return PreconditionOutcome::fresh_drive();
  if (!spec.fill) throw std::invalid_argument("random preconditioning needs the sequential fill first");
  PreconditionOutcome out;
  const std::uint64_t logical = firmware_.ftl().logical_pages();
  // The starting state: the FTL's preload of the steady state, else a steady-state fill, else
  // the sequential fill (which random writes then age).
  const bool steady_start_wanted = spec.random_capacities <= 0 && (spec.steady == PreconditionSpec::Steady::Direct ||
                                                                   spec.steady == PreconditionSpec::Steady::Fill);
  std::string done;
  if (steady_start_wanted && spec.steady == PreconditionSpec::Steady::Direct)
    done = firmware_.ftl().preload_random_steady_state(spec.seed, [this](Lpn lpn) { return oracle_.baseline(lpn); });
  if (steady_start_wanted && done.empty()) done = steady_state_fill(spec.seed);
  const bool steady_start = !done.empty();
  if (!steady_start) {
    sequential_fill();
    done = "sequential fill of the whole logical space";
  }
  if (spec.random_capacities > 0) {
    const auto pages = static_cast<std::uint64_t>(spec.random_capacities * double(logical));
    random_writes(pages, spec.seed);
    done += fmt::format(", then {} random page writes", pages);
  }
  if (spec.steady != PreconditionSpec::Steady::No) {
    settle(settling_rule(steady_start), spec.seed + 1, out);
    done += fmt::format(", then {} random page writes until steady state ({}: write amplification {:.3f})",
                        out.random_page_writes, out.steady_reached ? "reached" : "NOT reached within 10 capacities",
                        out.write_amplification);
  }
  out.description = done;
  return out;
}

}  // namespace ssd::platform
