// The block space with bad blocks (fw/ftl/common/segment_space.h): factory bad blocks left out at
// format, a segment whose block fails in use repaired with a spare or retired, and the read-only
// threshold, each against the layout worked out by hand.
#include <catch2/catch.hpp>

#include <set>

#include "fw_test_support.h"
#include "fw/ftl/common/segment_space.h"
#include "hw/nand/nand_array.h"
#include "platforms/functional/functional_hal.h"

using namespace ssd;
using fw::kNoSpn;
using fw::Spn;

namespace {

// 2 channels x 1 way x 1 die x 2 planes x 8 blocks x 4 pages: 4 planes, 32 blocks (block = plane x 8 + b).
struct Rig {
  hw::NandArray array{test::small_flash(2, 1)};
  std::unique_ptr<platform::FunctionalHal> hal;
  fw::FirmwareCosts costs{};
  MetricSet metrics;
  explicit Rig(std::vector<std::uint64_t> factory_bad) {
    hw::FailureConfig f;
    f.factory_bad_blocks = std::move(factory_bad);
    array.set_failures(f);
    hal = std::make_unique<platform::FunctionalHal>(array, 1u << 20, 64u << 20);
  }
};

// Every page of every segment still in use maps to a good block, each physical page once, and back.
void check_layout(const fw::SegmentSpace& space, const hw::NandArray& array) {
  std::set<Ppn> seen;
  for (std::uint32_t s = 0; s < space.segments(); ++s) {
    if (space.state(s) == fw::SegmentState::Retired) continue;
    for (BlockId b : space.blocks(s)) CHECK_FALSE(array.factory_bad(b));
    for (Spn spn = space.first_spn(s); spn < space.first_spn(s) + space.segment_pages(); ++spn) {
      const Ppn ppn = space.to_ppn(spn);
      CHECK(seen.insert(ppn).second);
      CHECK(space.to_spn(ppn) == spn);
    }
  }
}

// Takes a free segment and reclaims it at once (nothing written): what an FTL's GC does last.
void reclaim(fw::SegmentSpace& space, std::uint32_t s) {
  space.begin_reclaim(s);
  space.finish_reclaim(s);
}

}  // namespace

TEST_CASE("bad blocks: a one-block segment holding a factory bad block is retired", "[ftl][segment_space][bad_blocks]") {
  Rig rig({3, 8 + 6});  // plane 0 block 3, plane 1 block 6
  fw::SegmentSpace space(*rig.hal, rig.costs, fw::SegmentSpace::PlaneBlocks{1}, 0);
  CHECK(space.state(3) == fw::SegmentState::Retired);
  CHECK(space.state(14) == fw::SegmentState::Retired);
  CHECK(space.free_segments() == 30);
  CHECK(space.usable_segments() == 30);
  CHECK(space.fewest_usable_in_group() == 7);
  const auto c = space.bad_block_counts();
  CHECK(c.factory == 2);
  CHECK(c.retired_segments == 2);
  CHECK(c.spares == 0);
  // Plane 0's frontier takes its 7 good blocks and no more.
  std::set<std::uint32_t> taken;
  for (Spn spn; (spn = space.allocate(space.plane_frontier(0, 0), true, 0)) != kNoSpn;) taken.insert(space.segment_of(spn));
  CHECK(taken == std::set<std::uint32_t>{0, 1, 2, 4, 5, 6, 7});
}

TEST_CASE("bad blocks: a multi-plane segment takes each plane's k-th good block and the rest are spares",
          "[ftl][segment_space][bad_blocks]") {
  // One group of all 4 planes. Plane 0 loses block 2, plane 1 blocks 5 and 6: R = 2 slots retired
  // (6 and 7); spares: plane 0 one (its 8th block), plane 1 none, planes 2 and 3 two each.
  Rig rig({2, 8 + 5, 8 + 6});
  fw::SegmentSpace space(*rig.hal, rig.costs, 4, {0}, 0);
  CHECK(space.segments() == 8);
  CHECK(space.state(6) == fw::SegmentState::Retired);
  CHECK(space.state(7) == fw::SegmentState::Retired);
  CHECK(space.usable_segments() == 6);
  CHECK(space.free_segments() == 6);
  const auto c = space.bad_block_counts();
  CHECK(c.factory == 3);
  CHECK(c.retired_segments == 2);
  CHECK(c.spares == 1 + 0 + 2 + 2);
  check_layout(space, rig.array);
  // Slot 2 takes plane 0's block 3 (its third good block), slot 5 plane 1's block 7.
  const std::vector<BlockId> slot2 = space.blocks(2), slot5 = space.blocks(5);
  CHECK(std::count(slot2.begin(), slot2.end(), BlockId(3)) == 1);
  CHECK(std::count(slot5.begin(), slot5.end(), BlockId(8 + 7)) == 1);
}

