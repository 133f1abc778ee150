// The end-of-run mapping check (verify_mapping): after a run, with nothing in flight, every
// logical page reads back what the oracle expects, and the FTL's mapping and validity agree with
// the OOB of every page on flash.
//
// In logical order that is a read of the flash page each logical page maps to, and those lie all
// over the array: on a filled 512 GiB drive the walk waited on cache misses for 2 of its 2.5 s
// (consecutive logical pages sit in as many planes' blocks, whose records alias in the caches).
// So the check is made as an equality of two multisets of (logical page, physical page, token)
// triples, each gathered in its own memory order:
//   - the logical walk: every mapped logical page, where it maps and what it should hold (the
//     mapping table and the oracle, read in order);
//   - the physical walk: every page the FTL counts as valid, with what its OOB names and holds
//     (the array and the validity map, read in order).
// Both are summed as 64-bit fingerprints; the sums agree whenever every mapped page is valid,
// names its logical page and holds the expected data, and every valid data page is mapped to,
// and otherwise differ except with probability 2^-64 (a mixing function, not a bug, decides which
// sums collide). When they differ, the exact walk in logical order runs to name the first page at
// fault. Exceptions ride along the walks: a logical page the write buffer holds newer (its token
// is checked there; its flash copy, if mapped and valid, enters both sums as it stands), and a page
// the drive could not read and kept marked so (kUncorrectableToken: a reported error, whatever
// the oracle expected).
#include "platforms/functional/mapping_check.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "common/tokens.h"

namespace ssd::platform {

namespace {
constexpr std::uint32_t kBatch = 256;  // pages the check asks the mapping about at once

using Buffered = std::vector<std::pair<Lpn, Token>>;  // by logical page

bool in(const Buffered& buffered, Lpn lpn) {
  const auto it = std::lower_bound(buffered.begin(), buffered.end(), std::pair<Lpn, Token>{lpn, 0});
  return it != buffered.end() && it->first == lpn;
}

// Distinct for distinct triples whose place is the same (a product by an odd constant and mix64
// are bijections), and otherwise as good as random: a sum of them differs from another's unless
// the triples are the same multiset, but for a chance of 2^-64.
std::uint64_t fingerprint(Lpn lpn, Ppn ppn, Token token) {
  return mix64(((std::uint64_t(lpn) << 32) | ppn) + token * 0x9e3779b97f4a7c15ULL);
}

// The mapping's answers for a run of pages, a batch at a time.
class Batches {
 public:
  explicit Batches(const MappingView& ftl) : ftl_(ftl) {}
  const std::array<Ppn, kBatch>& locate(Lpn first, std::uint32_t count) {
    ftl_.locate_range(first, count, ppns_.data());
    return ppns_;
  }
  const std::array<std::uint8_t, kBatch>& valid(const Ppn* ppns, std::uint32_t count) {
    ftl_.holds_valid_pages(ppns, count, valid_.data());
    return valid_;
  }

