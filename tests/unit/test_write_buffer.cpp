// The write buffer's replacement policies (fw/firmware/write_buffer.h), and the firmware running
// behind it on the functional drive with the integrity oracle.
#include <catch2/catch.hpp>

#include "fw/firmware/write_buffer.h"
#include "fw_test_support.h"

using namespace ssd;
using fw::WriteBuffer;
using fw::WriteBufferPolicy;

namespace {
std::vector<Lpn> evicted_lpns(WriteBuffer& b) {
  std::vector<std::uint32_t> out;
  std::vector<Lpn> lpns;
  while (b.evict(out)) {
  }
  for (std::uint32_t e : out) lpns.push_back(b.entry(e).lpn);
  return lpns;
}
}  // namespace

TEST_CASE("Write buffer policies evict in their order", "[fw][write_buffer]") {
  // Pages 5, 1, 9 (block 0 with 8-page blocks: 5 and 1; block 1: 9), then 5 written again.
  auto fill = [](WriteBuffer& b) {
    b.insert(5);
    b.insert(1);
    b.insert(9);
    b.written(b.find(5));
  };
  WriteBuffer fifo(8, WriteBufferPolicy::kFifo, 8), lru(8, WriteBufferPolicy::kPageLru, 8),
      block(8, WriteBufferPolicy::kBlockLru, 8);
  fill(fifo);
  fill(lru);
  fill(block);
  CHECK(evicted_lpns(fifo) == std::vector<Lpn>{5, 1, 9});   // arrival order; a rewrite keeps its place
  CHECK(evicted_lpns(lru) == std::vector<Lpn>{1, 9, 5});    // the rewrite made 5 the most recent
  CHECK(evicted_lpns(block) == std::vector<Lpn>{9, 1, 5});  // block 0 was used last; its pages in order
  CHECK(block.dirty() == 0);
  CHECK(block.flushing() == 3);
  CHECK(block.free_entries() == 5);
}

TEST_CASE("Write buffer: a newer copy of a page being flushed is the one found, and survives the release",
          "[fw][write_buffer]") {
  WriteBuffer b(4, WriteBufferPolicy::kPageLru, 8);
  const std::uint32_t old = b.insert(3);
  std::vector<std::uint32_t> out;
  REQUIRE(b.evict(out));
  const std::uint32_t fresh = b.insert(3);  // written again while the old copy's program runs
  CHECK(b.find(3) == fresh);
  b.release(old);
  CHECK(b.find(3) == fresh);
  REQUIRE(b.evict(out));
  b.release(fresh);
  CHECK(b.find(3) == WriteBuffer::kNoEntry);
  CHECK(b.free_entries() == 4);
}

TEST_CASE("Write buffer: a flush epoch settles once every page buffered before it is programmed",
          "[fw][write_buffer][durability]") {
  WriteBuffer b(8, WriteBufferPolicy::kFifo, 8);
  const std::uint32_t a = b.insert(1), c = b.insert(2);
  const std::uint32_t first = b.close_epoch();
  CHECK_FALSE(b.settled(first));
  const std::uint32_t later = b.insert(3);  // after the flush: not its business
  b.written(a);                             // absorbed: still a page of the first epoch
  std::vector<std::uint32_t> out;
  REQUIRE(b.evict(out));
  REQUIRE(b.evict(out));
  REQUIRE(out == std::vector<std::uint32_t>{a, c});
  b.release(a);
  CHECK_FALSE(b.settled(first));  // c's program is still in flight
  b.release(c);
  CHECK(b.settled(first));
  const std::uint32_t second = b.close_epoch();
  CHECK_FALSE(b.settled(second));  // page 3 is dirty
  b.take(later);
  b.release(later);
  CHECK(b.settled(second));
  CHECK(b.settled(b.close_epoch()));  // nothing buffered: settled at once
}

