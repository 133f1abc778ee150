#include <catch2/catch.hpp>

#include <vector>

#include "stimuli/integrity_oracle.h"

using namespace ssd;
using stimuli::IntegrityOracle;

TEST_CASE("Oracle expects the last acknowledged write, merged for partial pages", "[oracle]") {
  IntegrityOracle o(100, 4096);  // 8 sectors per page
  std::vector<Token> t;
  CHECK(o.expected(3) == kUnwrittenToken);
  o.make_write_tokens(24, 8, t);  // page 3, whole
  REQUIRE(t.size() == 1);
  CHECK(o.expected(3) == kUnwrittenToken);  // not acknowledged yet
  o.acknowledge_write(24, 8, t.data());
  const Token full = t[0];
  CHECK(o.expected(3) == full);
  o.make_write_tokens(26, 4, t);  // sectors 2-5 of page 3: a partial page
  o.acknowledge_write(26, 4, t.data());
  CHECK(o.expected(3) == merge_tokens(full, t[0]));
  o.make_write_tokens(30, 4, t);  // sectors 6-9: the end of page 3 and the start of page 4
  REQUIRE(t.size() == 2);
  const Token page3 = o.expected(3);
  o.acknowledge_write(30, 4, t.data());
  CHECK(o.expected(3) == merge_tokens(page3, t[0]));
  CHECK(o.expected(4) == merge_tokens(kUnwrittenToken, t[1]));

  std::vector<Token> read{o.expected(3), o.expected(4)};
  CHECK(o.check_read(30, 4, read.data()));
  read[1] ^= 1;
  CHECK_FALSE(o.check_read(30, 4, read.data()));
  CHECK(o.mismatches() == 1);
  CHECK_THAT(o.first_mismatch(), Catch::StartsWith("logical page 4 "));
}

TEST_CASE("Every write gets fresh tokens, distinct per page", "[oracle]") {
  IntegrityOracle o(100, 4096);
  std::vector<Token> a, b;
  o.make_write_tokens(0, 16, a);
  o.make_write_tokens(0, 16, b);
  REQUIRE(a.size() == 2);
  CHECK(a[0] != a[1]);
  CHECK(a[0] != b[0]);
  CHECK(a[0] != kUnwrittenToken);
}

TEST_CASE("Preconditioned pages read back as their baseline without being stored", "[oracle]") {
  IntegrityOracle o(1000, 4096);
  o.begin_preconditioning();
  std::vector<Token> t;
  o.make_write_tokens(0, 8000, t);  // the whole drive
  o.acknowledge_write(0, 8000, t.data());
  CHECK_THROWS_AS(o.make_write_tokens(3, 8, t), std::logic_error);  // whole pages only
  o.end_preconditioning();
  CHECK(o.materialized_pages() == 0);
  CHECK(o.expected(17) == write_token(17, 0));
  CHECK(o.expected(17) != o.expected(18));  // a misplaced page is still caught
  o.make_write_tokens(17 * 8, 8, t);
  o.acknowledge_write(17 * 8, 8, t.data());
  CHECK(o.expected(17) == t[0]);
  CHECK(o.expected(16) == write_token(16, 0));  // its chunk neighbours keep their baseline
  CHECK(o.materialized_pages() == 16);
}
