// The power-loss dump area (fw/firmware/plp_dump.h) and the block space holding it back
// (SegmentSpace::hold_back), against layouts worked out by hand.
#include <catch2/catch.hpp>

#include <set>

#include "fw_test_support.h"
#include "fw/firmware/plp_dump.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/hal/table_placer.h"
#include "hw/nand/nand_array.h"
#include "platforms/functional/functional_hal.h"

using namespace ssd;

TEST_CASE("plp dump: the area is each plane's last blocks, and pages go channel first", "[plp][firmware]") {
  // 2 channels x 2 ways x 1 die x 2 planes x 8 blocks x 4 pages: 8 planes (plane = (ch x 2 + way) x 2 + p).
  const FlashGeometry g = test::small_flash(2, 2);
  // 40 pages over 8 planes: 5 a plane, 2 blocks of 4 pages each.
  fw::PlpDumpArea area(g, 40);
  CHECK(area.blocks_per_plane() == 2);
  REQUIRE(area.blocks().size() == 16);
  for (std::uint32_t plane = 0; plane < 8; ++plane) {
    CHECK(area.blocks()[2 * plane] == g.block_at(plane, 6));
    CHECK(area.blocks()[2 * plane + 1] == g.block_at(plane, 7));
  }
  // Channel first: channel 0 way 0, channel 1 way 0, channel 0 way 1, channel 1 way 1, then the
  // dies' second planes; each plane's pages in order through its blocks.
  const std::uint32_t order[8] = {0, 4, 2, 6, 1, 5, 3, 7};
  for (std::uint32_t k = 0; k < 64; ++k) {
    const Ppn ppn = area.next_page();
    const std::uint32_t plane = order[k % 8], nth = k / 8;
    CHECK(ppn == g.first_page(g.block_at(plane, 6 + nth / 4)) + nth % 4);
  }
  CHECK(area.next_page() == kNoPpn);  // 64 pages: the two blocks of every plane
  CHECK(area.pages_taken() == 64);
  // An area that would take every block of a plane is refused, naming what to change.
  CHECK_THROWS_WITH(fw::PlpDumpArea(g, 8 * 8 * 4), Catch::Contains("firmware.plp_destage"));
}

TEST_CASE("plp dump: the block space leaves the area out and counts it apart from bad blocks", "[plp][ftl][segment_space]") {
  const FlashGeometry g = test::small_flash(2, 2);
  hw::NandArray array(g);
  platform::FunctionalHal hal(array, 1u << 20, 64u << 20);
  fw::FirmwareCosts costs{};
  const fw::PlpDumpArea area(g, 40);
  SECTION("one-block segments: each held block's segment is retired, never allocated") {
    fw::SegmentSpace space(hal, costs, fw::SegmentSpace::PlaneBlocks{1}, 0);
    space.hold_back(area.blocks());
    CHECK(space.held_blocks() == 16);
    CHECK(space.usable_segments() == 64 - 16);
    CHECK(space.bad_block_counts().retired_segments == 0);
    CHECK(space.bad_block_counts().factory == 0);
    std::set<BlockId> taken;
    for (fw::Spn spn; (spn = space.allocate(space.plane_frontier(3, 0), true, 0)) != fw::kNoSpn;)
      taken.insert(g.block_of(space.to_ppn(spn)));
    CHECK(taken.size() == 6);
    for (BlockId b : area.blocks()) CHECK(taken.count(b) == 0);
  }
  SECTION("segments across all planes: the area's slots are retired") {
    fw::SegmentSpace space(hal, costs, 8, {0}, 0);
    space.hold_back(area.blocks());
    CHECK(space.usable_segments() == 6);
    CHECK(space.state(6) == fw::SegmentState::Retired);
    CHECK(space.state(7) == fw::SegmentState::Retired);
    CHECK(space.bad_block_counts().retired_segments == 0);
  }
  SECTION("an area leaving the FTL less than it needs is an error naming it") {
    fw::SegmentSpace space(hal, costs, 1, {0}, 0);
    space.set_capacity_need(60);
    CHECK_THROWS_AS(space.hold_back(area.blocks()), fw::ResourceError);
    fw::SegmentSpace other(hal, costs, 1, {0}, 0);
    other.set_capacity_need(60);
    CHECK_THROWS_WITH(other.hold_back(area.blocks()), Catch::Contains("dump area"));
  }
}

