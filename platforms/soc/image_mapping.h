// The firmware image's mapping (core.model = iss) for the end-of-run check: the image is asked
// through its debug entry points (platforms/soc/controller_registers.h), untimed, a range at a
// time: logical pages a window of kWindow ahead, and every physical page's validity at the
// first question (one byte a page), so the check's millions of questions are a few calls.
#pragma once

#include <algorithm>
#include <vector>

#include "platforms/functional/mapping_view.h"
#include "platforms/soc/controller_registers.h"

namespace ssd::platform {

class ImageMapping final : public MappingView {
 public:
  ImageMapping(ControllerRegisters& registers, Lpn logical_pages, std::uint64_t physical_pages)
      : registers_(registers), logical_(logical_pages), physical_(physical_pages) {}
  Lpn logical_pages() const override { return logical_; }
  Ppn locate(Lpn lpn) const override {
    if (lpn < first_ || lpn - first_ >= located_.size()) {
      first_ = lpn;
      located_.resize(std::min<std::uint64_t>(kWindow, logical_ - lpn));
      registers_.locate(lpn, static_cast<std::uint32_t>(located_.size()), located_.data());
    }
    return located_[lpn - first_];
  }
  bool holds_valid_page(Ppn ppn) const override {
    if (valid_.empty()) {
      valid_.resize(physical_);
      for (std::uint64_t p = 0; p < physical_; p += kWindow)
        registers_.valid_pages(static_cast<Ppn>(p), static_cast<std::uint32_t>(std::min<std::uint64_t>(kWindow, physical_ - p)),
                               valid_.data() + p);
    }
    return valid_[ppn] != 0;
  }
  std::vector<std::pair<Lpn, Token>> buffered_pages() const override { return registers_.buffered_pages(); }
  std::string check_metadata(const fw::Ftl::PageReader& read_page) const override {
    return registers_.check_metadata(read_page);
  }
  std::string unfinished_work() const override { return registers_.unfinished_work(); }

 private:
  static constexpr std::uint32_t kWindow = 1u << 20;
  ControllerRegisters& registers_;
  Lpn logical_;
  std::uint64_t physical_;
  mutable Lpn first_ = 0;
  mutable std::vector<Ppn> located_;
  mutable std::vector<std::uint8_t> valid_;
};

}  // namespace ssd::platform