TEST_CASE("bad blocks: a grown bad block is replaced by a spare of its plane or its segment retired",
          "[ftl][segment_space][bad_blocks]") {
  Rig rig({2, 8 + 5, 8 + 6});  // as above: spares 1, 0, 2, 2 on planes 0..3
  fw::SegmentSpace space(*rig.hal, rig.costs, 4, {0}, 0);
  // The frontier's first segment; its plane-2 block fails: the frontier stops writing it.
  const Spn first = space.allocate(0, true, 0);
  const std::uint32_t s = space.segment_of(first);
  BlockId on_plane2 = 0;
  for (BlockId b : space.blocks(s))
    if (test::small_flash(2, 1).plane_of_block(b) == 2) on_plane2 = b;
  CHECK(space.mark_bad(on_plane2) == s);
  CHECK(space.mark_bad(on_plane2) == fw::SegmentSpace::kNoSegment);  // known already
  CHECK(space.retiring(s));
  CHECK(space.state(s) == fw::SegmentState::Closed);
  CHECK(space.usable_segments() == 6);  // a spare can repair it
  CHECK(space.segment_of(space.allocate(0, true, 0)) != s);
  // Reclaimed: the bad block gives way to plane 2's spare.
  reclaim(space, s);
  CHECK(space.state(s) == fw::SegmentState::Free);
  CHECK_FALSE(space.retiring(s));
  const std::vector<BlockId> members = space.blocks(s);
  CHECK(std::count(members.begin(), members.end(), on_plane2) == 0);
  auto c = space.bad_block_counts();
  CHECK(c.grown == 1);
  CHECK(c.replaced == 1);
  CHECK(c.spares == 5 - 1);
  CHECK(c.retired_segments == 2);
  check_layout(space, rig.array);

  // A plane-1 block fails next: plane 1 has no spare, so its segment is doomed, then retired,
  // and its three good blocks become spares of planes 0, 2 and 3.
  const std::uint32_t t = space.take(0);
  BlockId on_plane1 = 0;
  for (BlockId b : space.blocks(t))
    if (test::small_flash(2, 1).plane_of_block(b) == 1) on_plane1 = b;
  space.mark_bad(on_plane1);
  CHECK(space.usable_segments() == 5);
  reclaim(space, t);
  CHECK(space.state(t) == fw::SegmentState::Retired);
  c = space.bad_block_counts();
  CHECK(c.grown == 2);
  CHECK(c.replaced == 1);
  CHECK(c.retired_segments == 3);
  CHECK(c.spares == 4 + 3);
  CHECK(space.usable_segments() == 5);
  check_layout(space, rig.array);
}

TEST_CASE("bad blocks: the space turns read-only once its usable segments fall below need plus margin",
          "[ftl][segment_space][bad_blocks]") {
  Rig rig({});
  fw::SegmentSpace space(*rig.hal, rig.costs, 1, {0}, 0);  // 32 one-block segments
  space.set_capacity_need(29);
  space.set_read_only_margin(1);
  CHECK_FALSE(space.read_only());
  for (std::uint32_t k = 0; k < 2; ++k) {  // 30 usable: still 29 + 1
    const std::uint32_t s = space.take(0);
    space.mark_bad(space.blocks(s).front());
    CHECK(space.usable_segments() == 31 - k);  // a one-block segment cannot be repaired
    reclaim(space, s);
    CHECK(space.state(s) == fw::SegmentState::Retired);
  }
  CHECK_FALSE(space.read_only());
  const std::uint32_t s = space.take(0);
  space.mark_bad(space.blocks(s).front());  // 29 usable
  CHECK(space.read_only());
  CHECK(space.read_only_since() == 1);  // the functional HAL has no clock: time 0, recorded as 1
  // And the factory's bad blocks may leave too few from the start: an error naming the parameters.
  Rig worn({0, 1, 2, 3});
  fw::SegmentSpace small(*worn.hal, worn.costs, 1, {0}, 0);
  CHECK_THROWS_WITH(small.set_capacity_need(29), Catch::Contains("failures.factory_bad_share"));
}

TEST_CASE("bad blocks: a block failing in a full segment its frontier still names leaves the reclaim under way",
          "[ftl][segment_space][bad_blocks]") {
  // A frontier fills its segment (Closed; the frontier still names it until its next page), GC
  // takes the segment at once, and then one of its last programs reports failure: the segment
  // stays a victim (it was made Closed again, and its reclaim's end found no victim).
  Rig rig({2, 8 + 5, 8 + 6});  // plane 0 has a spare
  fw::SegmentSpace space(*rig.hal, rig.costs, 4, {0}, 0);
  Spn last = kNoSpn;
  for (std::uint32_t i = 0; i < space.segment_pages(); ++i) last = space.allocate(0, true, 0);
  const std::uint32_t s = space.segment_of(last);
  REQUIRE(space.state(s) == fw::SegmentState::Closed);
  space.begin_reclaim(s);
  CHECK(space.mark_bad(space.blocks(s).front()) == s);
  CHECK(space.state(s) == fw::SegmentState::Reclaiming);
  CHECK(space.retiring(s));
  CHECK_NOTHROW(space.finish_reclaim(s));
  CHECK(space.state(s) == fw::SegmentState::Free);  // the bad block replaced by plane 0's spare
}
