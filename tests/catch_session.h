#pragma once
// Runs the test cases linked into this program (Catch2's session, tests/catch_session.cpp).
namespace ssd::test {
int run_catch_session(int argc, char* argv[]);
}
