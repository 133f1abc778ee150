// The data buffer and the write cache in the timed platform.
#include <catch2/catch.hpp>

#include <memory>

#include "platform_support.h"

using namespace ssd;
using namespace ssd::platform;

namespace {
PlatformConfig tiny(const std::vector<std::string>& o) { return test::tiny_platform(o); }
WorkloadFactory writes(std::uint64_t count) {
  stimuli::SyntheticSpec s;
  s.request_bytes = 4096;
  s.count = count;
  s.seed = 3;
  return test::synthetic(s);
}
double mean_write_us(DriveTestbench& d) { return d.metrics().set("host").histogram("write_latency_ns").mean() / 1e3; }
double write_mb_s(DriveTestbench& d) {
  return double(d.metrics().set("host").counter("write_bytes")) / 1e6 / d.host().last_completion().to_seconds();
}
}  // namespace

TEST_CASE("With the write cache a QD1 write completes before its program, without, after", "[model][buffer]") {
  stimuli::HostModelConfig qd1{1, {}, {}};
  DriveTestbench through("through", tiny({}), writes(300), qd1);
  DriveTestbench cached("cached", tiny({"firmware.write_cache=true"}), writes(300), qd1);
  sc_core::sc_start();
  const double t_prog_us = through.config().nand.t_prog[0].to_seconds() * 1e6;  // 200 us on tiny
  INFO("write-through " << mean_write_us(through) << " us, cached " << mean_write_us(cached) << " us");
  CHECK(mean_write_us(through) > t_prog_us);
  CHECK(mean_write_us(cached) < t_prog_us / 4);
  CHECK(cached.oracle().mismatches() == 0);
  CHECK(cached.metrics().set("ftl").counter("flash_pages_programmed") == 300);  // all reached flash
}

TEST_CASE("A full write cache throttles the host to the flash's rate", "[model][buffer]") {
  // Sustained QD16 page writes: the cache only hides latency while it has room; once its 32
  // pages are taken, writes complete as fast as pages are programmed, so throughput matches
  // write-through within a few percent, and the buffer is never over-committed.
  stimuli::HostModelConfig qd16{16, {}, {}};
  DriveTestbench through("through", tiny({"firmware.buffer_slots=32"}), writes(6000), qd16);
  DriveTestbench cached("cached", tiny({"firmware.buffer_slots=32", "firmware.write_cache=true"}), writes(6000), qd16);
  sc_core::sc_start();
  INFO("write-through " << write_mb_s(through) << " MB/s, cached " << write_mb_s(cached) << " MB/s");
  CHECK(write_mb_s(cached) == Approx(write_mb_s(through)).epsilon(0.05));
  CHECK(cached.metrics().set("firmware").counter("buffer_waits") > 0);
  CHECK(cached.metrics().set("firmware").counter("buffer_pages_high_water") == 32);
  CHECK(cached.oracle().mismatches() == 0);
}
