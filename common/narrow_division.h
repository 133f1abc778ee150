// 64-bit by 32-bit division (and 64-bit to double conversion, below) as the firmware's core does
// it fast. The Cortex-R5 divides 32 bits in hardware (a few cycles) but 64 bits in a software
// routine (__aeabi_uldivmod: hundreds of instructions, more the larger the operands; 39% of a
// 4 KiB read's instructions on the default drive before this). Counters and sector addresses
// kept 64-bit for headroom almost always fit 32 bits: they are divided in 32 bits then. Same
// results as n / d and n % d on every host.
#pragma once

#include <cstdint>

namespace ssd {

inline std::uint64_t quotient_of(std::uint64_t n, std::uint32_t d) {
  return n >> 32 ? n / d : static_cast<std::uint32_t>(n) / d;
}
inline std::uint32_t remainder_of(std::uint64_t n, std::uint32_t d) {
  return static_cast<std::uint32_t>(n >> 32 ? n % d : static_cast<std::uint32_t>(n) % d);
}

// A 64-bit count as a double the same way: the core's VFP converts 32-bit integers in one
// instruction, 64-bit ones in a software routine (__aeabi_ul2d, about 150 cycles; the write
// buffer's occupancy integral spent 340 cycles a 4 KiB write in it). Exact, as double(n) is,
// below 2^53.
inline double as_double(std::uint64_t n) {
  return double(static_cast<std::uint32_t>(n >> 32)) * 4294967296.0 + double(static_cast<std::uint32_t>(n));
}

}  // namespace ssd