TEST_CASE("reserved areas: factory-bad blocks and another area's are passed over, failed blocks retired",
          "[plp][checkpoint][firmware]") {
  const FlashGeometry g = test::small_flash(2, 2);  // 8 planes x 8 blocks x 4 pages
  std::vector<bool> taken(g.total_blocks(), false);
  taken[g.block_at(2, 7)] = true;  // factory-bad: plane 2's last block
  // 20 pages: 3 a plane, one block each.
  fw::ReservedArea first(g, 20, &taken, "hint");
  REQUIRE(first.blocks().size() == 8);
  for (std::uint32_t plane = 0; plane < 8; ++plane)
    CHECK(first.blocks()[plane] == g.block_at(plane, plane == 2 ? 6 : 7));
  // A second area takes the blocks below the first's, passing over the bad one too.
  fw::ReservedArea second(g, 20, &taken, "hint");
  for (std::uint32_t plane = 0; plane < 8; ++plane)
    CHECK(second.blocks()[plane] == g.block_at(plane, plane == 2 ? 5 : 6));
  for (BlockId b : second.blocks()) CHECK_FALSE(first.contains(b));
  CHECK(first.capacity_pages() == 8 * 4);
  // A retired block's pages are passed over: plane 0 (the first in channel-first order) gives none.
  first.retire(g.block_at(0, 7));
  CHECK(first.capacity_pages() == 7 * 4);
  std::uint32_t pages = 0;
  for (Ppn ppn; (ppn = first.next_page()) != kNoPpn; ++pages) CHECK(g.block_of(ppn) != g.block_at(0, 7));
  CHECK(pages == 7 * 4);
  // restart() hands the same pages out again, from the first.
  first.restart();
  CHECK(first.next_page() == g.first_page(g.block_at(4, 7)));  // channel 1, way 0: plane 4
  // As needed: 20 pages fill 5 blocks, one a plane on the planes channel first from the given
  // position (0, 4, 2, 6, 1, then 5, 3, 7, 0, 4), each its plane's last usable block; pages go
  // one a block in turn.
  std::vector<bool> fresh;
  fw::ReservedArea a(g, 20, &fresh, "hint", fw::ReservedArea::Spread::AsNeeded, 0);
  fw::ReservedArea b(g, 20, &fresh, "hint", fw::ReservedArea::Spread::AsNeeded, 5);
  const std::uint32_t a_planes[5] = {0, 4, 2, 6, 1}, b_planes[5] = {5, 3, 7, 0, 4};
  REQUIRE(a.blocks().size() == 5);
  REQUIRE(b.blocks().size() == 5);
  for (std::uint32_t k = 0; k < 5; ++k) {
    CHECK(a.blocks()[k] == g.block_at(a_planes[k], 7));
    CHECK(b.blocks()[k] == g.block_at(b_planes[k], b_planes[k] == 0 || b_planes[k] == 4 ? 6 : 7));
  }
  for (std::uint32_t k = 0; k < 20; ++k) CHECK(a.next_page() == g.first_page(a.blocks()[k % 5]) + k / 5);
  CHECK(a.next_page() == kNoPpn);
  // A plane left without a block for the FTL is refused, with the caller's hint.
  std::vector<bool> none;
  CHECK_THROWS_WITH(fw::ReservedArea(g, 8 * 8 * 4, &none, "the hint"), Catch::Contains("the hint"));
}
