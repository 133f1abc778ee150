// The write buffer's index (fw/firmware/lpn_index.h) against a std::map doing the same, and the
// records' placement (fw/hal/table_placer.h).
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "fw/firmware/lpn_index.h"
#include "fw/hal/table_placer.h"

using namespace ssd;
using fw::LpnIndex;

TEST_CASE("The LPN index finds each page's newest entry, replaced and erased", "[fw][write_buffer]") {
  LpnIndex index(3);  // 4 buckets
  CHECK(index.find(7) == LpnIndex::kNone);
  index.set(7, 0);
  index.set(11, 1);
  CHECK(index.find(7) == 0);
  CHECK(index.find(11) == 1);
  index.set(7, 2);  // a newer copy of page 7: entry 0 leaves the index
  CHECK(index.find(7) == 2);
  index.erase(0);  // no longer indexed: nothing changes
  CHECK(index.find(7) == 2);
  index.erase(2);
  CHECK(index.find(7) == LpnIndex::kNone);
  CHECK(index.find(11) == 1);
  std::vector<std::pair<Lpn, std::uint32_t>> seen;
  index.for_each([&](Lpn lpn, std::uint32_t e) { seen.emplace_back(lpn, e); });
  CHECK(seen == std::vector<std::pair<Lpn, std::uint32_t>>{{11, 1}});
  CHECK(index.heads_bytes() == 16);
  CHECK(index.slots_bytes() == 3 * LpnIndex::kSlotBytes);
}

TEST_CASE("The LPN index agrees with a map under random use, long chains included", "[fw][write_buffer]") {
  // 64 entries over 200 pages: every bucket chains several pages; strided pages share low bits.
  constexpr std::uint32_t kEntries = 64;
  LpnIndex index(kEntries);
  std::map<Lpn, std::uint32_t> expected;  // page -> newest entry
  std::vector<Lpn> held(kEntries, kNoLpn);  // the page each entry holds (indexed or not)
  std::vector<std::uint32_t> free;
  for (std::uint32_t e = 0; e < kEntries; ++e) free.push_back(e);
  std::mt19937 rng(5);
  for (int step = 0; step < 20000; ++step) {
    if (!free.empty() && rng() % 2) {
      const Lpn lpn = (rng() % 200) * 64;
      const std::uint32_t e = free.back();
      free.pop_back();
      index.set(lpn, e);
      expected[lpn] = e;
      held[e] = lpn;
    } else {
      const std::uint32_t e = rng() % kEntries;
      if (held[e] == kNoLpn) continue;
      index.erase(e);
      const auto it = expected.find(held[e]);
      if (it != expected.end() && it->second == e) expected.erase(it);
      held[e] = kNoLpn;
      free.push_back(e);
    }
    const Lpn probe = (rng() % 200) * 64;
    const auto it = expected.find(probe);
    REQUIRE(index.find(probe) == (it == expected.end() ? LpnIndex::kNone : it->second));
  }
  std::map<Lpn, std::uint32_t> listed;
  index.for_each([&](Lpn lpn, std::uint32_t e) { listed[lpn] = e; });
  CHECK(listed == expected);
}

TEST_CASE("Records are placed as the image's heap holds them: SRAM until it spills, and not listed as tables",
          "[fw]") {
  fw::TablePlacer placer(1024, 10000);
  const fw::TableRegion ops = placer.place_records("ops", 500);
  CHECK(ops.memory == fw::MemoryKind::Sram);
  CHECK(ops.base == 0);
  CHECK(placer.place("buffer", 3000, fw::MemoryKind::Dram).base == 0);  // DRAM by choice: no spill
  CHECK(placer.place_records("entries", 100).memory == fw::MemoryKind::Sram);
  const fw::TableRegion map = placer.place("map", 600, fw::MemoryKind::Sram);  // 424 bytes left: it spills
  CHECK(map.memory == fw::MemoryKind::Dram);
  CHECK(map.base == 3000);
  const fw::TableRegion grown = placer.place_records("ops", 100);  // SRAM has room, the heap is past it
  CHECK(grown.memory == fw::MemoryKind::Dram);
  CHECK(grown.base == 3600);
  CHECK(placer.tables().size() == 2);  // records are not tables
  CHECK_THROWS_AS(placer.place_records("more", 6301), fw::ResourceError);
}
