// The unit and command-line test programs.
#include "tests/catch_session.h"

int main(int argc, char* argv[]) { return ssd::test::run_catch_session(argc, argv); }
