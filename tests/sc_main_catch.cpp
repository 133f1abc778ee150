// SystemC programs enter through sc_main; Catch2 runs inside it. Each test case elaborates its
// own platform, so ctest runs every test case in a process of its own.
#include <systemc>

#include "tests/catch_session.h"
#include "tlm/sanitizer_stack.h"
#include "tlm/time_base.h"

int sc_main(int argc, char* argv[]) {
  ssd::tlmx::init_time_base();
  const int result = ssd::test::run_catch_session(argc, argv);
  ssd::tlmx::sanitizer_back_on_thread_stack();
  return result;
}
