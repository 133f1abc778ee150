// Data tokens: 32-bit stand-ins for page contents, so the integrity oracle can check every read
// without storing page data. The host makes one per logical page per write; a partial-page
// write becomes a read-modify-write whose result is merge_tokens(old page, new part), which the
// host can predict and the firmware can only produce by really reading the old page first.
#pragma once

#include <cstdint>

#include "common/geometry.h"

namespace ssd {

// MurmurHash3's 64-bit finalizer: a bijection that spreads every input bit over the output.
inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

inline Token mix_token(std::uint64_t x) {
  Token t = static_cast<Token>(mix64(x));
  return t == kUnwrittenToken || t == kUncorrectableToken ? 1u : t;  // never "unwritten" or "uncorrectable"
}

// Token of a host write of `lpn` with host write sequence number `seq`.
inline Token write_token(Lpn lpn, std::uint64_t seq) { return mix_token((seq << 32) ^ lpn ^ 0x5bd1e995ULL); }

// Content of a page after writing part of it: depends on both the old content and the new part.
// An old page that could not be read stays unreadable (the firmware writes it marked so).
inline Token merge_tokens(Token old_page, Token new_part) {
  if (old_page == kUncorrectableToken) return kUncorrectableToken;
  return mix_token((std::uint64_t(old_page) << 32) | new_part);
}

}  // namespace ssd
