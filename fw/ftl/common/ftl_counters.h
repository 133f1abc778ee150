// The counters every FTL keeps, under the names the report reads (WAF is
// flash_pages_programmed / host_pages_written).
#pragma once

#include <cstdint>

#include "common/metrics.h"
#include "fw/ftl/ftl.h"

namespace ssd::fw {

class FtlCounters {
  MetricSet& metrics_;

 public:
  explicit FtlCounters(MetricSet& m)
      : metrics_(m),
        host_pages_written(m.counter("host_pages_written")),
        host_pages_read(m.counter("host_pages_read")),
        partial_write_reads(m.counter("partial_write_reads")),
        flash_pages_programmed(m.counter("flash_pages_programmed")),
        erases(m.counter("erases")),
        unmapped_reads(m.counter("unmapped_reads")) {}

  std::uint64_t& host_pages_written;
  std::uint64_t& host_pages_read;
  std::uint64_t& partial_write_reads;  // old pages read for partial-page writes (read-modify-write)
  void count_read(const PageRead& page) { ++(page.for_partial_write ? partial_write_reads : host_pages_read); }
  // A preloaded fill: what its page writes would have counted.
  void count_fill(std::uint64_t pages) {
    host_pages_written += pages;
    flash_pages_programmed += pages;
  }
  std::uint64_t& flash_pages_programmed;  // host pages, copies and metadata pages
  std::uint64_t& erases;                  // physical blocks
  std::uint64_t& unmapped_reads;          // reads of never-written pages, served without flash
  // Padding pages that closed word lines (Ftl::close_word_lines; counter word_line_padding_pages,
  // in the report only once there is one).
  // A trimmed logical page that held data (Ftl::trim; counter trimmed_pages, in the report only
  // once there is one).
  void count_trimmed_page() {
    if (!trimmed_pages_) trimmed_pages_ = &metrics_.counter("trimmed_pages");
    ++*trimmed_pages_;
  }
  void count_word_line_padding(std::uint32_t pages) {
    if (pages == 0) return;
    if (!word_line_padding_) word_line_padding_ = &metrics_.counter("word_line_padding_pages");
    *word_line_padding_ += pages;
    flash_pages_programmed += pages;
  }

 private:
  std::uint64_t* word_line_padding_ = nullptr;
  std::uint64_t* trimmed_pages_ = nullptr;
};

}  // namespace ssd::fw
