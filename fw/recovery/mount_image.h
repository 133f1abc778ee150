// What the firmware that takes over the drive after a power cut finds on it (Ftl::mount): the
// mapping its boot rebuilt from the flash (fw/recovery/boot_recovery.h) and which blocks hold
// pages (a mount writes none of them further, so how far each is written does not matter). A mount turns that into the FTL's own tables, as real firmware does once its
// recovery has run, so the workload can go on (--after-recovery continue).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/geometry.h"
#include "fw/recovery/oob_recovery.h"

namespace ssd::fw {

struct MountImage {
  const OobRecovery& map;                           // each logical page's newest readable version
  const std::vector<bool>& written;  // per block: holds pages (BootScan::written)
  // Each block's erase count, as the firmware keeps it in the block's spare area and reads it
  // back with the scan, and the blocks gone bad before the cut (worn out before the run, or
  // failed in it), as its bad-block table on flash holds them.
  std::function<std::uint32_t(BlockId)> erase_count;
  std::vector<BlockId> bad_blocks;
};

}  // namespace ssd::fw
