#include "stimuli/durability_tracker.h"

#include <algorithm>

#include "common/host_addressing.h"

namespace ssd::stimuli {

DurabilityTracker::DurabilityTracker(const IntegrityOracle& oracle, bool volatile_cache)
    : oracle_(oracle), volatile_cache_(volatile_cache) {}

DurabilityTracker::PageHistory& DurabilityTracker::history(Lpn lpn) {
  auto [it, fresh] = pages_.try_emplace(lpn);
  if (fresh) {  // what it held before the run: durable (preconditioning's data, or nothing)
    it->second.durable = oracle_.expected(lpn);
    it->second.contents.push_back(it->second.durable);
  }
  return it->second;
}

void DurabilityTracker::write_issued(std::uint32_t tag, std::uint64_t lba, std::uint32_t sectors, const Token* tokens) {
  const std::uint32_t page_bytes = oracle_.page_bytes();
  const PageSpan span = page_span(lba, sectors, page_bytes);
  const std::uint64_t page_sectors = page_bytes / kSectorBytes, end = lba + sectors;
  std::vector<PendingPage>& pages = in_flight_[tag];
  pages.clear();
  for (std::uint32_t i = 0; i < span.count; ++i) {
    const Lpn lpn = span.first + i;
    const std::uint64_t page_lba = std::uint64_t(lpn) * page_sectors;
    history(lpn);  // its content before this write is known from now on
    pages.push_back({lpn, tokens[i], lba > page_lba || end < page_lba + page_sectors});
  }
}

void DurabilityTracker::write_acknowledged(std::uint32_t tag, bool fua) {
  auto it = in_flight_.find(tag);
  if (it == in_flight_.end()) return;
  ++acks_;
  for (const PendingPage& p : it->second) {
    PageHistory& h = history(p.lpn);
    const Token now = oracle_.expected(p.lpn);  // the oracle took the write: merged where partial
    h.contents.push_back(now);
    if (!volatile_cache_ || fua) {
      h.durable = now;
      h.since.clear();
    } else {
      if (h.since.empty()) with_pending_.push_back(p.lpn);
      h.since.emplace_back(acks_, now);
    }
  }
  in_flight_.erase(it);
}

void DurabilityTracker::write_rejected(std::uint32_t tag) { in_flight_.erase(tag); }

void DurabilityTracker::flush_issued(std::uint32_t tag) { flushes_[tag] = acks_; }

void DurabilityTracker::flush_completed(std::uint32_t tag) {
  auto f = flushes_.find(tag);
  if (f == flushes_.end()) return;
  const std::uint64_t covered = f->second;  // writes acknowledged before the flush was submitted
  flushes_.erase(f);
  std::vector<Lpn> still;
  for (const Lpn lpn : with_pending_) {
    PageHistory& h = pages_.at(lpn);
    auto first_after =
        std::find_if(h.since.begin(), h.since.end(), [covered](const auto& v) { return v.first > covered; });
    if (first_after != h.since.begin()) {
      h.durable = std::prev(first_after)->second;
      h.since.erase(h.since.begin(), first_after);
    }
    if (!h.since.empty()) still.push_back(lpn);
  }
  with_pending_.swap(still);
}

DurabilityAudit DurabilityTracker::audit(const std::function<std::uint64_t(const PageVisitor&)>& scan_flash,
                                         const std::function<Token(Lpn)>& recovered) const {
  DurabilityAudit a;
  a.pages_written = pages_.size();
  // Contents a page may hold after the cut beyond its durable one: what was acknowledged since,
  // and what writes in flight would have made of any content it held (a partial page merges).
  std::unordered_map<Lpn, std::vector<Token>> in_flight;
  for (const auto& [tag, pages] : in_flight_)
    for (const PendingPage& p : pages) {
      ++a.in_flight_page_writes;
      std::vector<Token>& v = in_flight[p.lpn];
      if (!p.partial) {
        v.push_back(p.part);
        continue;
      }
      for (const Token old : pages_.at(p.lpn).contents) v.push_back(merge_tokens(old, p.part));
    }
  std::unordered_map<Lpn, std::vector<Token>> on_flash;  // readable contents of the pages written in the run
  std::vector<bool> baseline_found(oracle_.logical_pages(), false);  // the others': their baseline seen
  a.unreadable_pages = scan_flash([&](Lpn lpn, Token token) {
    // "Never written" is every page's first content: a hybrid's padding pages and a steady-state
    // preload's stale pages carry it (a recovery tells them apart by their OOB's sequence).
    if (token == kUnwrittenToken) return;
    const auto h = pages_.find(lpn);
    if (h == pages_.end()) {  // not written in the run: its baseline, or an error
      if (token == oracle_.expected(lpn)) baseline_found[lpn] = true;
      if (token != oracle_.expected(lpn) && ++a.garbage_pages == 1)
        a.first_problem = "logical page " + std::to_string(lpn) +
                          " (not written in the run) is on the flash with "
                          "token " +
                          std::to_string(token) + ", never written there";
      return;
    }
    on_flash[lpn].push_back(token);
    const auto& c = h->second.contents;
    const auto f = in_flight.find(lpn);
    const bool known =
        std::find(c.begin(), c.end(), token) != c.end() ||
        (f != in_flight.end() && std::find(f->second.begin(), f->second.end(), token) != f->second.end());
    if (!known && ++a.garbage_pages == 1)
      a.first_problem = "logical page " + std::to_string(lpn) + " is on the flash with token " + std::to_string(token) +
                        ", which the host never wrote there";
  });
  for (const auto& [lpn, h] : pages_) {
    a.acknowledged_not_durable += h.since.size();
    const auto f = on_flash.find(lpn);
    const auto held = [&](Token t) {
      return f != on_flash.end() && std::find(f->second.begin(), f->second.end(), t) != f->second.end();
    };
    for (const auto& v : h.since) a.acknowledged_lost += !held(v.second);
    // The durable content, or one written after it, must be there to be found.
    bool found = held(h.durable) || (h.durable == kUnwrittenToken && f == on_flash.end());
    for (const auto& v : h.since) found = found || held(v.second);
    if (const auto i = in_flight.find(lpn); i != in_flight.end())
      for (const Token t : i->second) found = found || held(t);
    if (!found && ++a.durable_pages_lost == 1)
      a.first_problem = "logical page " + std::to_string(lpn) + ": its durable content (token " +
                        std::to_string(h.durable) + ") is on no readable flash page, nor anything written after it";
    // What recovery reads back: the durable content or a later one (acknowledged since, or in flight).
    const Token r = recovered(lpn);
    bool allowed = r == h.durable;
    for (const auto& v : h.since) allowed = allowed || r == v.second;
    if (const auto i = in_flight.find(lpn); i != in_flight.end())
      allowed = allowed || std::find(i->second.begin(), i->second.end(), r) != i->second.end();
    if (!allowed && ++a.recovery_mismatches == 1 && a.first_problem.empty())
      a.first_problem = "logical page " + std::to_string(lpn) + ": recovery reads back token " + std::to_string(r) +
                        ", not its durable content (token " + std::to_string(h.durable) + ") or a later one";
  }
  for (Lpn lpn = 0; lpn < oracle_.logical_pages(); ++lpn) {  // not written in the run: their baseline
    if (pages_.find(lpn) != pages_.end()) continue;
    // Preconditioned data is durable too: found on no readable page, it is lost.
    if (oracle_.expected(lpn) != kUnwrittenToken && !baseline_found[lpn] && ++a.durable_pages_lost == 1 &&
        a.first_problem.empty())
      a.first_problem = "logical page " + std::to_string(lpn) +
                        " (not written in the run): its content from before "
                        "the run (token " +
                        std::to_string(oracle_.expected(lpn)) + ") is on no readable flash page";
    if (recovered(lpn) != oracle_.expected(lpn) && ++a.recovery_mismatches == 1 && a.first_problem.empty())
      a.first_problem = "logical page " + std::to_string(lpn) +
                        " (not written in the run): recovery reads back token " + std::to_string(recovered(lpn)) +
                        ", not " + std::to_string(oracle_.expected(lpn));
  }
  return a;
}

}  // namespace ssd::stimuli
