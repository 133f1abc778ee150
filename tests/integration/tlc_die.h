// The TLC consumer platform cut down to one die, for the SLC-cache tests (test_slc_cache.cpp,
// test_write_cliff.cpp): 4 planes of 64 blocks of 768 pages (256 one-shot word lines of 3) of 16
// KiB; an SLC-mode block holds 256 pages. Idle power states off (a wake-up would shift the times).
#pragma once

#include <string>
#include <vector>

#include "cli_support.h"

namespace ssd::cli {

// The dynamic cache's floor is 2 blocks a plane (DFTL, CAST: segments); GC runs below 4 free blocks
// a plane (page mapping, 25% over-provisioned) or 4 and 7 free segments (DFTL, CAST, 30%: CAST's
// four current blocks need a reserve of 5 and more spare segments).
inline double tlc_die_gc_threshold(const std::string& ftl) { return ftl == "cast" ? 7 : 4; }

inline std::vector<std::string> one_tlc_die(const std::string& ftl, const std::vector<std::string>& more) {
  const bool page_mapping = ftl == "page_mapping";
  const std::string threshold = std::to_string(int(tlc_die_gc_threshold(ftl)));
  std::vector<std::string> args = {
      "-p",
      source_path("platforms/tlc_consumer_256g.yaml"),
      "--ftl",
      ftl,
      "--set",
      "geometry.channels=1",
      "--set",
      "geometry.ways=1",
      "--set",
      "geometry.blocks_per_plane=64",
      "--set",
      page_mapping ? "ftl.gc_threshold_blocks=" + threshold : "ftl.gc_threshold_segments=" + threshold,
      "--set",
      "ftl.slc_cache=dynamic",
      "--set",
      "ftl.slc_blocks=2",
      "--set",
      page_mapping ? "ftl.overprovisioning=0.25" : "ftl.overprovisioning=0.3",
      "--set",
      "power.apst=false",
      "--set",
      "power.aspm=false",
      "--precondition",
      "none"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace ssd::cli
