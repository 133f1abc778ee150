#include <catch2/catch.hpp>

#include "hw/nand/nand_array.h"

using namespace ssd;

static FlashGeometry nand_test_geometry() {
  FlashGeometry g;
  g.channels = 2;
  g.ways = 2;
  g.planes_per_die = 2;
  g.blocks_per_plane = 4;
  g.pages_per_block = 8;
  return g;
}

TEST_CASE("NAND array programs, reads back and erases whole blocks", "[nand]") {
  hw::NandArray a(nand_test_geometry());
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
  hw::NandArray a(nand_test_geometry());
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
  SECTION("erase beyond the array") {
    CHECK_THROWS_AS(a.erase(static_cast<BlockId>(g.total_blocks())), hw::NandRuleViolation);
  }
  SECTION("a part without the in-order rule accepts any erased page") {
    hw::NandArray relaxed(g, false);
    relaxed.program(g.first_page(3) + 5, 9, 9);
    relaxed.program(g.first_page(3) + 1, 8, 8);
    CHECK(relaxed.read(g.first_page(3) + 5).lpn == 9);
    CHECK_THROWS_WITH(relaxed.program(g.first_page(3) + 5, 1, 1), Catch::Contains("not erased"));
  }
}

TEST_CASE("Geometry composes and decomposes flat page numbers", "[nand]") {
  FlashGeometry g = nand_test_geometry();
  g.dies_per_way = 2;
  for (Ppn p = 0; p < g.total_pages(); p += 7) CHECK(g.compose(g.decompose(p)) == p);
  PhysAddr a{1, 0, 1, 1, 2, 5};
  Ppn p = g.compose(a);
  CHECK(g.die_of_block(g.block_of(p)) == (1 * g.ways + 0) * g.dies_per_way + 1);
  CHECK(g.channel_of_die(g.die_of_block(g.block_of(p))) == 1);
}

TEST_CASE("NAND power cut: a torn program leaves its page unreadable, and takes its word line's lower pages",
          "[nand][power_cut]") {
  const auto content = [](const hw::NandArray& a, Ppn p) { return a.read(p); };
  for (const std::uint32_t bits : {1u, 2u, 3u}) {
    INFO(bits << " bits per cell");
    hw::NandArray a(nand_test_geometry());
    const BlockId b = 3;
    const Ppn first = a.geometry().first_page(b);
    for (std::uint32_t p = 0; p < 5; ++p) a.program(first + p, 100 + p, 1000 + p);
    hw::CutDamage damage;
    a.interrupt_program(first + 5, bits, damage);  // page 5: SLC its own word line; MLC upper of WL 2; TLC MSB of WL 1
    CHECK(damage.torn_pages == 1);
    CHECK(content(a, first + 5).lpn == hw::kUnreadableLpn);
    CHECK(content(a, first + 5).token == kUncorrectableToken);
    CHECK(a.write_pointer(b) == 6);                                // the page is taken: the next program goes to page 6
    const std::uint32_t lost = bits == 1 ? 0 : bits == 2 ? 1 : 2;  // MLC: page 4; TLC: pages 3 and 4
    CHECK(damage.paired_pages_lost == lost);
    for (std::uint32_t p = 0; p < 5; ++p) {
      INFO("page " << p);
      const bool gone = p >= 5 - lost;
      CHECK((content(a, first + p).lpn == hw::kUnreadableLpn) == gone);
      if (!gone) CHECK(content(a, first + p).token == 1000 + p);
    }
    a.program(first + 6, 7, 7);  // the block goes on
  }
  // A lower page cut short destroys nothing else (its upper pages were never written).
  hw::NandArray a(nand_test_geometry());
  hw::CutDamage damage;
  a.program(0, 1, 1);
  a.program(1, 2, 2);
  a.interrupt_program(2, 2, damage);
  CHECK(damage.paired_pages_lost == 0);
  CHECK(a.read(1).token == 2);
}