 private:
  const MappingView& ftl_;
  std::array<Ppn, kBatch> ppns_;
  std::array<std::uint8_t, kBatch> valid_;
};

// Every valid physical page: its content's fingerprint (data pages), the unreadable data pages'
// logical pages (ascending), or the first problem.
struct PhysicalWalk {
  std::uint64_t sum = 0;
  std::vector<Lpn> unreadable;
  std::string problem;
};

PhysicalWalk walk_physical(const MappingView& ftl, const hw::NandArray& array, const Buffered& buffered) {
  PhysicalWalk w;
  const Lpn logical = ftl.logical_pages();
  const std::uint64_t total = array.geometry().total_pages();
  Batches batches(ftl);
  std::array<Ppn, kBatch> pages;
  for (std::uint64_t first = 0; first < total; first += kBatch) {
    const auto count = static_cast<std::uint32_t>(std::min<std::uint64_t>(kBatch, total - first));
    std::iota(pages.begin(), pages.begin() + count, static_cast<Ppn>(first));
    const auto& valid = batches.valid(pages.data(), count);
    for (std::uint32_t i = 0; i < count; ++i) {
      if (!valid[i]) continue;
      const Ppn ppn = pages[i];
      const hw::PageContent c = array.read(ppn);
      // A block whose program or erase failed is the firmware's to empty (fw/firmware/bad_block_handler.h),
      // but for pages whose newer copy waits in the write buffer: its eviction supersedes them.
      if (array.has_failed(array.geometry().block_of(ppn)) && !(c.lpn < logical && in(buffered, c.lpn))) {
        w.problem = array.describe(ppn) + " still holds valid logical page " + std::to_string(c.lpn) +
                    " in a block whose program or erase failed";
        return w;
      }
      if (c.lpn < logical) {
        if (c.token == kUncorrectableToken) w.unreadable.push_back(c.lpn);
        w.sum += fingerprint(c.lpn, ppn, c.token);
      } else if (c.lpn == kNoLpn) {
        w.problem = array.describe(ppn) + " is counted as valid but was never programmed";
        return w;
      } else if (ftl.locate(c.lpn) != ppn) {  // a metadata page (its OOB marks it the FTL's own)
        w.problem = array.describe(ppn) + " is counted as valid and its OOB names logical page " +
                    std::to_string(c.lpn) + ", which the FTL locates elsewhere";
        return w;
      }
    }
  }
  std::sort(w.unreadable.begin(), w.unreadable.end());
  return w;
}

// The exact walk in logical order, run when the sums differ: the first mapped logical page at
// fault (its page names another, holds other data, or is counted invalid), else the valid page no
// logical page maps to.
std::string find_fault(const MappingView& ftl, const hw::NandArray& array, const Buffered& buffered,
                       const stimuli::IntegrityOracle& oracle) {
  const Lpn logical = ftl.logical_pages();
  Batches batches(ftl);
  std::array<Token, kBatch> want;
  for (Lpn first = 0; first < logical; first += kBatch) {
    const auto count = static_cast<std::uint32_t>(std::min<Lpn>(kBatch, logical - first));
    const auto& ppns = batches.locate(first, count);
    const auto& valid = batches.valid(ppns.data(), count);
    oracle.expected_range(first, count, want.data());
    for (std::uint32_t i = 0; i < count; ++i) {
      const Lpn lpn = first + i;
      const Ppn ppn = ppns[i];
      if (ppn == kNoPpn || in(buffered, lpn)) continue;  // checked in the logical walk
      const hw::PageContent c = array.read(ppn);
      if (c.lpn != lpn)
        return "logical page " + std::to_string(lpn) + " maps to " + array.describe(ppn) +
               " whose OOB names logical page " + std::to_string(c.lpn);
      if (c.token != want[i] && c.token != kUncorrectableToken)
        return "logical page " + std::to_string(lpn) + " at " + array.describe(ppn) + " holds token " +
               std::to_string(c.token) + ", expected " + std::to_string(want[i]);
      if (!valid[i])
        return "logical page " + std::to_string(lpn) + " maps to " + array.describe(ppn) +
               ", which the FTL counts as invalid";
    }
  }
  const std::uint64_t total = array.geometry().total_pages();
  for (Ppn ppn = 0; ppn < total; ++ppn) {
    if (!ftl.holds_valid_page(ppn)) continue;
    const hw::PageContent c = array.read(ppn);
    if (c.lpn < logical && ftl.locate(c.lpn) != ppn)
      return array.describe(ppn) + " is counted as valid and its OOB names logical page " + std::to_string(c.lpn) +
             ", which the FTL locates elsewhere";
  }
  return "";
}
}  // namespace

std::string verify_mapping(const MappingView& ftl, const hw::NandArray& array, const stimuli::IntegrityOracle& oracle) {
  const Lpn logical = ftl.logical_pages();
  const Buffered buffered = ftl.buffered_pages();
  const PhysicalWalk physical = walk_physical(ftl, array, buffered);
  if (!physical.problem.empty()) return physical.problem;

  // The logical walk: the write buffer's pages and the unreadable ones beside it, all in order.
  std::uint64_t sum = 0;
  auto next_buffered = buffered.begin();
  auto next_unreadable = physical.unreadable.begin();
  Batches batches(ftl);
  std::array<Token, kBatch> want;
  for (Lpn first = 0; first < logical; first += kBatch) {
    const auto count = static_cast<std::uint32_t>(std::min<Lpn>(kBatch, logical - first));
    const auto& ppns = batches.locate(first, count);
    oracle.expected_range(first, count, want.data());
    for (std::uint32_t i = 0; i < count; ++i) {
      const Lpn lpn = first + i;
      const Ppn ppn = ppns[i];
      while (next_unreadable != physical.unreadable.end() && *next_unreadable < lpn) ++next_unreadable;
      const bool unreadable = next_unreadable != physical.unreadable.end() && *next_unreadable == lpn;
      if (next_buffered != buffered.end() && next_buffered->first == lpn) {
        const Token held = (next_buffered++)->second;
        if (held != want[i] && held != kUncorrectableToken)
          return "logical page " + std::to_string(lpn) + " in the write buffer holds token " + std::to_string(held) +
                 ", expected " + std::to_string(want[i]);
        // Its flash copy, if any, is older: it enters the sum as it stands, if it is the page's.
        if (ppn == kNoPpn || !ftl.holds_valid_page(ppn)) continue;
        const hw::PageContent c = array.read(ppn);
        if (c.lpn == lpn) sum += fingerprint(lpn, ppn, c.token);
        continue;
      }
      if (ppn == kNoPpn) {
        if (want[i] != kUnwrittenToken) return "logical page " + std::to_string(lpn) + " was written but is unmapped";
        continue;
      }
      sum += fingerprint(lpn, ppn, unreadable ? kUncorrectableToken : want[i]);
    }
  }
  if (sum != physical.sum) {
    const std::string fault = find_fault(ftl, array, buffered, oracle);
    return fault.empty() ? "the mapping's and the flash's fingerprints differ, and no page was found at fault" : fault;
  }
  return ftl.check_metadata([&array](Ppn ppn) {
    hw::PageContent c = array.read(ppn);
    return fw::HalResult{c.lpn, c.token, {}};
  });
}

}  // namespace ssd::platform
