// What the host may expect of each logical page after a power cut (common/host_op.h): the last
// content that was durable, and every content written since that may or may not have reached
// the flash.
//
// A write is durable once it completed on a drive without a volatile write cache (every write is
// on the flash when it completes), once it completed with Force Unit Access, or once a flush
// submitted after it completed. After a cut each logical page must still hold its last durable
// content, or one written after it (acknowledged or still in flight: it may have reached the
// flash); a content the host never wrote to that page is garbage ("never written", the state of
// every page when the drive was new, is none). audit() checks the flash
// itself against that rule, page by page, as any recovery would find it: the durable content
// (or a later one) must be readable somewhere on the flash under the page's logical address; and
// what the drive's recovery reads back for each logical page (fw/recovery/oob_recovery.h: its
// highest OOB version) must be that content or a later one, never an older one.
//
// The history (every content each page held during the run) is kept only for pages written during
// the run; the others must hold their baseline (the preconditioning's, or nothing).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/geometry.h"
#include "stimuli/integrity_oracle.h"

namespace ssd::stimuli {

struct DurabilityAudit {
  std::uint64_t pages_written = 0;        // logical pages written during the run
  std::uint64_t durable_pages_lost = 0;   // durable content (nor a later one; before the run: its baseline) found nowhere: must be 0
  std::uint64_t garbage_pages = 0;        // readable flash pages holding content never written there: must be 0
  std::uint64_t acknowledged_not_durable = 0;  // page writes acknowledged but not durable at the cut
  std::uint64_t acknowledged_lost = 0;    // of them, on no readable flash page (lost with the DRAM)
  std::uint64_t in_flight_page_writes = 0;  // page writes submitted and not completed at the cut
  std::uint64_t unreadable_pages = 0;     // flash pages left unreadable (torn, paired, erase cut)
  std::uint64_t recovery_mismatches = 0;  // logical pages recovery reads back older or foreign content for: must be 0
  std::string first_problem;              // the first durable loss or garbage, named
  bool ok() const { return durable_pages_lost == 0 && garbage_pages == 0 && recovery_mismatches == 0; }
};

class DurabilityTracker {
 public:
  // volatile_cache: the drive acknowledges writes before they are on the flash (a write buffer
  // without power-loss protection), so only flushes and FUA make them durable.
  DurabilityTracker(const IntegrityOracle& oracle, bool volatile_cache);

  // The host model's events. A write's tokens are the host's (the new part for partial pages);
  // `acknowledged` runs after the oracle took the write (its expected content is the page's).
  void write_issued(std::uint32_t tag, std::uint64_t lba, std::uint32_t sectors, const Token* tokens);
  void write_acknowledged(std::uint32_t tag, bool fua);
  void write_rejected(std::uint32_t tag);
  void flush_issued(std::uint32_t tag);
  void flush_completed(std::uint32_t tag);

  // `scan_flash(visit)` calls visit(lpn, token) for every readable data page on the flash (lpn
  // below the drive's logical pages) and returns how many pages it found unreadable.
  // `recovered(lpn)`: the content the drive's recovery reads back for lpn (kUnwrittenToken: none).
  using PageVisitor = std::function<void(Lpn, Token)>;
  DurabilityAudit audit(const std::function<std::uint64_t(const PageVisitor&)>& scan_flash,
                        const std::function<Token(Lpn)>& recovered) const;

 private:
  struct PageHistory {
    Token durable = kUnwrittenToken;
    std::vector<Token> contents;                          // every content it held, oldest first
    std::vector<std::pair<std::uint64_t, Token>> since;   // acknowledged after `durable`: (ack number, content)
  };
  struct PendingPage {
    Lpn lpn;
    Token part;
    bool partial;
  };
  PageHistory& history(Lpn lpn);

  const IntegrityOracle& oracle_;
  bool volatile_cache_;
  std::unordered_map<Lpn, PageHistory> pages_;
  std::unordered_map<std::uint32_t, std::vector<PendingPage>> in_flight_;  // by host tag
  std::unordered_map<std::uint32_t, std::uint64_t> flushes_;               // by host tag: acks before it
  std::vector<Lpn> with_pending_;  // pages whose `since` may be non-empty
  std::uint64_t acks_ = 0;
};

}  // namespace ssd::stimuli
