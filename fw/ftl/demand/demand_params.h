// Parameters of the demand-based page-mapping FTLs (DFTL and CAST), read and checked from the
// FTL options (also by `ssdsim validate`).
#pragma once

#include <cstdint>
#include <string>

#include "fw/ftl/common/segment_space.h"
#include "fw/ftl/common/slc_cache.h"
#include "fw/ftl/demand/data_placement.h"
#include "fw/ftl/demand/mapping_cache.h"
#include "fw/ftl/ftl_options.h"

namespace ssd::fw {

enum class DemandVariant : std::uint8_t { Dftl, Cast };

struct DemandParams {
  DemandVariant variant = DemandVariant::Dftl;
  double overprovisioning = 0.07;
  std::uint32_t segment_planes = 1;
  std::uint32_t gc_reserve_segments = 2;
  std::uint32_t gc_threshold_segments = 4;
  VictimPolicy victim_policy = VictimPolicy::CostBenefit;
  MappingCacheConfig cache;
  PlacementPolicy placement = PlacementPolicy::Single;
  std::uint32_t current_blocks = 1;
  std::uint64_t new_block_distance = 0;
  bool write_miss_waits = true;        // a write whose mapping misses waits for its translation page
  bool share_translation_reads = true; // misses on one translation page share its in-flight read
  bool gc_copies_to_current = true;    // GC copies go into a current data block (the papers), else a GC block
  bool gc_paced = true;                // data victims' copies paced with host writes (see demand_ftl.h)
  bool gc_write_back_paced = true;     // GC's mapping updates written back in step with host writes
  SlcCacheParams slc;                  // an SLC cache of SLC-mode segments (fw/ftl/common/slc_cache.h)
  Lpn logical_pages = 0;
  std::uint32_t segments = 0;          // derived

  // Throws FtlOptionError naming the parameter; rejects parameters it does not know.
  static DemandParams parse(DemandVariant variant, FtlOptions& options, const FlashGeometry& geometry,
                            std::uint32_t bits_per_cell);
  std::uint32_t plane_groups(const FlashGeometry& g) const { return g.total_planes() / segment_planes; }
};

}  // namespace ssd::fw
