// The power-loss dump area (fw/firmware/plp_dump.h) and the block space holding it back
// (SegmentSpace::hold_back), against layouts worked out by hand.
#include <catch2/catch.hpp>

#include <set>

#include "fw/firmware/plp_dump.h"
#include "fw/ftl/common/segment_space.h"
#include "fw/hal/table_placer.h"
#include "hw/nand/nand_array.h"
#include "platforms/functional/functional_hal.h"

using namespace ssd;

namespace {
// 2 channels x 2 ways x 1 die x 2 planes x 8 blocks x 4 pages: 8 planes (plane = (ch x 2 + way) x 2 + p).
FlashGeometry dump_geometry() {
  FlashGeometry g;
  g.channels = 2;
  g.ways = 2;
  g.dies_per_way = 1;
  g.planes_per_die = 2;
  g.blocks_per_plane = 8;
  g.pages_per_block = 4;
  g.page_bytes = 4096;
  return g;
}
}  // namespace

TEST_CASE("plp dump: the area is each plane's last blocks, and pages go channel first", "[plp][firmware]") {
  const FlashGeometry g = dump_geometry();
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
  const FlashGeometry g = dump_geometry();
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
