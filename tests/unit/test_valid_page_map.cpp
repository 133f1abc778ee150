// ValidPageMap's uncharged range marking (preconditioning lays out whole blocks with it): the same
// bits and counts as page-by-page marking, across bitmap words, and no page marked twice.
#include <catch2/catch.hpp>

#include "fw/ftl/common/valid_page_map.h"
#include "platforms/functional/functional_hal.h"

namespace valid_page_map_test {

using namespace ssd;

TEST_CASE("ValidPageMap marks a range across bitmap words as page-by-page marking would", "[valid_page_map]") {
  FlashGeometry g;
  g.blocks_per_plane = 4;
  g.pages_per_block = 256;
  hw::NandArray array(g);
  platform::FunctionalHal hal{array, 1u << 20, 64u << 20};
  fw::ValidPageMap ranges(hal, "ranges", g.total_pages(), g.pages_per_block, 2);
  fw::ValidPageMap pages(hal, "pages", g.total_pages(), g.pages_per_block, 2);
  // Unit 1 (pages 256-511): 3-66 spans two words, 70-197 three, 200-255 the last one's end.
  for (const auto& [first, count] : {std::pair<std::uint64_t, std::uint32_t>{259, 64}, {326, 128}, {456, 56}}) {
    ranges.mark_valid_range(first, count);
    for (std::uint64_t p = first; p < first + count; ++p) pages.mark_valid(p);
  }
  for (std::uint64_t p = 0; p < g.total_pages(); ++p) REQUIRE(ranges.is_valid(p) == pages.is_valid(p));
  CHECK(ranges.valid_count(1) == 64 + 128 + 56);
  CHECK(ranges.valid_count(0) == 0);
  CHECK(ranges.is_valid(259));
  CHECK_FALSE(ranges.is_valid(258));
  CHECK(ranges.is_valid(511));

  SECTION("a range over a valid page is refused, naming the first one") {
    CHECK_THROWS_WITH(ranges.mark_valid_range(250 + 256, 4), Catch::Matchers::Contains("page 506 is already valid"));
    CHECK_THROWS_WITH(ranges.mark_valid_range(256, 8), Catch::Matchers::Contains("page 259 is already valid"));
  }
  SECTION("a range beyond its unit is refused") {
    CHECK_THROWS_AS(ranges.mark_valid_range(500, 20), std::logic_error);
  }
}

}  // namespace valid_page_map_test
