// The read-after-write integrity oracle. The host makes a fresh token for every logical page it
// writes and, once the write is acknowledged, expects every later read of that page to return
// exactly that token (or, for a partial-page write, merge_tokens(previous content, new part)).
// Pages never written read back as kUnwrittenToken. A mismatch is a firmware bug, never noise.
// A page the drive could not read (kUncorrectableToken, reliability.errors) is no mismatch when
// its command completed with an Unrecovered Read Error: the loss was reported, and is counted;
// the same page in a command that claims success, or an error with no such page, is a mismatch.
//
// The host never has two conflicting requests in flight on one logical page (see
// InFlightPages), so "the last acknowledged write" is always well defined.
//
// Expected tokens are stored per logical page in small chunks allocated on first write, so a
// large drive costs memory only where it was written. Preconditioning writes the baseline token
// write_token(lpn, 0) of each page (unique per page, so a misplaced page is still caught), which
// the oracle knows without storing it: a preconditioned 512 GiB drive costs nothing here.
#pragma once

#include <cstdint>
#include <array>
#include <deque>
#include <string>
#include <vector>

#include "common/geometry.h"
#include "common/host_status.h"
#include "common/tokens.h"

namespace ssd::stimuli {

class IntegrityOracle {
 public:
  IntegrityOracle(std::uint64_t logical_pages, std::uint32_t page_bytes);

  // Tokens for a write of [lba, lba+sectors): one per logical page touched.
  void make_write_tokens(std::uint64_t lba, std::uint32_t sectors, std::vector<Token>& out);
  // The write was acknowledged: its pages now hold what it wrote.
  void acknowledge_write(std::uint64_t lba, std::uint32_t sectors, const Token* tokens);
  // A trim (deallocate) was acknowledged: the pages it covers whole read back as never written
  // (common/host_op.h); pages it covers in part keep what they hold.
  void acknowledge_trim(std::uint64_t lba, std::uint32_t sectors);
  // Checks a completed read; returns false (and records the first mismatch) on any wrong page.
  bool check_read(std::uint64_t lba, std::uint32_t sectors, const Token* tokens,
                  HostStatus status = HostStatus::Success);

  Token expected(Lpn lpn) const;
  void expected_range(Lpn first, std::uint32_t count, Token* out) const;  // out[i]: expected(first + i)
  void set_expected(Lpn lpn, Token t);

  // While preconditioning, writes carry each page's baseline token; afterwards every page not
  // written since reads back as its baseline. Preconditioning writes whole pages only.
  void begin_preconditioning() { preconditioning_ = baseline_ = true; }
  void end_preconditioning() { preconditioning_ = false; }
  Token baseline(Lpn lpn) const { return baseline_ ? write_token(lpn, 0) : kUnwrittenToken; }
  std::uint64_t materialized_pages() const { return chunks_.size() * kChunkPages; }

  std::uint64_t pages_checked() const { return pages_checked_; }
  std::uint64_t mismatches() const { return mismatches_; }
  // Pages of reads that completed with an Unrecovered Read Error, and those commands.
  std::uint64_t reported_lost_pages() const { return reported_lost_pages_; }
  std::uint64_t failed_reads() const { return failed_reads_; }
  const std::string& first_mismatch() const { return first_mismatch_; }
  std::uint32_t page_bytes() const { return page_bytes_; }
  std::uint64_t logical_pages() const { return logical_pages_; }

 private:
  static constexpr std::uint32_t kChunkShift = 4;  // 16 pages per chunk
  static constexpr std::uint32_t kChunkPages = 1u << kChunkShift;
  static constexpr std::uint32_t kNoChunk = 0xffffffffu;
  std::uint64_t logical_pages_;
  std::uint32_t page_bytes_;
  std::vector<std::uint32_t> chunk_of_;                    // per chunk of pages: index into chunks_
  std::deque<std::array<Token, kChunkPages>> chunks_;      // stable addresses, no reallocation peaks
  bool baseline_ = false, preconditioning_ = false;
  void mismatch(const std::string& what);
  std::uint64_t write_seq_ = 0, pages_checked_ = 0, mismatches_ = 0, reported_lost_pages_ = 0, failed_reads_ = 0;
  std::string first_mismatch_;
};

// Logical pages touched by the requests in flight, so the host can hold back a request that
// conflicts with one in flight (a write overlapping anything, or a read overlapping a write),
// as a host that needs ordering must with NVMe. Linear in the queue depth.
class InFlightPages {
 public:
  bool conflicts(Lpn first, std::uint32_t count, bool write) const;
  void add(std::uint32_t tag, Lpn first, std::uint32_t count, bool write);
  void remove(std::uint32_t tag);
  void clear() { spans_.clear(); }
  bool holds(std::uint32_t tag) const {
    for (const Span& s : spans_)
      if (s.tag == tag) return true;
    return false;
  }
  std::size_t size() const { return spans_.size(); }

 private:
  struct Span {
    std::uint32_t tag;
    Lpn first;
    std::uint32_t count;
    bool write;
  };
  std::vector<Span> spans_;
};

}  // namespace ssd::stimuli