TEST_CASE("NAND power cut: an erase cut short leaves the block unreadable and unprogrammable until erased",
          "[nand][power_cut]") {
  hw::NandArray a(nand_test_geometry());
  const FlashGeometry& g = a.geometry();
  for (std::uint32_t p = 0; p < 3; ++p) a.program(g.first_page(2) + p, p, 50 + p);
  hw::CutDamage damage;
  a.interrupt_erase(2, damage);
  a.interrupt_erase(6, damage);  // never programmed
  CHECK(damage.erases_cut == 2);
  for (const BlockId b : {BlockId(2), BlockId(6)})
    for (std::uint32_t p = 0; p < g.pages_per_block; ++p) {
      CHECK(a.is_programmed(g.first_page(b) + p));
      CHECK(a.read(g.first_page(b) + p).lpn == hw::kUnreadableLpn);
    }
  CHECK_THROWS_AS(a.program(g.first_page(2) + 3, 9, 9), hw::NandRuleViolation);
  CHECK(a.erase(2));
  CHECK(a.read(g.first_page(2)).lpn == kNoLpn);
  a.program(g.first_page(2), 9, 9);
}

TEST_CASE("SLC mode: a block takes its first program's mode, holds pages / bits pages, and loses no paired page",
          "[nand][slc]") {
  hw::NandArray a(nand_test_geometry());  // 8 pages a block
  const FlashGeometry& g = a.geometry();
  const Ppn b0 = g.first_page(2);
  SECTION("a part of one bit a cell has no SLC mode") {
    CHECK_THROWS_WITH(a.program(b0, 1, 1, hw::NandArray::kBeforeRun, true), Catch::Contains("has no SLC mode"));
  }
  a.set_bits_per_cell(2);  // MLC: an SLC-mode block holds 4 pages
  REQUIRE(a.slc_pages() == 4);
  for (std::uint32_t p = 0; p < 4; ++p) a.program(b0 + p, 10 + p, 100 + p, hw::NandArray::kBeforeRun, true);
  CHECK(a.is_slc(2));
  CHECK(a.read(b0 + 3).token == 103);
  SECTION("past its SLC pages") {
    CHECK_THROWS_WITH(a.program(b0 + 4, 1, 1, hw::NandArray::kBeforeRun, true),
                      Catch::Contains("block2/page4") && Catch::Contains("an SLC-mode block holds 4 pages"));
  }
  SECTION("a native program into an SLC block, and the other way round") {
    CHECK_THROWS_WITH(a.program(b0 + 4, 1, 1), Catch::Contains("native program") && Catch::Contains("in SLC mode"));
    a.program(g.first_page(3), 1, 1);
    CHECK_THROWS_WITH(a.program(g.first_page(3) + 1, 1, 1, hw::NandArray::kBeforeRun, true),
                      Catch::Contains("SLC-mode program") && Catch::Contains("in native mode"));
  }
  SECTION("the erase ends the mode") {
    a.erase(2);
    CHECK_FALSE(a.is_slc(2));
    for (std::uint32_t p = 0; p < g.pages_per_block; ++p) a.program(b0 + p, 1, 1);  // all 8 pages, native
    CHECK_FALSE(a.is_slc(2));
  }
  SECTION("a cut SLC-mode program tears its own page only; a native upper page its lower page too") {
    const Ppn b1 = g.first_page(4);
    a.program(b1, 1, 1, hw::NandArray::kBeforeRun, true);
    hw::CutDamage slc;
    a.interrupt_program(b1 + 1, 2, slc, true);
    CHECK(slc.torn_pages == 1);
    CHECK(slc.paired_pages_lost == 0);
    CHECK(a.read(b1).token == 1);
    const Ppn b2 = g.first_page(5);
    a.program(b2, 1, 1);
    hw::CutDamage native;
    a.interrupt_program(b2 + 1, 2, native);
    CHECK(native.paired_pages_lost == 1);
  }
}

TEST_CASE("SLC mode: an SLC-mode cycle wears its block by failures.slc_cycle_wear of a native one", "[nand][slc]") {
  hw::NandArray a(nand_test_geometry());
  hw::FailureConfig f;
  f.slc_cycle_wear = 0.1;
  a.set_failures(f);
  a.set_bits_per_cell(2);
  const FlashGeometry& g = a.geometry();
  for (int i = 0; i < 10; ++i) {  // 10 SLC-mode cycles
    a.program(g.first_page(1), 1, 1, hw::NandArray::kBeforeRun, true);
    a.erase(1);
  }
  for (int i = 0; i < 3; ++i) {  // and 3 native ones
    a.program(g.first_page(1), 1, 1);
    a.erase(1);
  }
  a.erase(1);  // an erase of an erased block: a native cycle
  CHECK(a.erase_count(1) == 14);
  CHECK(a.wear(1) == Approx(10 * 0.1 + 4));
}
