#include "fw/recovery/oob_recovery.h"

#include <algorithm>

#include "fw/recovery/checkpoint_medium.h"

namespace ssd::fw {

void OobRecovery::visit(Ppn ppn, Lpn lpn, Token token, std::uint32_t version) {
  ++counts_.pages_scanned;
  if (lpn == kUnreadableLpn) {
    ++counts_.unreadable_pages;
    return;
  }
  highest_version_ = std::max(highest_version_, version);
  if (lpn >= found_.size() || token == kUnwrittenToken) {
    ++counts_.padding_pages;
    if (lpn >= found_.size() && lpn < kCheckpointLpn && token != kUnwrittenToken) {
      Found& m = metadata_[lpn];
      if (m.ppn == kNoPpn || version > m.version || (version == m.version && ppn < m.ppn)) m = Found{ppn, token, version};
    }
    return;
  }
  Found& f = found_[lpn];
  if (f.ppn == kNoPpn) {
    f = Found{ppn, token, version};
    ++counts_.pages_recovered;
    return;
  }
  if (version == f.version) {
    ++counts_.duplicate_pages;
    if (token != f.token) ++counts_.version_conflicts;
    if (ppn < f.ppn) f.ppn = ppn;  // copies of one write: the lowest address, whatever the scan's order
    return;
  }
  ++counts_.superseded_pages;
  if (version > f.version) f = Found{ppn, token, version};
}

}  // namespace ssd::fw
