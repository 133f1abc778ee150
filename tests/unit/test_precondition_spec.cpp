// --precondition's grammar (fw/precondition/precondition_spec.h), the age parts above all.
#include <catch2/catch.hpp>

#include "fw/precondition/precondition_spec.h"

using ssd::fw::PreconditionSpec;

TEST_CASE("preconditioning specs parse, with an age anywhere among their parts", "[precondition]") {
  const PreconditionSpec plain = PreconditionSpec::parse("fill+steady");
  CHECK(plain.fill);
  CHECK(plain.steady == PreconditionSpec::Steady::Direct);
  CHECK_FALSE(plain.ages());

  const PreconditionSpec aged = PreconditionSpec::parse("fill+pe:3000+pe_spread:0.1+days:90+no-flush");
  CHECK(aged.fill);
  CHECK(aged.steady == PreconditionSpec::Steady::No);
  CHECK_FALSE(aged.flush);
  CHECK(aged.pe_cycles == 3000);
  CHECK(aged.pe_spread == 0.1);
  CHECK(aged.data_age_days == 90);
  CHECK(aged.ages());

  const PreconditionSpec worn_empty = PreconditionSpec::parse("none+pe:500");
  CHECK_FALSE(worn_empty.writes_anything());
  CHECK(worn_empty.pe_cycles == 500);

  const PreconditionSpec random = PreconditionSpec::parse("fill+days:30+random:0.5");
  CHECK(random.random_capacities == 0.5);
  CHECK(random.data_age_days == 30);
}

TEST_CASE("preconditioning specs with a bad age are refused, naming the part", "[precondition]") {
  CHECK_THROWS_WITH(PreconditionSpec::parse("fill+pe:many"), Catch::Contains("pe:X needs a number"));
  CHECK_THROWS_WITH(PreconditionSpec::parse("fill+pe:-5"), Catch::Contains("pe:X needs a number"));
  CHECK_THROWS_WITH(PreconditionSpec::parse("fill+days:1e9"), Catch::Contains("days:X needs a number"));
  CHECK_THROWS_WITH(PreconditionSpec::parse("fill+pe_spread:0.2"), Catch::Contains("without +pe:N"));
  CHECK_THROWS_WITH(PreconditionSpec::parse("fill+age:3"), Catch::Contains("expected none, fill"));
}
