// Core dispatch policies and the split of core time, on the embedded core alone: a feeder posts
// jobs of known cost (cycles at 100 MHz, so 10 ns each, and table accesses to a memory bound
// directly to the core) at known times, and every job records the core that ran it and when it
// started. Expectations are closed forms of each policy (hw/core/core_dispatch.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "hw/core/embedded_core.h"
#include "hw/memory/memory_target.h"
#include "platforms/config/platform_config.h"

using namespace ssd;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;

namespace {

struct JobSpec {
  double at_us;                // when it is posted
  std::uint64_t cycles;        // 100 cycles = 1 us
  std::uint32_t accesses = 0;  // 64-byte table reads, 100 ns each when the memory is free
  std::int32_t channel = hw::JobHint::kNoChannel;
};

struct Ran {
  unsigned core = ~0u;
  double start_us = -1;
};

struct CoreBench : sc_core::sc_module {
  MetricsRegistry metrics;
  hw::MemoryTarget memory;
  hw::EmbeddedCore core;
  std::vector<JobSpec> jobs;
  std::vector<Ran> ran;

  SC_HAS_PROCESS(CoreBench);
  CoreBench(sc_core::sc_module_name name, unsigned cores, const std::string& dispatch, std::vector<JobSpec> specs)
      : sc_module(name),
        // 36 ns latency + 64 B at 1000 MB/s = 100 ns per access
        memory("memory", hw::MemoryConfig{1 << 20, sc_time(36, SC_NS), 1000}, metrics),
        core("core", hw::CoreConfig{cores, 100, dispatch}, metrics, nullptr),
        jobs(std::move(specs)),
        ran(jobs.size()) {
    core.bus.bind(memory.socket);
    SC_THREAD(feed);
  }

  void feed() {
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const sc_time at(jobs[i].at_us, SC_US);
      if (at > sc_core::sc_time_stamp()) wait(at - sc_core::sc_time_stamp());
      core.post(
          [this, i] {
            ran[i] = {core.current_core(), (sc_core::sc_time_stamp() + core.offset()).to_seconds() * 1e6};
            for (std::uint32_t a = 0; a < jobs[i].accesses; ++a) core.access(64 * a, 64, false);
            core.charge_cycles(jobs[i].cycles);
          },
          hw::JobHint{jobs[i].channel});
    }
  }

  MetricSet& core_stats(unsigned k) {  // published under the core's SystemC name
    return metrics.set(std::string(core.name()) + ".core" + std::to_string(k));
  }
  std::vector<unsigned> cores_run() const {
    std::vector<unsigned> v;
    for (const Ran& r : ran) v.push_back(r.core);
    return v;
  }
};

// `count` jobs of `cycles` each, posted `gap_us` apart from time 0.
std::vector<JobSpec> stream(std::size_t count, std::uint64_t cycles, double gap_us) {
  std::vector<JobSpec> v;
  for (std::size_t i = 0; i < count; ++i) v.push_back({gap_us * double(i), cycles});
  return v;
}

}  // namespace

TEST_CASE("first_idle: the lowest-numbered free core takes the oldest job", "[model][core]") {
  // A burst of 10 jobs of 10 us on 4 cores: rounds of four, job i on core i mod 4 at
  // 10 us x (i / 4). Jobs 20 us apart (every core free at each post) all go to core 0.
  CoreBench burst("burst", 4, "first_idle", stream(10, 1000, 0));
  CoreBench sparse("sparse", 4, "first_idle", stream(6, 1000, 20));
  sc_core::sc_start();
  for (std::size_t i = 0; i < 10; ++i) {
    INFO("job " << i);
    CHECK(burst.ran[i].core == i % 4);
    CHECK(burst.ran[i].start_us == Approx(10.0 * double(i / 4)));
  }
  CHECK(sparse.cores_run() == std::vector<unsigned>(6, 0));
  CHECK(sparse.core_stats(0).counter("jobs") == 6);
}

TEST_CASE("round_robin: job i runs on core i mod N, even when another core is free", "[model][core]") {
  // 10 equal jobs on 3 cores, sparse or in a burst: job counts 4, 3, 3 (within one of each other).
  CoreBench sparse("sparse", 3, "round_robin", stream(10, 1000, 20));
  CoreBench burst("burst", 3, "round_robin", stream(10, 1000, 0));
  // A long first job: job 3 waits for core 0 although cores 1 and 2 are free from 1 us on.
  CoreBench waits("waits", 3, "round_robin", {{0, 10000}, {0, 100}, {0, 100}, {0.5, 100}});
  sc_core::sc_start();
  for (CoreBench* b : {&sparse, &burst}) {
    for (std::size_t i = 0; i < 10; ++i) CHECK(b->ran[i].core == i % 3);
    std::uint64_t most = 0, least = ~std::uint64_t(0);
    for (unsigned k = 0; k < 3; ++k) {
      most = std::max(most, b->core_stats(k).counter("jobs"));
      least = std::min(least, b->core_stats(k).counter("jobs"));
    }
    CHECK(most - least <= 1);
  }
  for (std::size_t i = 0; i < 10; ++i) CHECK(burst.ran[i].start_us == Approx(10.0 * double(i / 3)));
  CHECK(waits.ran[3].core == 0);
  CHECK(waits.ran[3].start_us == Approx(100.0));
}

