// The power-cut audit's rule (stimuli/durability_tracker.h), on hand-made flash contents: a
// durable write must be found, a non-durable one may be lost, content never written is garbage.
#include <catch2/catch.hpp>

#include <map>

#include "stimuli/durability_tracker.h"

using namespace ssd;
using stimuli::DurabilityTracker;
using stimuli::IntegrityOracle;

namespace {

struct Host {
  IntegrityOracle oracle{64, 4096};
  DurabilityTracker tracker;
  std::uint32_t next_tag = 0;
  explicit Host(bool volatile_cache) : tracker(oracle, volatile_cache) {}
  // A whole-page write of `lpn`, acknowledged (fua or not); returns its token.
  Token write(Lpn lpn, bool fua = false, bool acknowledge = true) {
    std::vector<Token> t;
    oracle.make_write_tokens(lpn * 8, 8, t);
    const std::uint32_t tag = next_tag++;
    tracker.write_issued(tag, lpn * 8, 8, t.data());
    if (acknowledge) {
      oracle.acknowledge_write(lpn * 8, 8, t.data());
      tracker.write_acknowledged(tag, fua);
    }
    return t[0];
  }
  void flush() {
    const std::uint32_t tag = next_tag++;
    tracker.flush_issued(tag);
    tracker.flush_completed(tag);
  }
};

// `flash`: the readable pages, each logical page's in the order it was written (its last is the
// one recovery reads back, as the highest OOB version would be).
stimuli::DurabilityAudit audit(const Host& h, const std::multimap<Lpn, Token>& flash, std::uint64_t unreadable = 0) {
  std::map<Lpn, Token> recovered;
  for (const auto& [lpn, token] : flash) recovered[lpn] = token;
  return h.tracker.audit(
      [&](const DurabilityTracker::PageVisitor& visit) {
        for (const auto& [lpn, token] : flash) visit(lpn, token);
        return unreadable;
      },
      [&](Lpn lpn) {
        const auto r = recovered.find(lpn);
        return r == recovered.end() ? kUnwrittenToken : r->second;
      });
}

}  // namespace

TEST_CASE("Durability audit: with a volatile cache only flushed and FUA writes must survive", "[durability]") {
  Host h(true);
  const Token a1 = h.write(1), b = h.write(2, true), c = h.write(3);
  h.flush();                   // a1 and c durable now
  const Token a2 = h.write(1);  // acknowledged, not durable
  const Token d = h.write(4);   // acknowledged, not durable, never reached the flash
  (void)d;
  // The flash holds a1 (page 1's durable content), b, c: all durable content found.
  const auto ok = audit(h, {{1, a1}, {2, b}, {3, c}});
  CHECK(ok.ok());
  CHECK(ok.acknowledged_not_durable == 2);
  CHECK(ok.acknowledged_lost == 2);
  // Page 1's later content instead of its durable one is allowed; page 3's durable one gone is not.
  const auto later = audit(h, {{1, a2}, {2, b}});
  CHECK(later.durable_pages_lost == 1);
  CHECK_THAT(later.first_problem, Catch::Contains("logical page 3"));
  // A FUA write lost is a durable loss too.
  CHECK(audit(h, {{1, a1}, {3, c}}).durable_pages_lost == 1);
  // Content the host never wrote to a page is garbage, also on a page not written in the run.
  CHECK(audit(h, {{1, a1}, {2, b}, {3, c}, {3, 12345}}).garbage_pages == 1);
  CHECK(audit(h, {{1, a1}, {2, b}, {3, c}, {9, 777}}).garbage_pages == 1);
  // An older version left on the flash (a stale copy) is no garbage.
  CHECK(audit(h, {{1, a1}, {1, a2}, {2, b}, {3, c}}).ok());
}

TEST_CASE("Durability audit: a flush covers only the writes acknowledged before it", "[durability]") {
  Host h(true);
  const std::uint32_t flush_tag = 99;
  const Token before = h.write(5);
  h.tracker.flush_issued(flush_tag);
  const Token after = h.write(6);  // acknowledged while the flush ran
  h.tracker.flush_completed(flush_tag);
  CHECK(audit(h, {{5, before}}).ok());            // 6 was never durable
  CHECK(audit(h, {{6, after}}).durable_pages_lost == 1);  // 5 was
}

TEST_CASE("Durability audit: without a volatile cache every acknowledged write is durable", "[durability]") {
  Host h(false);
  const Token a = h.write(7);
  CHECK(audit(h, {{7, a}}).ok());
  CHECK(audit(h, {}).durable_pages_lost == 1);
  // A write still in flight may or may not have reached the flash.
  Host g(false);
  const Token x = g.write(8, false, false);
  CHECK(audit(g, {}).ok());
  CHECK(audit(g, {{8, x}}).ok());
  CHECK(audit(g, {{8, x}}).in_flight_page_writes == 1);
}

TEST_CASE("Durability audit: recovery must read back the durable content or a later one, never an older one",
          "[durability][recovery]") {
  // Both versions of page 1 are on the flash; which one the recovery picks decides. A stale copy
  // that wins (an old version made after the new one, e.g. by a GC copy, without the OOB's
  // version to tell them apart) loses the durable write although it is still on the flash.
  Host h(true);
  const Token a1 = h.write(1, true);
  const Token a2 = h.write(1, true);
  CHECK(audit(h, {{1, a1}, {1, a2}}).ok());
  const auto stale = audit(h, {{1, a2}, {1, a1}});  // a1 recovered
  CHECK(stale.durable_pages_lost == 0);
  CHECK(stale.recovery_mismatches == 1);
  CHECK_FALSE(stale.ok());
  // Not durable yet: recovering the durable a2 or the new a3 is fine, a1 (a third version) is not.
  const Token a3 = h.write(1);
  CHECK(audit(h, {{1, a2}}).ok());
  CHECK(audit(h, {{1, a2}, {1, a3}}).ok());
  CHECK(audit(h, {{1, a3}, {1, a2}, {1, a1}}).recovery_mismatches == 1);
  // A page the run never wrote must read back its baseline (here: nothing).
  CHECK(audit(h, {{1, a2}, {9, a1}}).recovery_mismatches == 1);
}
