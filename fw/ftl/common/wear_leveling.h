// Wear leveling (firmware.wear_leveling), done where every FTL takes and reclaims its blocks
// (fw/ftl/common/segment_space.h), so each FTL gets it without code of its own:
//   dynamic  a free block (segment) is taken by lowest erase count, not last freed first, so
//            the blocks that turn over wear evenly;
//   static   dynamic, and when the erase counts of a GC's scope spread wider than `spread`, its
//            victim is the least-erased closed block that holds data instead of the greedy one:
//            the cold data sitting on a young block moves, and the block goes back to the pool.
//            Only FTLs that reclaim by victim choice (page mapping, DFTL, CAST); the hybrids
//            merge by logical block and get dynamic leveling only (their papers level no wear).
// Erase counts are the firmware's own (a block's count is part of its record); an aged drive's
// (--precondition ...+pe:N) are handed to it at start, as persisted block metadata would be.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssd::fw {

struct WearLeveling {
  enum class Mode : std::uint8_t { None, Dynamic, Static };
  Mode mode = Mode::None;
  std::uint32_t spread = 100;  // static: the erase-count spread that makes a cold block the victim
};

inline const std::vector<std::string>& wear_leveling_names() {
  static const std::vector<std::string> names = {"none", "dynamic", "static"};
  return names;
}
inline WearLeveling::Mode wear_leveling_mode(const std::string& name) {
  const auto& n = wear_leveling_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return static_cast<WearLeveling::Mode>(i);
  throw std::invalid_argument("unknown wear leveling '" + name + "' (none, dynamic, static)");
}

}  // namespace ssd::fw
