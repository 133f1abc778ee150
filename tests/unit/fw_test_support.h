// Shared setup for firmware tests on the functional platform.
#pragma once

#include <catch2/catch.hpp>
#include <random>

#include "platforms/functional/functional_drive.h"
#include "stimuli/host_request.h"
#include "stimuli/sequential_fill.h"

namespace ssd::test {

// A small flash for unit tests: `channels` x `ways` dies (one a way) of 2 planes x 8 blocks x 4
// pages of 4 KiB.
inline FlashGeometry small_flash(std::uint32_t channels, std::uint32_t ways) {
  FlashGeometry g;
  g.channels = channels;
  g.ways = ways;
  g.dies_per_way = 1;
  g.planes_per_die = 2;
  g.blocks_per_plane = 8;
  g.pages_per_block = 4;
  g.page_bytes = 4096;
  return g;
}

// A tiny drive: 2 channels x 2 ways x 2 planes x 32 blocks x 16 pages of 4 KiB (16 MiB raw).
inline platform::FunctionalDriveConfig tiny_drive(std::uint64_t completion_seed = 0) {
  platform::FunctionalDriveConfig c;
  c.geometry.channels = 2;
  c.geometry.ways = 2;
  c.geometry.planes_per_die = 2;
  c.geometry.blocks_per_plane = 32;
  c.geometry.pages_per_block = 16;
  c.geometry.page_bytes = 4096;
  c.firmware.ftl_options = fw::FtlOptions(std::map<std::string, std::string>{{"overprovisioning", "0.25"}, {"gc_threshold_blocks", "3"}});
  c.completion_seed = completion_seed;
  return c;
}

// Random mixed workload with unaligned sizes and offsets (so partial pages are common).
class RandomMixed : public stimuli::Workload {
 public:
  RandomMixed(std::uint64_t capacity_sectors, std::uint64_t count, double read_share, std::uint32_t max_sectors,
              std::uint64_t seed)
      : cap_(capacity_sectors), left_(count), read_share_(read_share), max_(max_sectors), rng_(seed) {}
  bool next(stimuli::HostRequest& r) override {
    if (left_ == 0) return false;
    --left_;
    r.sectors = 1 + static_cast<std::uint32_t>(rng_() % max_);
    r.lba = rng_() % (cap_ - r.sectors + 1);
    r.op = stimuli::HostRequest::read_or_write(double(rng_() % 1000000) / 1e6 >= read_share_);
    return true;
  }
  std::string describe() const override { return "random mixed"; }

 private:
  std::uint64_t cap_, left_;
  double read_share_;
  std::uint32_t max_;
  std::mt19937_64 rng_;
};

using SequentialFill = stimuli::SequentialFill;

// A workload of one given request.
class OneRequest : public stimuli::Workload {
 public:
  explicit OneRequest(const stimuli::HostRequest& r) : r_(r) {}
  bool next(stimuli::HostRequest& out) override {
    if (done_) return false;
    out = r_;
    done_ = true;
    return true;
  }
  std::string describe() const override { return "one request"; }

 private:
  stimuli::HostRequest r_;
  bool done_ = false;
};

// After a replay: every read returned the last data written, the mapping agrees with the flash,
// and the FTL counted exactly the programs and erases the array executed.
inline void check_drive(platform::FunctionalDrive& drive, const stimuli::IntegrityOracle& oracle) {
  INFO(oracle.first_mismatch());
  CHECK(oracle.mismatches() == 0);
  CHECK(platform::verify_drive(drive, oracle) == "");
  auto& m = drive.metrics().set("ftl");
  CHECK(m.counter("flash_pages_programmed") == drive.array().pages_programmed());
  CHECK(m.counter("erases") == drive.array().blocks_erased());
}

}  // namespace ssd::test
