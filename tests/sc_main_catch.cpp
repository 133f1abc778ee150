// SystemC programs enter through sc_main; Catch2 runs inside it. Each test case elaborates its
// own platform, so ctest runs every test case in a process of its own.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
