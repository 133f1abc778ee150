// Conservation of core time on the whole platform: the same firmware work costs the same compute
// whatever the core count (only the waiting for tables, which contend on the bus, and the idle
// time change), and each core's compute + memory wait + idle is the run's length.
#include <catch2/catch.hpp>

#include <memory>

#include "platform_support.h"

using namespace ssd;
using namespace ssd::platform;

namespace {

struct Drive {
  unsigned cores;
  std::unique_ptr<DriveTestbench> bench;
};

MetricSet& core_stats(DriveTestbench& d, unsigned k) {  // published under the core's SystemC name
  return d.metrics().set(std::string(d.top().name()) + ".cores.core" + std::to_string(k));
}

}  // namespace

TEST_CASE("The same firmware work costs the same compute cycles on 1, 2 and 4 cores", "[model][core][platform]") {
  // Two workloads whose firmware work does not depend on timing: 4 KiB random reads of a filled
  // drive (every read takes the same firmware path: host_command + host_page + map_lookup +
  // 2 x (op_issue + op_complete) + host_complete cycles), and mixed 4 KiB requests on a fresh
  // drive (no GC, whose decisions depend on timing, and no limit on the write buffer's evictions in
  // flight, for the same reason). Core clock 100 MHz: a cycle is 10 ns.
  stimuli::SyntheticSpec reads;
  reads.read_fraction = 1.0;
  reads.request_bytes = 4096;
  reads.count = 1500;
  reads.seed = 3;
  stimuli::SyntheticSpec mixed = reads;
  mixed.read_fraction = 0.3;
  stimuli::HostModelConfig qd16{16, {}, {}, {}};
  std::vector<Drive> read_drives, mixed_drives;
  for (unsigned cores : {1u, 2u, 4u}) {
    const std::vector<std::string> o{"core.clock_mhz=100", "core.count=" + std::to_string(cores)};
    read_drives.push_back({cores, std::make_unique<DriveTestbench>("reads" + std::to_string(cores), test::tiny_platform(o),
                                                                   test::synthetic(reads), qd16)});
    read_drives.back().bench->precondition(fw::PreconditionSpec::parse("fill"));
    // A limit on evictions in flight makes when pages leave the write buffer (so which later
    // writes it absorbs) depend on timing: none here.
    std::vector<std::string> unlimited = o;
    unlimited.push_back("firmware.write_buffer_flush_depth=0");
    mixed_drives.push_back({cores, std::make_unique<DriveTestbench>("mixed" + std::to_string(cores),
                                                                    test::tiny_platform(unlimited), test::synthetic(mixed),
                                                                    qd16)});
  }
  sc_core::sc_start();
  const sc_core::sc_time end = sc_core::sc_time_stamp();

  // The FTL's own costs (the platform's, with its firmware_cycles.<ftl> subsection applied).
  const fw::FirmwareCosts& k = read_drives[0].bench->firmware().config().costs;
  const std::uint64_t cycles_per_read = k.host_command + k.host_page + k.map_lookup + k.op_issue + k.op_complete +
                                        k.op_issue_dma_out + k.op_complete_dma_out + k.host_complete;
  for (auto* drives : {&read_drives, &mixed_drives}) {
    const std::uint64_t cycles_one_core = (*drives)[0].bench->metrics().set(std::string((*drives)[0].bench->top().name()) + ".cores").counter("cycles");
    if (drives == &read_drives) CHECK(cycles_one_core == cycles_per_read * reads.count);
    CHECK(cycles_one_core > 0);
    for (Drive& d : *drives) {
      DriveTestbench& b = *d.bench;
      INFO(b.top().name() << " on " << d.cores << " cores");
      REQUIRE(b.host().finished());
      CHECK(b.oracle().mismatches() == 0);
      const std::uint64_t elapsed = b.top().finalize(end).value();
      std::uint64_t cycles = 0, compute = 0, memory_wait = 0, accesses = 0;
      for (unsigned c = 0; c < d.cores; ++c) {
        INFO("core " << c);
        CHECK(core_stats(b, c).counter("jobs") > 0);
        // compute is the core's cycles at 10 ns (1000 kernel ticks of 10 ps)
        CHECK(core_stats(b, c).duration("compute") == core_stats(b, c).counter("cycles") * 1000);
        CHECK(core_stats(b, c).busy("utilization").ticks() == core_stats(b, c).duration("compute") + core_stats(b, c).duration("memory_wait"));
        CHECK(core_stats(b, c).duration("compute") + core_stats(b, c).duration("memory_wait") +
                  core_stats(b, c).duration("idle") ==
              elapsed);
        cycles += core_stats(b, c).counter("cycles");
        compute += core_stats(b, c).duration("compute");
        memory_wait += core_stats(b, c).duration("memory_wait");
        accesses += core_stats(b, c).counter("table_accesses");
      }
      MetricSet& all = b.metrics().set(std::string(b.top().name()) + ".cores");
      CHECK(cycles == all.counter("cycles"));
      CHECK(memory_wait == all.duration("table_access"));
      CHECK(accesses == all.counter("table_accesses"));
      // Conservation: the same work costs the same on any number of cores.
      CHECK(cycles == cycles_one_core);
      CHECK(compute == cycles_one_core * 1000);
    }
  }
}
