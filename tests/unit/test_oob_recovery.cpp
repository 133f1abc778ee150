// Rebuilding the mapping from the OOB after a power cut (fw/recovery/oob_recovery.h): the highest
// version of each logical page wins wherever it is in the scan; unreadable pages and pages with no
// data are set aside; copies of one version are duplicates, not conflicts.
#include <catch2/catch.hpp>

#include "fw/recovery/oob_recovery.h"

using namespace ssd;
using fw::OobRecovery;

TEST_CASE("OOB recovery: each logical page is where its highest version is", "[recovery]") {
  OobRecovery r(16);
  r.visit(100, 3, 0xa2, 7);  // the newer version first in the scan
  r.visit(101, 3, 0xa1, 4);  // an older one after it (a stale page not yet erased)
  r.visit(102, 5, 0xb1, 2);
  r.visit(103, 5, 0xb2, 9);  // newer, later in the scan
  r.visit(104, 5, 0xb2, 9);  // a GC copy of it whose source is not erased yet
  r.visit(105, kUnreadableLpn, kUncorrectableToken, 0);  // torn by the cut
  r.visit(106, kPaddingLpn, 0x77, 10);                    // word-line padding
  r.visit(107, 6, kUnwrittenToken, 0);                    // a merge's padding for a never-written page
  r.visit(108, 0x80000001u, 0x55, 11);                    // metadata beyond the logical pages
  CHECK(r.ppn_of(3) == 100);
  CHECK(r.token_of(3) == 0xa2);
  CHECK(r.ppn_of(5) == 103);
  CHECK(r.token_of(5) == 0xb2);
  CHECK(r.ppn_of(6) == kNoPpn);
  CHECK(r.token_of(6) == kUnwrittenToken);
  const fw::OobRecoveryCounts& c = r.counts();
  CHECK(c.pages_scanned == 9);
  CHECK(c.pages_recovered == 2);
  CHECK(c.superseded_pages == 2);
  CHECK(c.duplicate_pages == 1);
  CHECK(c.version_conflicts == 0);
  CHECK(c.unreadable_pages == 1);
  CHECK(c.padding_pages == 3);
}

TEST_CASE("OOB recovery: equal versions with different data are a conflict", "[recovery]") {
  OobRecovery r(4);
  r.visit(10, 1, 0x11, 3);
  r.visit(11, 1, 0x12, 3);
  CHECK(r.counts().version_conflicts == 1);
  CHECK(r.token_of(1) == 0x11);  // the first found stays
}

TEST_CASE("OOB recovery: of the copies of one version, the lowest address is kept, in any scan order", "[recovery]") {
  // A GC copy (page 40) of version 7 whose source (page 12) was not yet erased, and an older
  // version elsewhere: the map is the same whichever page the scan reads first.
  OobRecovery forward(4), backward(4);
  for (Ppn ppn : {5u, 12u, 40u}) forward.visit(ppn, 2, ppn == 5 ? 0x20 : 0x27, ppn == 5 ? 6 : 7);
  for (Ppn ppn : {40u, 12u, 5u}) backward.visit(ppn, 2, ppn == 5 ? 0x20 : 0x27, ppn == 5 ? 6 : 7);
  for (const OobRecovery* r : {&forward, &backward}) {
    CHECK(r->ppn_of(2) == 12);
    CHECK(r->token_of(2) == 0x27);
    CHECK(r->counts().duplicate_pages == 1);
    CHECK(r->counts().superseded_pages == 1);
  }
}