TEST_CASE("Write buffer: take hands one dirty page over out of every policy's order", "[fw][write_buffer][durability]") {
  for (const auto policy : {WriteBufferPolicy::kFifo, WriteBufferPolicy::kPageLru, WriteBufferPolicy::kBlockLru}) {
    INFO("policy " << int(policy));
    WriteBuffer b(8, policy, 4);
    for (const Lpn lpn : {0u, 1u, 2u, 5u}) b.insert(lpn);
    b.take(b.find(1));
    CHECK(b.dirty() == 3);
    CHECK(b.flushing() == 1);
    CHECK(evicted_lpns(b) == (policy == WriteBufferPolicy::kBlockLru ? std::vector<Lpn>{0, 2, 5}
                                                                      : std::vector<Lpn>{0, 2, 5}));
  }
  // block_lru: a page of the block being handed over in chunks, and a block's last dirty page.
  WriteBuffer b(8, WriteBufferPolicy::kBlockLru, 4);
  for (const Lpn lpn : {0u, 1u, 2u, 3u, 6u}) b.insert(lpn);
  std::vector<std::uint32_t> out;
  REQUIRE(b.evict(out, 1));  // block 0 starts draining: page 0 out, 1-3 wait in the run
  b.take(b.find(2));
  b.take(b.find(6));         // block 1's only page: the block leaves the order
  out.clear();
  while (b.evict(out)) {
  }
  std::vector<Lpn> rest;
  for (std::uint32_t e : out) rest.push_back(b.entry(e).lpn);
  CHECK(rest == std::vector<Lpn>{1, 3});
  CHECK(b.dirty() == 0);
}

TEST_CASE("The firmware behind a write buffer passes the integrity oracle under every policy", "[fw][write_buffer][oracle]") {
  const WriteBufferPolicy policy =
      GENERATE(WriteBufferPolicy::kFifo, WriteBufferPolicy::kPageLru, WriteBufferPolicy::kBlockLru);
  const std::string ftl = GENERATE(as<std::string>{}, "page_mapping", "dftl", "fast", "last");
  INFO(fw::write_buffer_policy_names()[std::size_t(policy)] << " " << ftl);
  platform::FunctionalDriveConfig c = test::tiny_drive(5);
  c.firmware.ftl = ftl;
  if (ftl == "dftl") c.firmware.ftl_options = fw::FtlOptions({{"segment_planes", "1"}, {"overprovisioning", "0.2"}});
  if (ftl == "fast" || ftl == "last") c.firmware.ftl_options = fw::FtlOptions(std::map<std::string, std::string>{});
  c.firmware.buffer_slots = 32;
  c.firmware.write_buffer = {policy, 96ull * c.geometry.page_bytes, 0.5};
  platform::FunctionalDrive drive(c);
  const Lpn pages = drive.firmware().ftl().logical_pages();
  stimuli::IntegrityOracle oracle(pages, c.geometry.page_bytes);
  // Unaligned mixed requests over an eighth of the drive (rewrites hit the buffer), then over all
  // of it (GC), twice the capacity in all.
  test::RandomMixed hot(drive.capacity_sectors() / 8, pages / 2, 0.3, 24, 3);
  platform::replay_functional(drive, hot, oracle, 8);
  test::RandomMixed all(drive.capacity_sectors(), 2 * pages, 0.3, 24, 4);
  platform::replay_functional(drive, all, oracle, 8);
  auto& m = drive.metrics().set("firmware");
  INFO(oracle.first_mismatch());
  CHECK(oracle.mismatches() == 0);
  CHECK(platform::verify_drive(drive, oracle) == "");
  CHECK(m.counter("write_buffer_absorbed_writes") > 0);
  CHECK(m.counter("write_buffer_read_hits") > 0);
  CHECK(m.counter("write_buffer_evictions") > 0);
  CHECK(m.counter("write_buffer_pages_high_water") <= 96);
  CHECK(drive.metrics().set("ftl").counter("host_pages_written") == m.counter("write_buffer_evictions"));
}
