// Unit tests of the demand FTLs' mapping cache (runs of (first LPN, first SPN, length), CAST
// Figures 5 and 6) and of the segment space (SPN <-> PPN striping, allocation, victim choice;
// the striped layout and the plane-blocks layout of page mapping).
// Every expectation is derived from the documented behaviour or the paper, not from a run.
#include <catch2/catch.hpp>

#include <set>
#include <utility>
#include <vector>

#include "fw_test_support.h"
#include "common/metrics.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/ftl/demand/mapping_cache.h"
#include "hw/nand/nand_array.h"
#include "platforms/functional/functional_hal.h"

using namespace ssd;
using fw::kNoSpn;
using fw::Spn;

namespace {

// 2 channels x 2 ways x 1 die x 2 planes x 8 blocks x 4 pages: 8 planes, 64 blocks, 256 pages.
struct CacheRig {
  hw::NandArray array{test::small_flash(2, 2)};
  platform::FunctionalHal hal{array, 1u << 20, 64u << 20};
  fw::FirmwareCosts costs{};
  MetricSet metrics;
  fw::MappingCache cache;
  explicit CacheRig(const fw::MappingCacheConfig& config) : cache(hal, costs, config, metrics) {}
};

fw::MappingCacheConfig config(std::uint64_t budget_bytes, std::uint32_t entry_bits, std::uint32_t max_run,
                              std::uint32_t boundary, fw::Replacement replacement = fw::Replacement::SegmentedLru) {
  fw::MappingCacheConfig c;
  c.logical_pages = 1 << 20;
  c.budget_bytes = budget_bytes;
  c.entry_bits = entry_bits;
  c.max_run = max_run;
  c.boundary = boundary;
  c.replacement = replacement;
  return c;
}

// A CAMT row as the paper draws it.
struct CamtRow {
  Lpn lpn;
  Spn spn;
  std::uint32_t length;
};

// The cache holds exactly `runs`: every page of [lo, hi] maps as the runs say (or is absent),
// pages of runs outside that window map too, and the entry and page counts agree.
void check_runs(const fw::MappingCache& cache, const std::vector<CamtRow>& runs, Lpn lo, Lpn hi) {
  std::uint64_t pages = 0;
  for (const CamtRow& r : runs) {
    pages += r.length;
    for (std::uint32_t i = 0; i < r.length; ++i) {
      INFO("page " << r.lpn + i);
      CHECK(cache.peek(r.lpn + i) == r.spn + i);
    }
  }
  for (Lpn lpn = lo; lpn <= hi; ++lpn) {
    Spn expected = kNoSpn;
    for (const CamtRow& r : runs)
      if (lpn >= r.lpn && lpn < r.lpn + r.length) expected = r.spn + (lpn - r.lpn);
    INFO("page " << lpn);
    CHECK(cache.peek(lpn) == expected);
  }
  CHECK(cache.entries() == runs.size());
  CHECK(cache.covered_pages() == pages);
}

using Visits = std::vector<std::pair<Lpn, Spn>>;

Visits clean(fw::MappingCache& cache, Lpn first, Lpn count) {
  Visits v;
  cache.clean_range(first, count, [&](Lpn lpn, Spn spn) { v.emplace_back(lpn, spn); });
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// MappingCache

TEST_CASE("Mapping cache capacity is the byte budget over the entry size", "[ftl][mapping_cache]") {
  // DFTL: 8-byte entries (LPN + PPN).
  CHECK(CacheRig(config(4096, 64, 1, 1)).cache.capacity() == 4096 * 8 / 64);
  // CAST: a 1-byte length makes 9-byte entries, 8/9 of DFTL's count; a 4-bit length 16/17.
  CHECK(CacheRig(config(4096, 72, 256, 1024)).cache.capacity() == 4096 * 8 / 72);
  CHECK(CacheRig(config(4096, 72, 256, 1024)).cache.capacity() == (4096 / 8) * 8 / 9);
  CHECK(CacheRig(config(4096, 68, 16, 1024)).cache.capacity() == 4096 * 8 / 68);
  CHECK(CacheRig(config(4096, 68, 16, 1024)).cache.capacity() == (4096 / 8) * 16 / 17);

  // Fewer than 4 entries is refused; exactly 4 is accepted.
  CHECK_THROWS(CacheRig(config(0, 64, 1, 1)));
  CHECK_THROWS(CacheRig(config(31, 64, 1, 1)));  // 3 entries
  CHECK(CacheRig(config(32, 64, 1, 1)).cache.capacity() == 4);
  CHECK_THROWS(CacheRig(config(35, 72, 256, 1024)));  // 280 / 72 = 3
  CHECK(CacheRig(config(36, 72, 256, 1024)).cache.capacity() == 4);
  CHECK_THROWS(CacheRig(config(33, 68, 16, 1024)));  // 264 / 68 = 3
  CHECK(CacheRig(config(34, 68, 16, 1024)).cache.capacity() == 4);
}

TEST_CASE("CAST Figure 6: a write splits the runs it covers and forms one new run", "[ftl][mapping_cache]") {
  struct Scenario {
    const char* figure;
    Lpn start;
    std::uint32_t pages;
    std::vector<CamtRow> after;
  };
  // Rows as in Figure 6. The figure's last row alternates between (200, 312, 4) and
  // (114, 28, 8), another entry of Figure 3's table; only (200, 312, 4) is set up here.
  const std::vector<Scenario> scenarios = {
      {"a) Write(8,3)", 8, 3, {{8, 570, 3}, {15, 200, 1}, {200, 312, 4}}},
      {"b) Write(8,2)", 8, 2, {{8, 570, 2}, {10, 322, 1}, {15, 200, 1}, {200, 312, 4}}},
      // The figure keeps a stale (15, 200, 1) row although the write covered page 15: the
      // correct result is 15 -> 577, inside the new run.
      {"c) Write(8,8)", 8, 8, {{8, 570, 8}, {200, 312, 4}}},
      {"d) Write(9,1)", 9, 1, {{8, 320, 1}, {9, 570, 1}, {10, 322, 1}, {15, 200, 1}, {200, 312, 4}}},
      {"e) Write(9,2)", 9, 2, {{8, 320, 1}, {9, 570, 2}, {15, 200, 1}, {200, 312, 4}}},
      // Same stale (15, 200, 1) row in the figure; correctly 15 -> 576.
      {"f) Write(9,8)", 9, 8, {{8, 320, 1}, {9, 570, 8}, {200, 312, 4}}},
      {"g) Write(6,3)", 6, 3, {{6, 570, 3}, {9, 321, 2}, {15, 200, 1}, {200, 312, 4}}},
      {"h) Write(6,5)", 6, 5, {{6, 570, 5}, {15, 200, 1}, {200, 312, 4}}},
      {"i) Write(6,8)", 6, 8, {{6, 570, 8}, {15, 200, 1}, {200, 312, 4}}},
  };
  for (const Scenario& s : scenarios) {
    INFO("Figure 6 " << s.figure);
    // CAST geometry: 8-bit lengths, runs within 1024-entry translation pages.
    CacheRig rig(config(64 * 9, 72, 256, 1024));
    fw::MappingCache& cache = rig.cache;
    // Initial table, page by page from clean translation-page loads.
    for (std::uint32_t i = 0; i < 3; ++i) cache.set(8 + i, 320 + i, false);
    cache.set(15, 200, false);
    for (std::uint32_t i = 0; i < 4; ++i) cache.set(200 + i, 312 + i, false);
    check_runs(cache, {{8, 320, 3}, {15, 200, 1}, {200, 312, 4}}, 0, 20);

    for (std::uint32_t i = 0; i < s.pages; ++i) cache.set(s.start + i, 570 + i, true);
    check_runs(cache, s.after, 0, 20);
    // The written pages are newer than their translation page; the untouched rest is not.
    for (Lpn lpn = 0; lpn <= 20; ++lpn) {
      INFO("page " << lpn);
      const bool written = lpn >= s.start && lpn < s.start + s.pages;
      CHECK(cache.peek_dirty(lpn) == written);
    }
    CHECK_FALSE(cache.peek_dirty(200));
    CHECK(rig.metrics.counter("cmt_evictions") == 0);
  }
}

TEST_CASE("CAST Figure 5: pages loaded contiguously on flash become one entry", "[ftl][mapping_cache]") {
  CacheRig rig(config(64 * 9, 72, 256, 1024));
  fw::MappingCache& cache = rig.cache;
  for (std::uint32_t i = 0; i < 3; ++i) cache.set(8 + i, 320 + i, false);

  SECTION("b) Read(8,8): pages 11-15 come from the translation page at 516-520") {
    for (std::uint32_t i = 0; i < 5; ++i) cache.set(11 + i, 516 + i, false);
    // 11 follows 10 logically but not physically (323 != 516): a second entry.
    check_runs(cache, {{8, 320, 3}, {11, 516, 5}}, 0, 20);
  }
  SECTION("c) Read(6,4): pages 6-7 come from 86-87") {
    for (std::uint32_t i = 0; i < 2; ++i) cache.set(6 + i, 86 + i, false);
    check_runs(cache, {{6, 86, 2}, {8, 320, 3}}, 0, 20);
  }
  SECTION("complete miss Read(100,2), contiguous on flash") {
    for (std::uint32_t i = 0; i < 2; ++i) cache.set(100 + i, 40 + i, false);
    check_runs(cache, {{8, 320, 3}, {100, 40, 2}}, 0, 110);
  }
  SECTION("a loaded page that continues a run both ways joins it") {
    cache.set(11, 323, false);
    cache.set(7, 319, false);
    check_runs(cache, {{7, 319, 5}}, 0, 20);
  }
  SECTION("a page filling the gap between two runs joins all three") {
    cache.set(12, 324, false);
    cache.set(13, 325, false);
    cache.set(11, 323, false);
    check_runs(cache, {{8, 320, 6}}, 0, 20);
  }
  SECTION("pages loaded in descending order merge as well") {
    for (std::uint32_t i = 5; i-- > 0;) cache.set(100 + i, 40 + i, false);
    check_runs(cache, {{8, 320, 3}, {100, 40, 5}}, 0, 110);
  }
  for (Lpn lpn = 0; lpn <= 110; ++lpn) CHECK_FALSE(cache.peek_dirty(lpn));  // reads leave everything clean
}

TEST_CASE("Runs never exceed max_run nor cross a translation page boundary", "[ftl][mapping_cache]") {
  SECTION("max_run 4: 10 contiguous pages take ceil(10 / 4) entries") {
    CacheRig rig(config(64 * 9, 72, 4, 1024));
    for (std::uint32_t i = 0; i < 10; ++i) rig.cache.set(i, 100 + i, true);
    CHECK(rig.cache.entries() == (10 + 4 - 1) / 4);
    CHECK(rig.cache.covered_pages() == 10);
    for (std::uint32_t i = 0; i < 10; ++i) CHECK(rig.cache.peek(i) == 100 + i);
  }
  SECTION("4-bit lengths: 16 pages fit one entry, the 17th starts another") {
    CacheRig rig(config(64 * 9, 68, 16, 1024));
    for (std::uint32_t i = 0; i < 16; ++i) rig.cache.set(i, 100 + i, true);
    CHECK(rig.cache.entries() == 1);
    rig.cache.set(16, 116, true);
    CHECK(rig.cache.entries() == 2);
    CHECK(rig.cache.covered_pages() == 17);
  }
  SECTION("boundary 8: a write over pages 4-11 is split at page 8") {
    CacheRig rig(config(64 * 9, 72, 256, 8));
    for (std::uint32_t i = 4; i < 12; ++i) rig.cache.set(i, 100 + i, true);
    CHECK(rig.cache.entries() == 2);
    CHECK(rig.cache.covered_pages() == 8);
    // Each half belongs to its own translation page.
    CHECK(clean(rig.cache, 8, 8) == Visits{{8, 108}, {9, 109}, {10, 110}, {11, 111}});
    CHECK(clean(rig.cache, 0, 8) == Visits{{4, 104}, {5, 105}, {6, 106}, {7, 107}});
  }
  SECTION("boundary 8: loading page 7 before page 8 does not join them either") {
    CacheRig rig(config(64 * 9, 72, 256, 8));
    rig.cache.set(8, 108, false);
    rig.cache.set(7, 107, false);  // would merge rightwards across the boundary
    rig.cache.set(6, 106, false);
    check_runs(rig.cache, {{6, 106, 2}, {8, 108, 1}}, 0, 20);
  }
  SECTION("DFTL, max_run 1: every page is its own entry") {
    CacheRig rig(config(64 * 8, 64, 1, 1));
    for (std::uint32_t i = 0; i < 10; ++i) rig.cache.set(i, 100 + i, true);
    CHECK(rig.cache.entries() == 10);
    CHECK(rig.cache.covered_pages() == 10);
    for (std::uint32_t i = 0; i < 10; ++i) CHECK(rig.cache.peek(i) == 100 + i);
  }
}

TEST_CASE("Plain LRU evicts the least recently used entry", "[ftl][mapping_cache]") {
  CacheRig rig(config(32, 64, 1, 1, fw::Replacement::Lru));  // 4 entries
  fw::MappingCache& cache = rig.cache;
  REQUIRE(cache.capacity() == 4);
  for (Lpn lpn : {0, 10, 20, 30}) cache.set(lpn, 1000 + lpn, false);
  CHECK(cache.lookup(0) == 1000);  // recency now (MRU first): 0 30 20 10
  cache.set(40, 1040, false);      // evicts 10
  CHECK(cache.peek(10) == kNoSpn);
  cache.set(50, 1050, false);  // evicts 20
  CHECK(cache.peek(20) == kNoSpn);
  CHECK(cache.lookup(30) == 1030);  // 30 50 40 0
  cache.set(60, 1060, false);       // evicts 0
  check_runs(cache, {{30, 1030, 1}, {40, 1040, 1}, {50, 1050, 1}, {60, 1060, 1}}, 0, 70);
  CHECK(rig.metrics.counter("cmt_evictions") == 3);
  CHECK(rig.metrics.counter("cmt_dirty_evictions") == 0);
}

TEST_CASE("Segmented LRU keeps a hit entry through a stream of single-use entries", "[ftl][mapping_cache]") {
  const auto replacement = GENERATE(fw::Replacement::SegmentedLru, fw::Replacement::Lru);
  CacheRig rig(config(64, 64, 1, 1, replacement));  // 8 entries, protected share 0.5
  fw::MappingCache& cache = rig.cache;
  REQUIRE(cache.capacity() == 8);
  for (Lpn lpn = 0; lpn < 80; lpn += 10) cache.set(lpn, 1000 + lpn, false);
  CHECK(cache.lookup(0) == 1000);
  // A scan of 8 entries used once: enough to flush the whole cache under plain LRU.
  for (Lpn lpn = 100; lpn < 180; lpn += 10) cache.set(lpn, 1000 + lpn, false);

  for (Lpn lpn = 10; lpn < 80; lpn += 10) CHECK(cache.peek(lpn) == kNoSpn);  // never hit: gone either way
  CHECK(rig.metrics.counter("cmt_evictions") == 8);
  CHECK(cache.entries() == 8);
  if (replacement == fw::Replacement::SegmentedLru) {
    // The protected entry survives; the oldest probationary newcomer went instead.
    CHECK(cache.peek(0) == 1000);
    CHECK(cache.peek(100) == kNoSpn);
  } else {
    CHECK(cache.peek(0) == kNoSpn);
    CHECK(cache.peek(100) == 1100);
  }
}

TEST_CASE("A dirty victim is written back through the handler before it leaves", "[ftl][mapping_cache]") {
  CacheRig rig(config(32, 64, 4, 8, fw::Replacement::Lru));  // 4 entries, 8-page translation pages
  fw::MappingCache& cache = rig.cache;
  std::vector<Lpn> handler_calls;
  Visits written_back;
  cache.on_dirty_eviction = [&](Lpn first) {
    handler_calls.push_back(first);
    // Still cached and dirty while the handler runs.
    CHECK(cache.peek(first) != kNoSpn);
    CHECK(cache.peek_dirty(first));
    cache.clean_range(first / 8 * 8, 8, [&](Lpn lpn, Spn spn) { written_back.emplace_back(lpn, spn); });
  };
  cache.set(0, 100, true);
  cache.set(1, 101, true);  // one dirty run (0, 100, 2), the least recently used
  for (Lpn lpn : {10, 20, 30}) cache.set(lpn, 1000 + lpn, false);
  REQUIRE(cache.entries() == 4);

  cache.set(40, 1040, false);
  CHECK(handler_calls == std::vector<Lpn>{0});
  CHECK(written_back == Visits{{0, 100}, {1, 101}});
  CHECK(cache.peek(0) == kNoSpn);
  CHECK(cache.peek(1) == kNoSpn);
  CHECK(rig.metrics.counter("cmt_evictions") == 1);
  CHECK(rig.metrics.counter("cmt_dirty_evictions") == 1);

  cache.set(50, 1050, false);  // evicts the clean entry of page 10: no write-back
  CHECK(cache.peek(10) == kNoSpn);
  CHECK(handler_calls.size() == 1);
  CHECK(rig.metrics.counter("cmt_evictions") == 2);
  CHECK(rig.metrics.counter("cmt_dirty_evictions") == 1);
}

TEST_CASE("clean_range visits exactly the dirty pages of the range and marks them clean", "[ftl][mapping_cache]") {
  CacheRig rig(config(64 * 9, 72, 256, 8));
  fw::MappingCache& cache = rig.cache;
  cache.set(3, 103, true);  // previous translation page
  cache.set(9, 109, true);
  cache.set(10, 110, true);
  cache.set(12, 500, false);  // clean, not contiguous with anything
  cache.set(14, 114, true);
  cache.set(15, 115, true);
  cache.set(16, 116, true);  // next translation page, physically contiguous with 15

  CHECK(clean(cache, 8, 8) == Visits{{9, 109}, {10, 110}, {14, 114}, {15, 115}});
  for (Lpn lpn : {9, 10, 14, 15}) CHECK_FALSE(cache.peek_dirty(lpn));
  CHECK(cache.peek_dirty(3));
  CHECK(cache.peek_dirty(16));
  // Mappings are unchanged, only their state.
  check_runs(cache, {{3, 103, 1}, {9, 109, 2}, {12, 500, 1}, {14, 114, 2}, {16, 116, 1}}, 0, 20);
  CHECK(clean(cache, 8, 8).empty());
}

// ---------------------------------------------------------------------------------------------
// SegmentSpace

namespace {

struct SpaceRig {
  hw::NandArray array{test::small_flash(2, 2)};
  platform::FunctionalHal hal{array, 1u << 20, 64u << 20};
  fw::FirmwareCosts costs{};
  fw::SegmentSpace space;
  SpaceRig(std::uint32_t segment_planes, std::vector<std::uint8_t> kinds, std::uint32_t reserve)
      : space(hal, costs, segment_planes, std::move(kinds), reserve) {}
  SpaceRig(fw::SegmentSpace::PlaneBlocks layout, std::uint32_t reserve) : space(hal, costs, layout, reserve) {}
};

// Allocates a whole segment on `frontier` at time `now`, all pages valid; returns the segment.
std::uint32_t fill_segment(fw::SegmentSpace& space, std::uint32_t frontier, std::uint64_t now) {
  std::uint32_t segment = fw::SegmentSpace::kNoSegment;
  for (std::uint32_t i = 0; i < space.segment_pages(); ++i) {
    const Spn spn = space.allocate(frontier, true, now);
    REQUIRE(spn != kNoSpn);
    segment = space.segment_of(spn);
    space.mark_valid(spn);
  }
  return segment;
}

// Invalidates pages [from, from + count) of `segment` at time `now`.
void invalidate_pages(fw::SegmentSpace& space, std::uint32_t segment, std::uint32_t from, std::uint32_t count,
                      std::uint64_t now) {
  for (std::uint32_t i = from; i < from + count; ++i) space.invalidate(space.first_spn(segment) + i, now);
}

}  // namespace

TEST_CASE("Segment page numbers map one to one onto physical pages", "[ftl][segment_space]") {
  const FlashGeometry g = test::small_flash(2, 2);
  const std::uint32_t width = GENERATE(8u, 2u, 1u);
  INFO("segment_planes = " << width);
  SpaceRig rig(width, {0}, 0);
  const fw::SegmentSpace& space = rig.space;
  CHECK(space.segments() == g.total_blocks() / width);
  CHECK(space.segment_pages() == width * g.pages_per_block);
  REQUIRE(space.total_pages() == g.total_pages());

  std::vector<bool> hit(g.total_pages(), false);
  for (Spn spn = 0; spn < space.total_pages(); ++spn) {
    const Ppn ppn = space.to_ppn(spn);
    REQUIRE(ppn < g.total_pages());
    CHECK_FALSE(hit[ppn]);
    hit[ppn] = true;
    CHECK(space.to_spn(ppn) == spn);
  }
  for (Ppn ppn = 0; ppn < g.total_pages(); ++ppn) CHECK(space.to_ppn(space.to_spn(ppn)) == ppn);

  std::set<BlockId> all_blocks;
  for (std::uint32_t s = 0; s < space.segments(); ++s) {
    const std::vector<BlockId> blocks = space.blocks(s);
    REQUIRE(blocks.size() == width);
    const std::set<BlockId> distinct(blocks.begin(), blocks.end());
    CHECK(distinct.size() == width);
    for (BlockId b : blocks) CHECK(g.block_in_plane(b) == g.block_in_plane(blocks[0]));
    all_blocks.insert(blocks.begin(), blocks.end());
    // The segment's pages live in exactly its blocks.
    for (Spn spn = space.first_spn(s); spn < space.first_spn(s) + space.segment_pages(); ++spn)
      CHECK(distinct.count(g.block_of(space.to_ppn(spn))) == 1);
  }
  CHECK(all_blocks.size() == g.total_blocks());  // the segments partition the blocks

  if (width == 2) {
    // Members of a plane group are taken channel first: the two sit on different channels.
    for (std::uint32_t s = 0; s < space.segments(); ++s)
      CHECK(g.decompose(space.to_ppn(space.first_spn(s))).channel !=
            g.decompose(space.to_ppn(space.first_spn(s) + 1)).channel);
  }
}

TEST_CASE("A segment over all planes stripes consecutive pages channel first", "[ftl][segment_space]") {
  const FlashGeometry g = test::small_flash(2, 2);
  const std::uint32_t width = g.total_planes();
  SpaceRig rig(width, {0}, 0);
  const fw::SegmentSpace& space = rig.space;
  for (std::uint32_t s = 0; s < space.segments(); ++s) {
    const PhysAddr first = g.decompose(space.to_ppn(space.first_spn(s)));
    for (std::uint32_t k = 0; k < space.segment_pages(); ++k) {
      INFO("segment " << s << " page " << k);
      const PhysAddr a = g.decompose(space.to_ppn(space.first_spn(s) + k));
      // Page 0 of every member, then page 1, ...; members vary channel, then way, then plane.
      CHECK(a.channel == k % g.channels);
      CHECK(a.way == (k / g.channels) % g.ways);
      CHECK(a.plane == (k / (g.channels * g.ways)) % g.planes_per_die);
      CHECK(a.page == k / width);
      CHECK(a.block == first.block);
    }
  }
}

TEST_CASE("Frontiers allocate consecutive pages and respect the reserve", "[ftl][segment_space]") {
  // 8 segments of 32 pages; two segments reserved for privileged (e.g. translation) writes.
  SpaceRig rig(8, {0, 1}, 2);
  fw::SegmentSpace& space = rig.space;
  REQUIRE(space.segments() == 8);
  REQUIRE(space.segment_pages() == 32);
  CHECK(space.free_segments() == 8);
  CHECK(space.frontier_generation(0) == 0);

  // Frontier 0 (kind 0, not privileged) may open segments while more than 2 are free: 6.
  std::uint64_t pages = 0;
  Spn previous = kNoSpn;
  for (;;) {
    const Spn spn = space.allocate(0, false, pages);
    if (spn == kNoSpn) break;
    const std::uint32_t segment = space.segment_of(spn);
    if (pages % 32 == 0) {
      CHECK(spn == space.first_spn(segment));  // a fresh segment, from its first page
      CHECK(space.frontier_generation(0) == pages / 32 + 1);
      CHECK(space.free_segments() == 8 - (pages / 32 + 1));
    } else {
      CHECK(spn == previous + 1);
    }
    CHECK(space.kind(segment) == 0);
    CHECK(space.state(segment) == (pages % 32 == 31 ? fw::SegmentState::Closed : fw::SegmentState::Open));
    previous = spn;
    ++pages;
  }
  CHECK(pages == 6 * 32);
  CHECK(space.frontier_generation(0) == 6);
  CHECK(space.free_segments() == 2);
  CHECK_FALSE(space.can_allocate(0, false));
  CHECK(space.can_allocate(0, true));
  CHECK(space.allocate(1, false, 0) == kNoSpn);  // frontier 1 has no segment and may not take one

  // Privileged allocations take the last two segments, then nothing is left.
  const std::uint32_t a = fill_segment(space, 1, 1000);
  CHECK(space.kind(a) == 1);
  CHECK(space.free_segments() == 1);
  const std::uint32_t b = fill_segment(space, 1, 1000);
  CHECK(b != a);
  CHECK(space.free_segments() == 0);
  CHECK(space.frontier_generation(1) == 2);
  CHECK_FALSE(space.can_allocate(1, true));
  CHECK(space.allocate(1, true, 1000) == kNoSpn);
}

TEST_CASE("Greedy reclaims the closed segment with the fewest valid pages", "[ftl][segment_space]") {
  SpaceRig rig(8, {0}, 0);
  fw::SegmentSpace& space = rig.space;
  CHECK(space.choose_victim(fw::VictimPolicy::Greedy, 0) == fw::SegmentSpace::kNoSegment);  // nothing closed

  const std::uint32_t s10 = fill_segment(space, 0, 0), s20 = fill_segment(space, 0, 0), s5 = fill_segment(space, 0, 0);
  invalidate_pages(space, s10, 0, 10, 1);
  invalidate_pages(space, s20, 0, 20, 1);
  invalidate_pages(space, s5, 0, 5, 1);
  // An open segment with no valid page at all, and free segments, are not candidates.
  const Spn open_page = space.allocate(0, false, 2);
  const std::uint32_t open = space.segment_of(open_page);
  REQUIRE(space.state(open) == fw::SegmentState::Open);
  REQUIRE(space.valid_count(open) == 0);
  CHECK(space.choose_victim(fw::VictimPolicy::Greedy, 3) == s20);

  // Reclaiming: out of the candidates while its pages move, then free again.
  const std::uint32_t free_before = space.free_segments();
  space.begin_reclaim(s20);
  CHECK(space.state(s20) == fw::SegmentState::Reclaiming);
  CHECK(space.choose_victim(fw::VictimPolicy::Greedy, 3) == s10);
  CHECK_THROWS(space.finish_reclaim(s20));  // 12 pages still valid
  invalidate_pages(space, s20, 20, 12, 4);
  space.finish_reclaim(s20);
  CHECK(space.state(s20) == fw::SegmentState::Free);
  CHECK(space.free_segments() == free_before + 1);
  CHECK(space.erase_count(s20) == 1);
  CHECK(space.erase_count(s10) == 0);
  CHECK(space.choose_victim(fw::VictimPolicy::Greedy, 5) == s10);
}

TEST_CASE("Cost-benefit prefers older segments and empty ones above all", "[ftl][segment_space]") {
  SpaceRig rig(8, {0}, 0);
  fw::SegmentSpace& space = rig.space;
  const std::uint32_t first = fill_segment(space, 0, 0), second = fill_segment(space, 0, 0);
  // Both half valid; the one last changed earlier is older and cheaper per unit of benefit.
  const bool first_older = GENERATE(true, false);
  invalidate_pages(space, first, 0, 16, first_older ? 10 : 50);
  invalidate_pages(space, second, 0, 16, first_older ? 50 : 10);
  const std::uint32_t older = first_older ? first : second;
  CHECK(space.choose_victim(fw::VictimPolicy::CostBenefit, 1000) == older);

  // A segment with nothing valid wins even if it changed just now and the others are ancient.
  const std::uint32_t empty = fill_segment(space, 0, 999);
  invalidate_pages(space, empty, 0, 32, 1000000);
  invalidate_pages(space, older, 16, 15, 0);  // 1 valid page left, changed long ago
  CHECK(space.choose_victim(fw::VictimPolicy::CostBenefit, 1000000) == empty);

  const std::uint32_t free_before = space.free_segments();
  space.begin_reclaim(empty);
  space.finish_reclaim(empty);
  CHECK(space.free_segments() == free_before + 1);
  CHECK(space.erase_count(empty) == 1);
  CHECK(space.choose_victim(fw::VictimPolicy::CostBenefit, 1000000) == older);
}

// ---------------------------------------------------------------------------------------------
// SegmentSpace, PlaneBlocks layout (page mapping): one block per segment, groups in physical
// plane order, frontiers pinned to their plane, the reserve counted per plane.

TEST_CASE("Plane blocks: a segment is its block and an SPN is its PPN", "[ftl][segment_space]") {
  SpaceRig rig(fw::SegmentSpace::PlaneBlocks{2}, 1);
  const FlashGeometry g = test::small_flash(2, 2);
  const fw::SegmentSpace& space = rig.space;
  REQUIRE(space.segments() == g.total_blocks());
  REQUIRE(space.groups() == g.total_planes());
  CHECK(space.segment_planes() == 1);
  for (Spn spn = 0; spn < space.total_pages(); ++spn) {
    CHECK(space.to_ppn(spn) == spn);
    CHECK(space.to_spn(spn) == spn);
  }
  for (std::uint32_t s = 0; s < space.segments(); ++s) {
    CHECK(space.blocks(s) == std::vector<BlockId>{s});
    CHECK(space.group_of(s) == g.plane_of_block(s));
  }
  // Striping order stays channel first: the first two planes sit on different channels.
  CHECK(g.decompose(g.first_page(g.block_at(space.stripe_plane(0), 0))).channel !=
        g.decompose(g.first_page(g.block_at(space.stripe_plane(1), 0))).channel);
}

TEST_CASE("Plane blocks: frontiers stay on their plane, the reserve is per plane", "[ftl][segment_space]") {
  SpaceRig rig(fw::SegmentSpace::PlaneBlocks{2}, 2);
  fw::SegmentSpace& space = rig.space;
  const FlashGeometry g = test::small_flash(2, 2);
  const std::uint32_t plane = 5, host = space.plane_frontier(plane, 0), gc = space.plane_frontier(plane, 1);

  // The host stream (not privileged) fills blocks 0, 1, ... of plane 5 until 2 are left free.
  std::vector<BlockId> opened;
  for (;;) {
    const Spn spn = space.allocate(host, false, 0);
    if (spn == kNoSpn) break;
    const BlockId b = g.block_of(space.to_ppn(spn));
    CHECK(g.plane_of_block(b) == plane);
    if (g.page_in_block(spn) == 0) opened.push_back(b);
  }
  CHECK(opened.size() == g.blocks_per_plane - 2);
  CHECK(opened.front() == g.block_at(plane, 0));  // free pool: lowest block first
  CHECK(space.free_segments_in_group(plane) == 2);
  CHECK(space.free_segments() == space.segments() - (g.blocks_per_plane - 2));
  // Other planes keep all their blocks, and their host streams may still allocate.
  CHECK(space.free_segments_in_group(plane - 1) == g.blocks_per_plane);
  CHECK(space.can_allocate(space.plane_frontier(plane - 1, 0), false));

  // The GC stream (privileged) takes the plane's reserve, and nothing else.
  for (std::uint32_t i = 0; i < 2 * g.pages_per_block; ++i) {
    const Spn spn = space.allocate(gc, true, 0);
    REQUIRE(spn != kNoSpn);
    CHECK(space.group_of(space.segment_of(spn)) == plane);
    space.mark_valid(spn);  // full of valid copies: never a victim below
  }
  CHECK(space.free_segments_in_group(plane) == 0);
  CHECK_FALSE(space.can_allocate(gc, true));

  // Greedy within the plane: the closed block with the fewest valid pages, first among equals.
  for (BlockId b : opened)
    for (std::uint32_t p = 0; p < g.pages_per_block; ++p) space.mark_valid(g.first_page(b) + p);
  space.invalidate(g.first_page(opened[3]), 0);
  space.invalidate(g.first_page(opened[4]) + 1, 0);
  CHECK(space.choose_victim_in_group(plane, fw::VictimPolicy::Greedy, 0) == opened[3]);
  CHECK(space.choose_victim_in_group(plane - 1, fw::VictimPolicy::Greedy, 0) == fw::SegmentSpace::kNoSegment);
  space.begin_reclaim(opened[3]);
  CHECK(space.choose_victim_in_group(plane, fw::VictimPolicy::Greedy, 0) == opened[4]);
  for (std::uint32_t p = 1; p < g.pages_per_block; ++p) space.invalidate(g.first_page(opened[3]) + p, 0);
  space.finish_reclaim(opened[3]);
  CHECK(space.free_segments_in_group(plane) == 1);
  CHECK(space.erase_count(opened[3]) == 1);
}

TEST_CASE("Dynamic wear leveling takes the least-erased free segment", "[ftl][segment_space][wear]") {
  MetricsRegistry metrics;
  SpaceRig plain(fw::SegmentSpace::PlaneBlocks{1}, 0), leveled(fw::SegmentSpace::PlaneBlocks{1}, 0);
  leveled.space.set_wear_leveling(fw::WearLeveling{fw::WearLeveling::Mode::Dynamic, 100}, metrics.set("ftl"));
  // Plane 0's blocks erased 10 times each, but its block 5 only twice and block 6 three times.
  auto counts = [](BlockId b) { return b == 5 ? 2u : b == 6 ? 3u : 10u; };
  plain.space.adopt_erase_counts(counts);
  leveled.space.adopt_erase_counts(counts);
  CHECK(leveled.space.erase_count(5) == 2);
  // Without leveling the last freed comes first (the pool starts with block 0 on top).
  CHECK(plain.space.take_in_group(0, 0) == 0);
  CHECK(leveled.space.take_in_group(0, 0) == 5);
  CHECK(leveled.space.take_in_group(0, 0) == 6);
  CHECK(leveled.space.erase_count(leveled.space.take_in_group(0, 0)) == 10);  // then the others
}

TEST_CASE("Static wear leveling moves the coldest block's data once the spread is too wide, every other time",
          "[ftl][segment_space][wear]") {
  MetricsRegistry metrics;
  SpaceRig rig(fw::SegmentSpace::PlaneBlocks{1}, 0);
  fw::SegmentSpace& space = rig.space;
  space.set_wear_leveling(fw::WearLeveling{fw::WearLeveling::Mode::Static, 10}, metrics.set("ftl"));
  // Plane 0: four blocks written full (0, 1, 2, 3 in pool order); block 1 erased 30 times, the
  // others 5 times, so the spread (30 - 5) exceeds 10.
  space.adopt_erase_counts([](BlockId b) { return b == 1 ? 30u : 5u; });
  const std::uint32_t frontier = space.plane_frontier(0, 0);
  std::vector<std::uint32_t> written;
  for (int i = 0; i < 4; ++i) written.push_back(fill_segment(space, frontier, 1));
  fill_segment(space, frontier, 1);  // (closes the fourth)
  // Greedy would take the block with most invalid pages: block written[2], half invalid.
  invalidate_pages(space, written[2], 0, 2, 2);
  invalidate_pages(space, written[3], 0, 1, 2);
  const std::uint32_t cold = space.choose_victim_in_group(0, fw::VictimPolicy::Greedy, 3);
  CHECK(space.wear_victim(cold));
  CHECK(space.valid_count(cold) == space.segment_pages());  // all its pages valid: cold data
  CHECK(space.erase_count(cold) == 5);
  CHECK(cold != written[2]);
  // The next choice in the same plane is greedy's again.
  const std::uint32_t next = space.choose_victim_in_group(0, fw::VictimPolicy::Greedy, 3);
  CHECK(next == written[2]);
  CHECK_FALSE(space.wear_victim(next));
  space.begin_reclaim(next);
  CHECK(metrics.set("ftl").counter("wear_leveling_victims") == 0);  // counted when reclaimed
  CHECK(space.wear_victim(space.choose_victim_in_group(0, fw::VictimPolicy::Greedy, 3)));
}
