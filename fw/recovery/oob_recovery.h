// Rebuilding the logical-to-physical map from the flash's spare areas after a power cut, as a
// drive's recovery does when its mapping tables were in the DRAM the cut lost: every readable
// page's OOB carries its logical page and a sequence number (the version of its data: a host
// write's, kept by every copy GC or a merge makes of it; fw/runtime/op_scheduler.h), and each
// logical page is where its highest version is. Equal versions are copies of one write.
// Skipped: pages left unreadable (a program or erase the cut interrupted, a lower page its upper
// page's program took along), pages with no data (padding: an address beyond the drive's logical
// pages, or the never-written token a merge pads with), and metadata (translation pages). Of the
// copies of one version (a GC copy whose source was not yet erased), the one at the lowest
// physical address is kept, so the map does not depend on the order the pages are read in.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "common/geometry.h"

namespace ssd::fw {

struct OobRecoveryCounts {
  std::uint64_t pages_scanned = 0;     // programmed pages whose OOB was read
  std::uint64_t unreadable_pages = 0;  // torn, paired or erase-cut: discarded
  std::uint64_t padding_pages = 0;     // no data, or metadata beyond the logical pages
  std::uint64_t superseded_pages = 0;  // an older version of a page found later in the scan, or one before it
  std::uint64_t duplicate_pages = 0;   // a second copy of the same version (a copy whose source was not yet erased)
  std::uint64_t version_conflicts = 0; // equal versions with different data: the firmware's bug, must be 0
  std::uint64_t pages_recovered = 0;   // logical pages found on the flash
};

class OobRecovery {
 public:
  explicit OobRecovery(Lpn logical_pages) : found_(logical_pages) {}

  // One programmed page's spare area (lpn kUnreadableLpn when it cannot be read).
  void visit(Ppn ppn, Lpn lpn, Token token, std::uint32_t version);

  // Where recovery puts a logical page (kNoPpn: not on the flash), and its data.
  Ppn ppn_of(Lpn lpn) const { return found_[lpn].ppn; }
  Token token_of(Lpn lpn) const { return found_[lpn].ppn == kNoPpn ? kUnwrittenToken : found_[lpn].token; }
  const OobRecoveryCounts& counts() const { return counts_; }

  // The newest readable version of each of the FTL's own metadata pages (an OOB logical page
  // beyond the host's and below the firmware's markers: a translation page), for an FTL that
  // mounts the recovered flash (Ftl::mount). Counted as padding above.
  struct Found {
    Ppn ppn = kNoPpn;
    Token token = kUnwrittenToken;
    std::uint32_t version = 0;
  };
  const std::unordered_map<Lpn, Found>& metadata() const { return metadata_; }
  // The highest sequence number on the flash: the firmware that mounts it numbers on from there.
  std::uint32_t highest_version() const { return highest_version_; }

 private:
  std::vector<Found> found_;
  std::unordered_map<Lpn, Found> metadata_;
  std::uint32_t highest_version_ = 0;
  OobRecoveryCounts counts_;
};

}  // namespace ssd::fw
