// The end-of-run mapping check (platforms/functional/mapping_check.cpp) finds every kind of
// disagreement between a mapping, the flash and the oracle, on a mapping made by hand.
#include <catch2/catch.hpp>

#include <set>

#include "common/tokens.h"
#include "platforms/functional/mapping_check.h"

namespace mapping_check_test {

using namespace ssd;
using Catch::Matchers::Contains;

// A mapping whose answers the test sets: a table, a set of valid pages, a write buffer.
class HandMapping final : public platform::MappingView {
 public:
  explicit HandMapping(Lpn logical) : l2p(logical, kNoPpn) {}
  Lpn logical_pages() const override { return static_cast<Lpn>(l2p.size()); }
  Ppn locate(Lpn lpn) const override { return lpn < l2p.size() ? l2p[lpn] : kNoPpn; }
  bool holds_valid_page(Ppn ppn) const override { return valid.count(ppn) != 0; }
  std::vector<std::pair<Lpn, Token>> buffered_pages() const override { return buffered; }
  std::string check_metadata(const fw::Ftl::PageReader&) const override { return ""; }
  std::string unfinished_work() const override { return ""; }

  std::vector<Ppn> l2p;
  std::set<Ppn> valid;
  std::vector<std::pair<Lpn, Token>> buffered;
};

// 2 planes of 8 blocks of 64 pages; 600 logical pages, each written once (page k at ppn k) but
// the last 40, which were never written. Enough pages for several of the check's batches.
struct Drive {
  static FlashGeometry geometry() {
    FlashGeometry g;
    g.planes_per_die = 2;
    g.blocks_per_plane = 8;
    g.pages_per_block = 64;
    return g;
  }
  static constexpr Lpn kLogical = 600, kWritten = 560;

  Drive() : array(geometry()), oracle(kLogical, 8192), mapping(kLogical) {
    for (Lpn lpn = 0; lpn < kWritten; ++lpn) {
      program(lpn, lpn, write_token(lpn, 1));
      mapping.l2p[lpn] = lpn;
    }
  }
  void program(Ppn ppn, Lpn lpn, Token token) {
    array.program(ppn, lpn, token);
    mapping.valid.insert(ppn);
    if (lpn < kLogical) oracle.set_expected(lpn, token);
  }
  std::string check() const { return platform::verify_mapping(mapping, array, oracle); }

  hw::NandArray array;
  stimuli::IntegrityOracle oracle;
  HandMapping mapping;
};

TEST_CASE("mapping check: a consistent drive passes", "[mapping_check]") {
  Drive d;
  CHECK(d.check().empty());
}

TEST_CASE("mapping check: an overwrite passes once its old copy is invalid, and a stale copy left valid is found",
          "[mapping_check]") {
  Drive d;
  d.program(576, 7, write_token(7, 2));  // logical page 7 again, at a new page
  d.mapping.l2p[7] = 576;
  SECTION("the old copy invalidated") {
    d.mapping.valid.erase(7);
    CHECK(d.check().empty());
  }
  SECTION("the old copy still counted valid") {
    CHECK_THAT(d.check(), Contains("OOB names logical page 7, which the FTL locates elsewhere"));
  }
}

TEST_CASE("mapping check: a mapping to a page naming another logical page is found", "[mapping_check]") {
  Drive d;
  d.mapping.l2p[10] = 11;
  CHECK_THAT(d.check(), Contains("logical page 10 maps to") && Contains("names logical page 11"));
}

TEST_CASE("mapping check: a mapping to a page counted invalid is found", "[mapping_check]") {
  Drive d;
  d.mapping.valid.erase(300);
  CHECK_THAT(d.check(), Contains("logical page 300 maps to") && Contains("counts as invalid"));
}

TEST_CASE("mapping check: a page holding older data than the oracle expects is found", "[mapping_check]") {
  Drive d;
  d.oracle.set_expected(299, write_token(299, 2));  // a write the flash never got
  CHECK_THAT(d.check(), Contains("logical page 299 at") && Contains("holds token"));
}

TEST_CASE("mapping check: a written page left unmapped is found", "[mapping_check]") {
  Drive d;
  d.mapping.l2p[42] = kNoPpn;
  d.mapping.valid.erase(42);
  CHECK_THAT(d.check(), Contains("logical page 42 was written but is unmapped"));
}

TEST_CASE("mapping check: a page counted valid that was never programmed is found", "[mapping_check]") {
  Drive d;
  d.mapping.valid.insert(1000);
  CHECK_THAT(d.check(), Contains("counted as valid but was never programmed"));
}

TEST_CASE("mapping check: two logical pages mapped to one page are found", "[mapping_check]") {
  Drive d;
  d.mapping.l2p[400] = 401;  // 401 names 401: 400's mapping is wrong, 400's own page unmapped to
  CHECK_FALSE(d.check().empty());
}

TEST_CASE("mapping check: the write buffer's newer copy is checked instead of the flash's", "[mapping_check]") {
  Drive d;
  const Token newer = write_token(5, 2);
  d.oracle.set_expected(5, newer);  // the flash still holds the first write
  SECTION("the buffer holds the expected data") {
    d.mapping.buffered = {{5, newer}};
    CHECK(d.check().empty());
  }
  SECTION("the buffer holds other data") {
    d.mapping.buffered = {{5, write_token(5, 3)}};
    CHECK_THAT(d.check(), Contains("logical page 5 in the write buffer holds token"));
  }
  SECTION("a buffered page never written to flash") {
    d.oracle.set_expected(580, write_token(580, 1));
    d.mapping.buffered = {{5, newer}, {580, write_token(580, 1)}};
    CHECK(d.check().empty());
  }
}

TEST_CASE("mapping check: a page kept marked unreadable passes as a reported error", "[mapping_check]") {
  Drive d;
  d.program(576, 9, kUncorrectableToken);  // relocated unreadable: the oracle still expects 9's data
  d.oracle.set_expected(9, write_token(9, 1));
  d.mapping.valid.erase(9);
  d.mapping.l2p[9] = 576;
  CHECK(d.check().empty());
  SECTION("but not when mapped elsewhere while its unreadable copy stays valid") {
    d.mapping.l2p[9] = 9;
    d.mapping.valid.insert(9);
    CHECK_FALSE(d.check().empty());
  }
}

}  // namespace mapping_check_test