TEST_CASE("least_loaded: fewest jobs first, then the least busy time, balances busy time", "[model][core]") {
  // Two cores, jobs of 30, 10, 10, 10, 30, 10 us posted while both are free: each goes to the
  // core with less busy time (ties to core 0): 0, 1, 1, 1, 0, 1; busy 60 and 40 us, within the
  // largest job of each other. first_idle puts all of them on core 0.
  std::vector<JobSpec> jobs;
  for (std::uint64_t us : {30, 10, 10, 10, 30, 10}) jobs.push_back({100.0 * double(jobs.size()), us * 100});
  CoreBench least("least", 2, "least_loaded", jobs);
  CoreBench first("first", 2, "first_idle", jobs);
  // A burst of 5 equal jobs: the core with fewer jobs running or waiting gets the next.
  CoreBench burst("burst", 2, "least_loaded", stream(5, 1000, 0));
  sc_core::sc_start();
  CHECK(least.cores_run() == std::vector<unsigned>{0, 1, 1, 1, 0, 1});
  CHECK(least.core_stats(0).busy("utilization").ticks() == sc_time(60, SC_US).value());
  CHECK(least.core_stats(1).busy("utilization").ticks() == sc_time(40, SC_US).value());
  CHECK(first.cores_run() == std::vector<unsigned>(6, 0));
  CHECK(burst.cores_run() == std::vector<unsigned>{0, 1, 0, 1, 0});
  CHECK(burst.ran[4].start_us == Approx(20.0));
}

TEST_CASE("channel_affinity: a job about channel c runs on core c mod N, others least loaded", "[model][core]") {
  std::vector<JobSpec> jobs;
  for (std::int32_t c : {0, 1, 2, 3, 4, 5, 6, 7}) jobs.push_back({20.0 * double(jobs.size()), 1000, 0, c});
  // Then two jobs without a channel, all cores free: the first to core 2 (least busy: it ran
  // only channels 2 and 5), the second to core 0 (all equally busy: the lowest number).
  jobs.push_back({200, 1000});
  jobs.push_back({220, 1000});
  CoreBench b("affinity", 3, "channel_affinity", jobs);
  sc_core::sc_start();
  CHECK(b.cores_run() == std::vector<unsigned>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0});
}

TEST_CASE("Core time splits into compute, memory wait and idle, and they add up", "[model][core]") {
  // One core: 3 jobs of 500 cycles and 4 accesses each, 50 us apart: compute 3 x 5 us, memory
  // wait 12 x 100 ns. Two cores each start a job with one access at time 0: the second access
  // waits for the first, so its core's memory wait is 200 ns (contention counted as waiting).
  CoreBench one("one", 1, "first_idle", {{0, 500, 4}, {50, 500, 4}, {100, 500, 4}});
  CoreBench two("two", 2, "first_idle", {{0, 100, 1}, {0, 100, 1}});
  sc_core::sc_start();
  const sc_time end = sc_core::sc_time_stamp();
  one.core.finalize(end);
  two.core.finalize(end);
  CHECK(one.core_stats(0).counter("cycles") == 1500);
  CHECK(one.core_stats(0).duration("compute") == sc_time(15, SC_US).value());
  CHECK(one.core_stats(0).duration("memory_wait") == sc_time(1200, SC_NS).value());
  CHECK(one.core_stats(0).counter("table_accesses") == 12);
  CHECK(one.ran[2].start_us == Approx(100.0));
  CHECK(two.core_stats(0).duration("memory_wait") == sc_time(100, SC_NS).value());
  CHECK(two.core_stats(1).duration("memory_wait") == sc_time(200, SC_NS).value());
  for (CoreBench* b : {&one, &two}) {
    const std::uint64_t elapsed = std::max(end, b->core.drained_at()).value();
    for (unsigned k = 0; k < b->core.config().count; ++k) {
      INFO(b->name() << " core " << k);
      CHECK(b->core_stats(k).busy("utilization").ticks() == b->core_stats(k).duration("compute") + b->core_stats(k).duration("memory_wait"));
      CHECK(b->core_stats(k).duration("compute") + b->core_stats(k).duration("memory_wait") + b->core_stats(k).duration("idle") ==
            elapsed);
    }
  }
}

TEST_CASE("core.dispatch takes the four policies and names itself in a bad value", "[model][core]") {
  for (const std::string p : {"first_idle", "round_robin", "least_loaded", "channel_affinity"}) {
    const platform::PlatformConfig c = platform::load_platform(std::string(SSD_SOURCE_DIR) + "/platforms/tiny.yaml",
                                                               {"core.dispatch=" + p});
    CHECK(c.core.dispatch == p);
    CHECK(hw::make_core_dispatch(p) != nullptr);
  }
  try {
    platform::load_platform(std::string(SSD_SOURCE_DIR) + "/platforms/tiny.yaml", {"core.dispatch=fastest"});
    FAIL("an unknown policy was accepted");
  } catch (const platform::ConfigError& e) {
    const std::string what = e.what();
    CHECK(what.find("core.dispatch") != std::string::npos);
    CHECK(what.find("round_robin") != std::string::npos);
  }
  CHECK_THROWS_AS(hw::make_core_dispatch("fastest"), std::invalid_argument);
}
