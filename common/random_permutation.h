// A pseudo-random permutation of [0, n) evaluated point by point, in O(1) memory: a 4-round
// Feistel network on the smallest even number of bits covering n, cycle-walking the values that
// fall outside. Lets a 512 GiB drive's 64 Mi logical pages be dealt out in random order without a
// 256 MiB shuffled array.
#pragma once

#include <cstdint>

namespace ssd {

class RandomPermutation {
 public:
  RandomPermutation(std::uint64_t n, std::uint64_t seed) : n_(n), seed_(seed) {
    while ((std::uint64_t(1) << (2 * half_bits_)) < n) ++half_bits_;
    mask_ = (std::uint64_t(1) << half_bits_) - 1;
  }
  std::uint64_t size() const { return n_; }
  // The image of i (< n); distinct i give distinct images, all < n.
  std::uint64_t operator()(std::uint64_t i) const {
    do i = feistel(i);
    while (i >= n_);  // at most a few steps: the domain is under 4n
    return i;
  }

 private:
  std::uint64_t feistel(std::uint64_t x) const {
    std::uint64_t left = x >> half_bits_, right = x & mask_;
    for (std::uint64_t round = 0; round < 4; ++round) {
      const std::uint64_t f = splitmix((seed_ << 8 | round) * 0x9e3779b97f4a7c15ULL ^ right) & mask_;
      const std::uint64_t next = left ^ f;
      left = right;
      right = next;
    }
    return (left << half_bits_) | right;
  }
  static std::uint64_t splitmix(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t n_, seed_, mask_ = 0;
  std::uint32_t half_bits_ = 1;
};

}  // namespace ssd
