#include "platforms/run/preconditioner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "fw/precondition/settling.h"
#include "fw/precondition/steady_state_fill.h"
#include "platforms/functional/functional_drive.h"
#include "stimuli/sequential_fill.h"
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

std::function<Token(Lpn)> Preconditioner::baseline_tokens() const {
  return [this](Lpn lpn) { return oracle_.baseline(lpn); };
}

std::string Preconditioner::sequential_fill() {
  if (firmware_.ftl().preload_sequential_fill(baseline_tokens()))
    return "sequential fill of the whole logical space (laid out directly, as page-by-page writes in order leave it)";
  stimuli::SequentialFill fill(firmware_.capacity_sectors(), fill_chunk_sectors_);
  replay_functional(firmware_, hal_, fill, oracle_, kQueueDepth);
  return fmt::format("sequential fill of the whole logical space (replayed: {} KiB writes at queue depth {})",
                     fill_chunk_sectors_ * kSectorBytes / 1024, kQueueDepth);
}

stimuli::SyntheticSpec Preconditioner::random_pages(std::uint64_t count, std::uint64_t seed) const {
  stimuli::SyntheticSpec s;
  s.pattern = stimuli::SyntheticSpec::Pattern::Random;
  s.request_bytes = page_bytes_;
  s.range_bytes = firmware_.capacity_sectors() * kSectorBytes;
  s.count = count;
  s.seed = seed;
  return s;
}

void Preconditioner::random_writes(std::uint64_t pages, std::uint64_t seed) {
  stimuli::SyntheticWorkload random(random_pages(pages, seed));
  replay_functional(firmware_, hal_, random, oracle_, kQueueDepth);
}

void Preconditioner::settle(const fw::SettlingRule& rule, std::uint64_t seed, fw::PreconditionOutcome& out) {
  // One uninterrupted stream of random page writes, sampled every chunk of requests, so each
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

  fw::SettlingMonitor monitor(rule, out, ftl_.counter("flash_pages_programmed"), ftl_.counter("host_pages_written"),
                              ftl_.counter("erases"));
  auto chunk_done = [&]() {
    return monitor.chunk_done(ftl_.counter("flash_pages_programmed"), ftl_.counter("host_pages_written"),
                              ftl_.counter("erases"));
  };
  Settling settling(random_pages(monitor.max_pages() + 1, seed), chunk_done, monitor.chunk_pages());
  replay_functional(firmware_, hal_, settling, oracle_, kQueueDepth);
}

std::string Preconditioner::steady_state_fill(std::uint64_t seed) {
  fw::SteadyStatePreload* family = firmware_.ftl().steady_state_preload();
  const std::uint64_t logical = firmware_.ftl().logical_pages(), before_gc = family ? family->pages_before_gc() : 0;
  if (before_gc <= logical) return "";
  // Each write of the fill's order as a one-page host write.
  class OnePageWrites : public stimuli::Workload {
   public:
    OnePageWrites(fw::SteadyStateFill& fill, std::uint32_t page_sectors) : fill_(fill), page_sectors_(page_sectors) {}
    bool next(stimuli::HostRequest& r) override {
      Lpn lpn;
      if (!fill_.next(lpn)) return false;
      r = stimuli::HostRequest{};
      r.op = HostOp::Write;
      r.lba = std::uint64_t(lpn) * page_sectors_;
      r.sectors = page_sectors_;
      return true;
    }
    std::string describe() const override { return fill_.describe(); }

   private:
    fw::SteadyStateFill& fill_;
    std::uint32_t page_sectors_;
  };
  // It writes every logical page, so it replaces the sequential fill.
  fw::SteadyStateFill fill(logical, before_gc, seed);
  OnePageWrites writes(fill, page_bytes_ / kSectorBytes);
  replay_functional(firmware_, hal_, writes, oracle_, kQueueDepth);
  return fmt::format(
      "steady-state fill ({} page writes laid out as after long uniform random writes: victim "
      "valid share {:.3f}, FIFO write amplification {:.2f})",
      fill.length(), fill.victim_valid_share(), fill.predicted_waf());
}

fw::PreconditionOutcome Preconditioner::run(const fw::PreconditionSpec& spec) {
  if (!spec.writes_anything()) return fw::PreconditionOutcome::fresh_drive();
  if (!spec.fill) throw std::invalid_argument("random preconditioning needs the sequential fill first");
  fw::PreconditionOutcome out;
  const std::uint64_t logical = firmware_.ftl().logical_pages();
  // The starting state: the FTL's preload of the steady state, else a steady-state fill, else
  // the sequential fill (which random writes then age).
  const bool steady_start_wanted = spec.random_capacities <= 0 && (spec.steady == fw::PreconditionSpec::Steady::Direct ||
                                                                   spec.steady == fw::PreconditionSpec::Steady::Fill);
  std::string done;
  fw::SteadyStatePreload* family = firmware_.ftl().steady_state_preload();
  if (steady_start_wanted && spec.steady == fw::PreconditionSpec::Steady::Direct && family)
    done = family->preload_random_steady_state(spec.seed, baseline_tokens());
  if (steady_start_wanted && done.empty()) done = steady_state_fill(spec.seed);
  const bool steady_start = !done.empty();
  if (!steady_start) done = sequential_fill();
  if (spec.random_capacities > 0) {
    const auto pages = static_cast<std::uint64_t>(spec.random_capacities * double(logical));
    random_writes(pages, spec.seed);
    done += fmt::format(", then {} random page writes", pages);
  }
  if (spec.steady != fw::PreconditionSpec::Steady::No) {
    settle(fw::SettlingRule::after(steady_start, hal_.geometry(), logical), spec.seed + 1, out);
    done += fmt::format(", then {} random page writes until steady state ({}: write amplification {:.3f})",
                        out.random_page_writes, out.steady_reached ? "reached" : "NOT reached within 10 capacities",
                        out.write_amplification);
  }
  if (spec.flush) {
    const std::uint64_t pages = firmware_.ftl().flush_mapping();
    hal_.run();
    if (pages > 0) done += fmt::format(", then a flush ({} translation pages written back)", pages);
  } else {
    done += " (no flush: cached mappings left as the writes left them)";
  }
  out.description = done;
  return out;
}

}  // namespace ssd::platform
