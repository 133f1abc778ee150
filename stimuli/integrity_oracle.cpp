#include "stimuli/integrity_oracle.h"

#include <algorithm>
#include <stdexcept>

#include "common/host_addressing.h"

namespace ssd::stimuli {

IntegrityOracle::IntegrityOracle(std::uint64_t logical_pages, std::uint32_t page_bytes)
    : logical_pages_(logical_pages), page_bytes_(page_bytes), chunk_of_((logical_pages >> kChunkShift) + 1, kNoChunk) {}

Token IntegrityOracle::expected(Lpn lpn) const {
  const std::uint32_t c = chunk_of_[lpn >> kChunkShift];
  return c == kNoChunk ? baseline(lpn) : chunks_[c][lpn & (kChunkPages - 1)];
}

void IntegrityOracle::expected_range(Lpn first, std::uint32_t count, Token* out) const {
  for (std::uint32_t i = 0; i < count;) {  // a chunk's piece at a time
    const Lpn lpn = first + i;
    const std::uint32_t piece = std::min<std::uint32_t>(count - i, kChunkPages - (lpn & (kChunkPages - 1)));
    const std::uint32_t c = chunk_of_[lpn >> kChunkShift];
    if (c == kNoChunk) {
      for (std::uint32_t k = 0; k < piece; ++k) out[i + k] = baseline(lpn + k);
    } else {
      std::copy_n(chunks_[c].begin() + (lpn & (kChunkPages - 1)), piece, out + i);
    }
    i += piece;
  }
}

void IntegrityOracle::set_expected(Lpn lpn, Token t) {
  if (lpn >= logical_pages_) throw std::out_of_range("oracle: logical page beyond the drive");
  std::uint32_t& c = chunk_of_[lpn >> kChunkShift];
  if (c == kNoChunk) {
    if (t == baseline(lpn)) return;  // nothing to remember
    c = static_cast<std::uint32_t>(chunks_.size());
    chunks_.emplace_back();
    const Lpn first = lpn & ~(kChunkPages - 1);
    for (std::uint32_t i = 0; i < kChunkPages; ++i) chunks_.back()[i] = baseline(first + i);
  }
  chunks_[c][lpn & (kChunkPages - 1)] = t;
}

void IntegrityOracle::make_write_tokens(std::uint64_t lba, std::uint32_t sectors, std::vector<Token>& out) {
  PageSpan span = page_span(lba, sectors, page_bytes_);
  out.resize(span.count);
  if (preconditioning_) {
    const std::uint64_t page_sectors = page_bytes_ / kSectorBytes;
    if (lba % page_sectors || sectors % page_sectors)
      throw std::logic_error("preconditioning writes whole pages only");
    for (std::uint32_t i = 0; i < span.count; ++i) out[i] = baseline(span.first + i);
    return;
  }
  ++write_seq_;
  for (std::uint32_t i = 0; i < span.count; ++i) out[i] = write_token(span.first + i, write_seq_);
}

void IntegrityOracle::acknowledge_write(std::uint64_t lba, std::uint32_t sectors, const Token* tokens) {
  PageSpan span = page_span(lba, sectors, page_bytes_);
  const std::uint64_t page_sectors = page_bytes_ / kSectorBytes, end = lba + sectors;
  for (std::uint32_t i = 0; i < span.count; ++i) {
    const Lpn lpn = span.first + i;
    const std::uint64_t page_lba = std::uint64_t(lpn) * page_sectors;
    const bool partial = lba > page_lba || end < page_lba + page_sectors;
    set_expected(lpn, partial ? merge_tokens(expected(lpn), tokens[i]) : tokens[i]);
  }
}

void IntegrityOracle::acknowledge_trim(std::uint64_t lba, std::uint32_t sectors) {
  const PageSpan whole = whole_page_span(lba, sectors, page_bytes_);
  for (std::uint32_t i = 0; i < whole.count; ++i) set_expected(whole.first + i, kUnwrittenToken);
}

void IntegrityOracle::mismatch(const std::string& what) {
  if (mismatches_++ == 0) first_mismatch_ = what;
}

bool IntegrityOracle::check_read(std::uint64_t lba, std::uint32_t sectors, const Token* tokens, HostStatus status) {
  PageSpan span = page_span(lba, sectors, page_bytes_);
  const bool failed = status == HostStatus::UnrecoveredReadError;
  const std::uint64_t before = mismatches_, lost_before = reported_lost_pages_;
  for (std::uint32_t i = 0; i < span.count; ++i) {
    ++pages_checked_;
    const Lpn lpn = span.first + i;
    if (tokens[i] == kUncorrectableToken) {
      if (failed) ++reported_lost_pages_;
      else mismatch("logical page " + std::to_string(lpn) + " could not be read, yet its read completed successfully");
      continue;
    }
    const Token want = expected(lpn);
    if (tokens[i] != want)
      mismatch("logical page " + std::to_string(lpn) + " read back token " + std::to_string(tokens[i]) + ", expected " +
               std::to_string(want) + " (last acknowledged write)");
  }
  if (failed) {
    ++failed_reads_;
    if (reported_lost_pages_ == lost_before)
      mismatch("a read of logical pages " + std::to_string(span.first) + ".." + std::to_string(span.first + span.count - 1) +
               " completed with an unrecovered read error, yet every page read back");
  }
  return mismatches_ == before;
}

bool InFlightPages::conflicts(Lpn first, std::uint32_t count, bool write) const {
  for (const Span& s : spans_) {
    if (!write && !s.write) continue;
    if (first < s.first + s.count && s.first < first + count) return true;
  }
  return false;
}

void InFlightPages::add(std::uint32_t tag, Lpn first, std::uint32_t count, bool write) {
  spans_.push_back({tag, first, count, write});
}

void InFlightPages::remove(std::uint32_t tag) {
  auto it = std::find_if(spans_.begin(), spans_.end(), [tag](const Span& s) { return s.tag == tag; });
  if (it != spans_.end()) {
    *it = spans_.back();
    spans_.pop_back();
  }
}

}  // namespace ssd::stimuli
