#include "tlm/sanitizer_stack.h"

#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <typeinfo>

// Weak: null unless the ASan runtime is linked in (as SystemC declares them).
extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, std::size_t size) __attribute__((weak));
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, std::size_t* size_old)
    __attribute__((weak));
}

namespace ssd::tlmx {
namespace {

struct ThreadStack {
  pthread_t thread{};
  std::uintptr_t bottom = 0, size = 0;
};

// The main thread's stack, read once (for the main thread glibc reads /proc/self/maps).
const ThreadStack& main_stack() {
  static const ThreadStack stack = [] {
    ThreadStack s;
    s.thread = pthread_self();
    pthread_attr_t attr;
    if (pthread_getattr_np(s.thread, &attr) != 0) return s;
    void* bottom = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &bottom, &size) == 0) s.bottom = reinterpret_cast<std::uintptr_t>(bottom), s.size = size;
    pthread_attr_destroy(&attr);
    return s;
  }();
  return stack;
}

// Whether the caller runs on the main thread's own stack (not a coroutine's).
bool on_main_stack() {
  const ThreadStack& s = main_stack();
  if (s.size == 0 || !pthread_equal(s.thread, pthread_self())) return false;
  const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  return here >= s.bottom && here < s.bottom + s.size;
}

void name_main_stack() {
  const ThreadStack& s = main_stack();
  // A switch from "here" to the stack the thread is already on.
  __sanitizer_start_switch_fiber(nullptr, reinterpret_cast<const void*>(s.bottom), s.size);
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
}

}  // namespace

void sanitizer_back_on_thread_stack() {
  if (!__sanitizer_start_switch_fiber || !__sanitizer_finish_switch_fiber) return;
  if (on_main_stack()) name_main_stack();
}

}  // namespace ssd::tlmx

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SSD_ASAN_BUILD 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SSD_ASAN_BUILD 1
#endif

#ifdef SSD_ASAN_BUILD
// The linker's --wrap=__cxa_throw sends the project's throws here (see the header).
extern "C" {
[[noreturn]] void __real___cxa_throw(void* exception, std::type_info* type, void (*destroy)(void*));
[[noreturn]] void __wrap___cxa_throw(void* exception, std::type_info* type, void (*destroy)(void*)) {
  ssd::tlmx::sanitizer_back_on_thread_stack();
  __real___cxa_throw(exception, type, destroy);
}
}
#endif
