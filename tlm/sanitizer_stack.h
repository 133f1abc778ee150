// AddressSanitizer and SystemC's coroutines. SystemC 2.3.4 tells ASan of its switches between
// coroutine stacks (sc_cor_qt's weak __sanitizer_*_switch_fiber calls), but not rightly: a switch
// back to the main coroutine names no stack (ASan then holds none for the main thread), and a
// thread process that ends switches away without a word (ASan then holds its freed stack). Two
// things go wrong with it, both seen on the suite:
//  - LeakSanitizer's end-of-process check scans the wrong stack and its tracer faults on a freed
//    or guard page ("Tracer caught signal 11 ... LeakSanitizer has encountered a fatal error",
//    after every test passed): a SystemC program calls sanitizer_back_on_thread_stack() once
//    simulation is over;
//  - an exception thrown in an SC_METHOD (the main stack) finds no stack to unpoison ("ASan is
//    ignoring requested __asan_handle_no_return"), and the redzones of the frames it unwinds
//    make a false stack-buffer-overflow in the next code to use that stack (SystemC composing
//    the error's report): in ASan builds every throw from the project's code goes through a
//    wrapper (the linker's --wrap=__cxa_throw, tlm/CMakeLists.txt) that first names the main
//    thread's stack when it is on it.
// Without ASan both do nothing.
#pragma once

namespace ssd::tlmx {

// Tells ASan the calling thread is on its own stack (not a coroutine's).
void sanitizer_back_on_thread_stack();

}  // namespace ssd::tlmx
