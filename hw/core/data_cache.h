// A core's L1 data cache in front of the system bus (the ISS core's loads and stores; the annotated
// core's table accesses with core.annotated_dcache): set-associative, least recently used
// replacement, write-back and write-allocate, as a Cortex-R5's L1 data cache runs on normal
// write-back memory (ARM DDI 0460D, Cortex-R5 TRM chapter 8: 4-way, 32-byte lines, 4-64 KiB).
// It decides timing only: a hit costs no bus transaction, a miss fills its line with one burst
// over the bus (after writing back a dirty victim). The bytes themselves live in the ISS's
// memory, so what the DMA engines and the register models read is always current; the cache
// maintenance a real firmware does around descriptors and DMA buffers is not modeled.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace ssd::hw {

// The Cortex-R5's L1 data cache geometry (its size is the platform's: core.dcache_kib).
inline constexpr std::uint32_t kCortexR5CacheWays = 4, kCortexR5CacheLineBytes = 32;

class DataCache {
 public:
  // `bytes` = 0: no cache (every access goes to the bus).
  DataCache(std::uint32_t bytes, std::uint32_t ways, std::uint32_t line_bytes)
      : ways_(ways), line_bytes_(line_bytes), sets_(bytes && ways && line_bytes ? bytes / (ways * line_bytes) : 0) {
    if (bytes && (sets_ == 0 || sets_ * ways * line_bytes != bytes || (line_bytes & (line_bytes - 1)) != 0))
      throw std::invalid_argument("data cache of " + std::to_string(bytes) + " bytes cannot be " + std::to_string(ways) +
                                  "-way with " + std::to_string(line_bytes) + "-byte lines");
    lines_.resize(std::size_t(sets_) * ways_);
    while ((1u << line_shift_) < line_bytes) ++line_shift_;
    set_mask_ = sets_ && (sets_ & (sets_ - 1)) == 0 ? sets_ - 1 : 0;
  }
  bool enabled() const { return sets_ != 0; }
  std::uint32_t line_bytes() const { return line_bytes_; }

  struct Outcome {
    bool hit = true;
    bool writeback = false;          // a dirty line was evicted: write it back first
    std::uint64_t writeback_line = 0;  // its first byte's address
    std::uint64_t fill_line = 0;       // the line to fill on a miss
  };
  Outcome access(std::uint64_t address, bool write) {
    // Shifts and masks, not divisions: the lookup runs for every firmware access.
    const std::uint64_t tag = address >> line_shift_;
    Line* set = &lines_[std::size_t(set_mask_ ? tag & set_mask_ : tag % sets_) * ways_];
    ++clock_;
    Line* victim = set;
    for (std::uint32_t w = 0; w < ways_; ++w) {
      Line& l = set[w];
      if (l.valid && l.tag == tag) {
        l.used = clock_;
        l.dirty |= write;
        return {};
      }
      if (!l.valid || (victim->valid && l.used < victim->used)) victim = &l;
    }
    Outcome o;
    o.hit = false;
    o.writeback = victim->valid && victim->dirty;
    o.writeback_line = victim->tag * line_bytes_;
    o.fill_line = tag * line_bytes_;
    *victim = Line{tag, clock_, true, write};
    return o;
  }

 private:
  struct Line {
    std::uint64_t tag = 0, used = 0;
    bool valid = false, dirty = false;
  };
  std::uint32_t ways_, line_bytes_, sets_;
  std::uint32_t line_shift_ = 0, set_mask_ = 0;  // set_mask_: sets_ - 1 when a power of two, else 0
  std::vector<Line> lines_;
  std::uint64_t clock_ = 0;
};

}  // namespace ssd::hw
