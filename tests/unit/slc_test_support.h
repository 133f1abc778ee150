// Shared by the SLC-cache tests of page mapping (test_slc_cache.cpp) and of DFTL/CAST
// (test_demand_slc_cache.cpp): a small TLC drive on the functional platform.
#pragma once

#include <map>
#include <string>

#include "fw_test_support.h"

namespace ssd::test::slc {

constexpr std::uint32_t kBits = 3, kPagesPerBlock = 12, kSlcPages = kPagesPerBlock / kBits, kSectorsPerPage = 8;

// A TLC drive running `ftl`: `planes` planes (two a die, a die a channel) of 64 blocks of 12 pages
// (4 word lines of 3) of 4 KiB; an SLC-mode block holds 4 pages. Idle folding off unless
// `options` say otherwise.
inline platform::FunctionalDriveConfig tlc_drive(const std::string& ftl, std::uint32_t planes,
                                                 std::map<std::string, std::string> options, std::uint64_t seed) {
  platform::FunctionalDriveConfig c;
  c.geometry.channels = planes > 1 ? planes / 2 : 1;
  c.geometry.ways = 1;
  c.geometry.planes_per_die = planes > 1 ? 2 : 1;
  c.geometry.blocks_per_plane = 64;
  c.geometry.pages_per_block = kPagesPerBlock;
  c.geometry.page_bytes = 4096;
  c.firmware.word_line_pages = kBits;
  c.firmware.ftl = ftl;
  options.emplace("slc_idle_fold_ms", "0");
  c.firmware.ftl_options = fw::FtlOptions(options);
  c.completion_seed = seed;
  return c;
}

// The same with each FTL family's defaults for these tests: page mapping 25% over-provisioned, GC
// below 4 free blocks a plane; DFTL and CAST 30%, GC below 6 free segments (CAST's least: its 4
// current blocks' reserve + 1), with a mapping cache that holds every mapping unless `options`
// say otherwise (no translation page is written back, so the programs are the data's).
inline platform::FunctionalDriveConfig drive_for(const std::string& ftl, std::uint32_t planes,
                                                 std::map<std::string, std::string> options, std::uint64_t seed = 0) {
  const bool page_mapping = ftl == "page_mapping";
  options.emplace("overprovisioning", page_mapping ? "0.25" : "0.3");
  options.emplace(page_mapping ? "gc_threshold_blocks" : "gc_threshold_segments", page_mapping ? "4" : "6");
  return tlc_drive(ftl, planes, std::move(options), seed);
}

inline std::uint64_t counter(platform::FunctionalDrive& d, const char* name) {
  return d.metrics().set("ftl").counter(name);
}

// Writes pages [0, pages) once, in order, `chunk` pages a request at QD4.
inline void write_sequentially(platform::FunctionalDrive& drive, stimuli::IntegrityOracle& oracle, std::uint64_t pages,
                               std::uint32_t chunk = 2) {
  SequentialFill fill(pages * kSectorsPerPage, chunk * kSectorsPerPage);
  platform::replay_functional(drive, fill, oracle, 4);
}

}  // namespace ssd::test::slc
