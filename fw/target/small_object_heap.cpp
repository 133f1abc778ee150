// The image's operator new and delete: blocks up to 512 bytes come from size-class free lists,
// larger ones from picolibc's malloc.
//
// Why: picolibc's malloc keeps one first-fit free list and walks it on every call. The
// firmware's containers allocate and free small nodes on every operation (hash-map nodes, the
// scheduler's callbacks), so the list grows with the heap's fragments: the ISS measured malloc
// and free taking 92% of SUPERBLOCK's cycles on the default platform (175 k cycles a 4 KiB
// write) and 2-18% of every FTL's on tiny. Embedded firmware allocates such objects from pools;
// so does this image, in constant time. A block carries an 8-byte header (its class, so delete
// needs no size; 8 keeps the alignment malloc gives); pools take 4 KiB chunks from malloc and
// never give them back (the firmware's working set only grows to its high-water mark).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t kHeaderBytes = 8;
constexpr std::size_t kChunkBytes = 4096;
// Block sizes, header included: steps of a quarter to a half, so at most a third is wasted.
constexpr std::size_t kClassBytes[] = {16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512};
constexpr std::size_t kClasses = sizeof kClassBytes / sizeof kClassBytes[0];
constexpr std::size_t kLargestBytes = kClassBytes[kClasses - 1];
constexpr std::uint32_t kFromMalloc = 0xffffffffu;

struct FreeBlock {
  FreeBlock* next;
};
FreeBlock* free_lists[kClasses];

// The class of a block of `bytes` (header included), by its size in 8-byte units.
struct ClassTable {
  std::uint8_t of_units[kLargestBytes / 8 + 1];
  constexpr ClassTable() : of_units() {
    std::size_t c = 0;
    for (std::size_t units = 0; units <= kLargestBytes / 8; ++units) {
      while (kClassBytes[c] < units * 8) ++c;
      of_units[units] = static_cast<std::uint8_t>(c);
    }
  }
};
constexpr ClassTable kClassOf;

bool refill(std::size_t c) {
  auto* chunk = static_cast<unsigned char*>(std::malloc(kChunkBytes));
  if (!chunk) return false;
  const std::size_t size = kClassBytes[c];
  for (std::size_t offset = 0; offset + size <= kChunkBytes; offset += size) {
    auto* block = reinterpret_cast<FreeBlock*>(chunk + offset);
    block->next = free_lists[c];
    free_lists[c] = block;
  }
  return true;
}

void* allocate(std::size_t bytes) noexcept {
  const std::size_t total = bytes + kHeaderBytes;
  unsigned char* base;
  std::uint32_t tag;
  if (total > kLargestBytes) {
    base = static_cast<unsigned char*>(std::malloc(total));
    if (!base) return nullptr;
    tag = kFromMalloc;
  } else {
    const std::size_t c = kClassOf.of_units[(total + 7) / 8];
    if (!free_lists[c] && !refill(c)) return nullptr;
    FreeBlock* block = free_lists[c];
    free_lists[c] = block->next;
    base = reinterpret_cast<unsigned char*>(block);
    tag = static_cast<std::uint32_t>(c);
  }
  *reinterpret_cast<std::uint32_t*>(base) = tag;
  return base + kHeaderBytes;
}

void release(void* p) noexcept {
  if (!p) return;
  unsigned char* base = static_cast<unsigned char*>(p) - kHeaderBytes;
  const std::uint32_t tag = *reinterpret_cast<std::uint32_t*>(base);
  if (tag == kFromMalloc) {
    std::free(base);
    return;
  }
  auto* block = reinterpret_cast<FreeBlock*>(base);
  block->next = free_lists[tag];
  free_lists[tag] = block;
}

void* allocate_or_throw(std::size_t bytes) {
  if (void* p = allocate(bytes)) return p;
  throw std::bad_alloc();
}

}  // namespace

void* operator new(std::size_t bytes) { return allocate_or_throw(bytes); }
void* operator new[](std::size_t bytes) { return allocate_or_throw(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept { return allocate(bytes); }
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept { return allocate(bytes); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
