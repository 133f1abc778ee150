// The annotated core's data cache (core.annotated_dcache): one job's table accesses, with a
// 1 KiB cache (4 ways of 32-byte lines: 8 sets) in front of a memory of 36 ns latency and
// 1000 MB/s (a 32-byte line fill or write-back takes 68 ns, an 8-byte access 44 ns). Expectations
// are counted by hand from the access sequence.
#include <catch2/catch.hpp>

#include <functional>
#include <vector>

#include "hw/core/embedded_core.h"
#include "hw/memory/memory_target.h"

using namespace ssd;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

struct Access {
  std::uint64_t address;
  std::uint32_t bytes;
  bool write;
};

// The sequence: 0 read three times (a miss, two hits); a write into line 32 (set 1, a miss, the
// line now dirty); 64 bytes at 128 (lines 128 and 160: two misses); 288, 544 and 800 (set 1:
// three misses, the set is full, line 32 the least recently used); 1056 (set 1: a miss that
// evicts dirty line 32: written back, then filled).
const std::vector<Access> kSequence{{0, 8, false},   {0, 8, false},   {0, 8, false},   {40, 8, true},  {128, 64, false},
                                    {288, 8, false}, {544, 8, false}, {800, 8, false}, {1056, 8, false}};

struct CacheBench : sc_core::sc_module {
  MetricsRegistry metrics;
  hw::MemoryTarget memory;
  hw::EmbeddedCore core;
  bool records;  // the sequence as accesses to the firmware's records (access_record)

  SC_HAS_PROCESS(CacheBench);
  CacheBench(sc_core::sc_module_name name, std::uint32_t dcache_bytes, bool records = false)
      : sc_module(name),
        memory("memory", hw::MemoryConfig{1 << 20, sc_time(36, SC_NS), 1000}, metrics),
        core("core", config(dcache_bytes), metrics, nullptr),
        records(records) {
    core.bus.bind(memory.socket);
    SC_THREAD(feed);
  }
  static hw::CoreConfig config(std::uint32_t dcache_bytes) {
    hw::CoreConfig c{1, 100, "first_idle"};
    c.dcache_bytes = dcache_bytes;
    return c;
  }
  void feed() {
    core.post([this] {
      for (const Access& a : kSequence)
        records ? core.access_record(a.address, a.bytes, a.write) : core.access(a.address, a.bytes, a.write);
    });
  }
  MetricSet& stats() { return metrics.set(std::string(core.name()) + ".core0"); }
};

// The sequence through the 1 KiB cache: 8 misses (one with a write-back) and 2 hits, so 9 line
// transfers of 68 ns.
void check_through_cache(CacheBench& cached) {
  CHECK(cached.stats().counter("dcache_misses") == 8);
  CHECK(cached.stats().counter("dcache_hits") == 2);
  CHECK(cached.stats().counter("table_accesses") == 9);
  CHECK(cached.stats().duration("memory_wait") == (sc_time(68, SC_NS) * 9.0).value());
}

}  // namespace

TEST_CASE("The annotated core's data cache fills lines on misses and writes dirty victims back", "[model][core]") {
  CacheBench cached("cached", 1024);
  CacheBench uncached("uncached", 0);
  sc_core::sc_start();

  check_through_cache(cached);

  // Without a cache every access is a transaction of its own bytes: eight of 8 bytes (44 ns) and
  // one of 64 (100 ns); no cache counters.
  CHECK(uncached.stats().counter("table_accesses") == 9);
  CHECK(uncached.stats().duration("memory_wait") == (sc_time(44, SC_NS) * 8.0 + sc_time(100, SC_NS)).value());
  CHECK_FALSE(uncached.stats().counters().count("dcache_hits"));
}

TEST_CASE("The firmware's records cost only their misses, and nothing without a data cache", "[model][core]") {
  CacheBench cached("records_cached", 1024, true);
  CacheBench uncached("records_uncached", 0, true);
  sc_core::sc_start();

  check_through_cache(cached);  // as table accesses
  // Without one the calibrated cycles hold them: no transaction, no wait.
  CHECK(uncached.stats().counter("table_accesses") == 0);
  CHECK(uncached.stats().duration("memory_wait") == 0);
}
