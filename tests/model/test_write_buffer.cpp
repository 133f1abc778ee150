// The data buffer and the DRAM write buffer in the timed platform.
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
std::uint64_t fw_counter(DriveTestbench& d, const char* name) { return d.metrics().set("firmware").counter(name); }
}  // namespace

TEST_CASE("With the write buffer a QD1 write completes before its program, without, after", "[model][buffer]") {
  stimuli::HostModelConfig qd1{1, {}, {}, {}};
  DriveTestbench through("through", tiny({"firmware.write_buffer=off"}), writes(300), qd1);
  DriveTestbench buffered("buffered", tiny({"firmware.write_buffer=block_lru"}), writes(300), qd1);
  sc_core::sc_start();
  const double t_prog_us = through.config().nand.t_prog[0].to_seconds() * 1e6;  // 200 us on tiny
  INFO("write-through " << mean_write_us(through) << " us, buffered " << mean_write_us(buffered) << " us");
  CHECK(mean_write_us(through) > t_prog_us);
  CHECK(mean_write_us(buffered) < t_prog_us / 4);
  CHECK(buffered.oracle().mismatches() == 0);
  CHECK(through.metrics().set("ftl").counter("flash_pages_programmed") == 300);  // all reached flash
  // 300 pages fit the buffer (1,024 pages, evicting above 768): none had to leave it.
  CHECK(fw_counter(buffered, "write_buffer_evictions") == 0);
  CHECK(buffered.metrics().set("ftl").counter("flash_pages_programmed") == 0);
}

TEST_CASE("A full write buffer throttles the host to the flash's rate", "[model][buffer]") {
  // Sustained QD16 page writes over the whole drive: the buffer (64 pages) only hides latency
  // while it has room; once full, a write completes when an eviction's program frees an entry,
  // so the host writes as fast as the flash programs, times the pages the buffer absorbed. A
  // 1 GHz core keeps the firmware out of the way (tiny's 200 MHz core, at its calibrated costs,
  // would bound both runs).
  stimuli::HostModelConfig qd16{16, {}, {}, {}};
  DriveTestbench through("through", tiny({"core.clock_mhz=1000", "firmware.buffer_slots=32", "firmware.write_buffer=off"}),
                         writes(6000), qd16);
  DriveTestbench buffered("buffered",
                          tiny({"core.clock_mhz=1000", "firmware.buffer_slots=32", "firmware.write_buffer=page_lru",
                                "firmware.write_buffer_dram_share=0.00390625"}),  // 64 pages of 4 KiB
                          writes(6000), qd16);
  sc_core::sc_start();
  const double written = double(fw_counter(buffered, "host_pages_written"));
  const double to_flash = double(buffered.metrics().set("ftl").counter("host_pages_written"));
  INFO("write-through " << write_mb_s(through) << " MB/s, buffered " << write_mb_s(buffered) << " MB/s, "
                        << written << " pages written, " << to_flash << " evicted");
  CHECK(write_mb_s(buffered) == Approx(write_mb_s(through) * written / to_flash).epsilon(0.05));
  CHECK(fw_counter(buffered, "write_buffer_waits") > 0);
  CHECK(fw_counter(buffered, "write_buffer_pages_high_water") == 64);
  CHECK(buffered.oracle().mismatches() == 0);
}
