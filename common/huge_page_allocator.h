// An allocator for the simulator's big tables (the NAND array's pages, the L2P table): requests
// of 2 MiB or more are mapped in transparent huge pages where Linux offers them (madvise mode),
// smaller ones come from operator new. A filled 512 GiB drive touches about 800 MiB at start-up;
// taking that in 4 KiB page faults cost more than writing the data (perf: 36% of a 1,000-request
// run in the kernel's page clearing).
#pragma once

#include <cstddef>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ssd {

inline constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;

// Raw memory, zero-filled when it came from the mapping (not from operator new).
inline void* allocate_big(std::size_t bytes) {
#if defined(__linux__)
  if (bytes >= kHugePageBytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without it the memory still works
    return p;
  }
#endif
  return ::operator new(bytes);
}

inline void free_big(void* p, std::size_t bytes) {
#if defined(__linux__)
  if (bytes >= kHugePageBytes) {
    munmap(p, bytes);
    return;
  }
#endif
  (void)bytes;
  ::operator delete(p);
}

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_big(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { free_big(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const HugePageAllocator<U>&) const { return false; }
};

}  // namespace ssd
