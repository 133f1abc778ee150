#include <catch2/catch.hpp>

#include "hw/nand/nand_array.h"

using namespace ssd;

static FlashGeometry small_geometry() {
  FlashGeometry g;
  g.channels = 2;
  g.ways = 2;
  g.planes_per_die = 2;
  g.blocks_per_plane = 4;
  g.pages_per_block = 8;
  return g;
}

TEST_CASE("NAND array programs, reads back and erases whole blocks", "[nand]") {
  hw::NandArray a(small_geometry());
  const FlashGeometry& g = a.geometry();
  const BlockId b = 5;
  for (std::uint32_t p = 0; p < g.pages_per_block; ++p) a.program(g.first_page(b) + p, 100 + p, 1000 + p);
  CHECK(a.read(g.first_page(b) + 3).lpn == 103);
  CHECK(a.read(g.first_page(b) + 3).token == 1003);
  CHECK(a.read(g.first_page(b + 1)).lpn == kNoLpn);  // erased page
  a.erase(b);
  CHECK(a.erase_count(b) == 1);
  CHECK(a.read(g.first_page(b)).token == kUnwrittenToken);
  CHECK(a.write_pointer(b) == 0);
  a.program(g.first_page(b), 7, 8);  // erased again: programmable
  CHECK(a.read(g.first_page(b)).lpn == 7);
}

TEST_CASE("NAND rule violations are reported naming the operation and address", "[nand]") {
  hw::NandArray a(small_geometry());
  const FlashGeometry& g = a.geometry();
  a.program(g.first_page(3), 1, 1);
  SECTION("program of a programmed page") {
    CHECK_THROWS_WITH(a.program(g.first_page(3), 2, 2),
                      Catch::Contains("program of ch0/way0/die0/plane0/block3/page0") && Catch::Contains("not erased"));
  }
  SECTION("out-of-order program within a block") {
    CHECK_THROWS_WITH(a.program(g.first_page(3) + 2, 2, 2),
                      Catch::Contains("page2") && Catch::Contains("out of order") && Catch::Contains("next page is 1"));
  }
  SECTION("erase beyond the array") { CHECK_THROWS_AS(a.erase(static_cast<BlockId>(g.total_blocks())), hw::NandRuleViolation); }
  SECTION("a part without the in-order rule accepts any erased page") {
    hw::NandArray relaxed(g, false);
    relaxed.program(g.first_page(3) + 5, 9, 9);
    relaxed.program(g.first_page(3) + 1, 8, 8);
    CHECK(relaxed.read(g.first_page(3) + 5).lpn == 9);
    CHECK_THROWS_WITH(relaxed.program(g.first_page(3) + 5, 1, 1), Catch::Contains("not erased"));
  }
}

TEST_CASE("Geometry composes and decomposes flat page numbers", "[nand]") {
  FlashGeometry g = small_geometry();
  g.dies_per_way = 2;
  for (Ppn p = 0; p < g.total_pages(); p += 7) CHECK(g.compose(g.decompose(p)) == p);
  PhysAddr a{1, 0, 1, 1, 2, 5};
  Ppn p = g.compose(a);
  CHECK(g.die_of_block(g.block_of(p)) == (1 * g.ways + 0) * g.dies_per_way + 1);
  CHECK(g.channel_of_die(g.die_of_block(g.block_of(p))) == 1);
}
