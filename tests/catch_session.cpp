// Catch2's implementation, compiled once for the three test programs, which only call
// run_catch_session from their own main: it is the slowest file of the build, about a minute.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "tests/catch_session.h"

int ssd::test::run_catch_session(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
