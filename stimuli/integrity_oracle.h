// The read-after-write integrity oracle. The host makes a fresh token for every logical page it
// writes and, once the write is acknowledged, expects every later read of that page to return
// exactly that token (or, for a partial-page write, merge_tokens(previous content, new part)).
// Pages never written read back as kUnwrittenToken. A mismatch is a firmware bug, never noise.
//
// The host never has two conflicting requests in flight on one logical page (see
// InFlightPages), so "the last acknowledged write" is always well defined.
//
// Expected tokens are stored per logical page in chunks allocated on first write, so a large
// drive costs memory only where it was written.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/geometry.h"
#include "common/tokens.h"

namespace ssd::stimuli {

class IntegrityOracle {
 public:
  IntegrityOracle(std::uint64_t logical_pages, std::uint32_t page_bytes);

  // Tokens for a write of [lba, lba+sectors): one per logical page touched.
  void make_write_tokens(std::uint64_t lba, std::uint32_t sectors, std::vector<Token>& out);
  // The write was acknowledged: its pages now hold what it wrote.
  void acknowledge_write(std::uint64_t lba, std::uint32_t sectors, const Token* tokens);
  // Checks a completed read; returns false (and records the first mismatch) on any wrong page.
  bool check_read(std::uint64_t lba, std::uint32_t sectors, const Token* tokens);

  Token expected(Lpn lpn) const;
  void set_expected(Lpn lpn, Token t);  // preconditioning writes bypass the host

  std::uint64_t pages_checked() const { return pages_checked_; }
  std::uint64_t mismatches() const { return mismatches_; }
  const std::string& first_mismatch() const { return first_mismatch_; }
  std::uint32_t page_bytes() const { return page_bytes_; }

 private:
  static constexpr std::uint32_t kChunkShift = 12;  // 4096 pages per chunk
  std::uint64_t logical_pages_;
  std::uint32_t page_bytes_;
  std::vector<std::unique_ptr<Token[]>> chunks_;
  std::uint64_t write_seq_ = 0, pages_checked_ = 0, mismatches_ = 0;
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
