#include "fw/ftl/registry.h"

#include "fw/ftl/demand/demand_ftl.h"
#include "fw/ftl/hybrid/adapt.h"
#include "fw/ftl/hybrid/bast.h"
#include "fw/ftl/hybrid/fast.h"
#include "fw/ftl/hybrid/last.h"
#include "fw/ftl/hybrid/mnk.h"
#include "fw/ftl/hybrid/superblock.h"
#include "fw/ftl/hybrid/waftl.h"
#include "fw/ftl/page_mapping/page_mapping_ftl.h"

namespace ssd::fw {

const std::vector<FtlInfo>& ftl_registry() {
  static const std::vector<FtlInfo> all = {
      {"page_mapping", "pure page mapping: full L2P table, striped write frontiers, greedy GC",
       [](FtlContext& c) { return std::make_unique<PageMappingFtl>(c); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t bits) { PageMappingParams::parse(o, g, bits); }},
      {"dftl", "DFTL: cached mapping table (segmented LRU) over translation pages on flash, one current data block",
       [](FtlContext& c) { return std::make_unique<DemandFtl>(c, DemandVariant::Dftl); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t bits) {
         DemandParams::parse(DemandVariant::Dftl, o, g, bits);
       }},
      {"cast", "CAST: compact run-length mapping cache over translation pages, parallel current data blocks (ABL/IBL)",
       [](FtlContext& c) { return std::make_unique<DemandFtl>(c, DemandVariant::Cast); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t bits) {
         DemandParams::parse(DemandVariant::Cast, o, g, bits);
       }},
      {"bast", "BAST: block-mapped data blocks, one log block per logical block (block-associative)",
       [](FtlContext& c) { return std::make_unique<BastFtl>(c); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t) { BastFtl::parse(o, g); }},
      {"fast", "FAST: sequential log block plus a fully associative FIFO random log area",
       [](FtlContext& c) { return std::make_unique<FastFtl>(c, false); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t) { FastFtl::parse(o, g, false); }},
      {"faster", "FASTer: FAST with a second chance for valid pages of the random area's head",
       [](FtlContext& c) { return std::make_unique<FastFtl>(c, true); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t) { FastFtl::parse(o, g, true); }},
      {"last", "LAST: request-size locality detector, sequential log buffer, hot/cold random log partitions",
       [](FtlContext& c) { return std::make_unique<LastFtl>(c); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t) { LastParams::parse(o, g); }},
      {"adapt",
       "ADAPT: adaptive sequential/random log partition and threshold, HAT-predicted second chances, "
       "aggregated head moves, early reuse of dead log blocks",
       [](FtlContext& c) { return std::make_unique<AdaptFtl>(c); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t) { AdaptParams::parse(o, g); }},
      {"waftl",
       "WAFTL: page-mapped buffer zone flushed whole into page-mapped (frequently written pages) and "
       "block-mapped data blocks",
       [](FtlContext& c) { return std::make_unique<WaftlFtl>(c); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t) { WaftlParams::parse(o, g); }},
      {"mnk",
       "MNK: logical blocks striped over M modules, groups of N sharing up to K log blocks, LRU group "
       "reclaim, recycling of barely written log blocks, module-group load balancing",
       [](FtlContext& c) { return std::make_unique<MnkFtl>(c, MnkVariant::kMnk); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t) { MnkParams::parse(MnkVariant::kMnk, o, g); }},
      {"mcsplit",
       "MCSplit: logical blocks striped over M modules, an exclusive log block each (BAST-like), static "
       "module allocation; MNK's baseline, so its defaults are MNK's (M = channels)",
       [](FtlContext& c) { return std::make_unique<MnkFtl>(c, MnkVariant::kMcSplit); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t) { MnkParams::parse(MnkVariant::kMcSplit, o, g); }},
      {"subgroup",
       "SubGroup: superblocks striped over modules, hot and cold host writes in separate sub-groups of blocks; "
       "MNK's baseline, so its blocks stripe as MNK's (M = channels)",
       [](FtlContext& c) { return std::make_unique<SuperblockFtl>(c, SuperblockVariant::kSubGroup); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t) {
         SuperblockParams::parse(SuperblockVariant::kSubGroup, o, g);
       }},
      {"superblock",
       "SUPERBLOCK: page mapping inside superblocks of N logical blocks, hot/cold blocks, GC per superblock",
       [](FtlContext& c) { return std::make_unique<SuperblockFtl>(c); },
       [](FtlOptions& o, const FlashGeometry& g, std::uint32_t) {
         SuperblockParams::parse(SuperblockVariant::kSuperblock, o, g);
       }},
  };
  return all;
}

const FtlInfo* find_ftl(const std::string& name) {
  for (const auto& f : ftl_registry())
    if (f.name == name) return &f;
  return nullptr;
}

std::string ftl_names() {
  std::string s;
  for (const auto& f : ftl_registry()) s += (s.empty() ? "" : ", ") + f.name;
  return s;
}

}  // namespace ssd::fw
