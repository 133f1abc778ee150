// The firmware image's mapping (core.model: iss) for the end-of-run check: each question is a
// debug call into the image on the ISS core (platforms/soc/controller_registers.h), untimed.
#pragma once

#include "platforms/functional/mapping_view.h"
#include "platforms/soc/controller_registers.h"

namespace ssd::platform {

class ImageMapping final : public MappingView {
 public:
  ImageMapping(ControllerRegisters& registers, Lpn logical_pages) : registers_(registers), logical_(logical_pages) {}
  Lpn logical_pages() const override { return logical_; }
  Ppn locate(Lpn lpn) const override { return registers_.locate(lpn); }
  bool holds_valid_page(Ppn ppn) const override { return registers_.holds_valid_page(ppn); }
  std::vector<std::pair<Lpn, Token>> buffered_pages() const override { return registers_.buffered_pages(); }
  std::string check_metadata(const fw::Ftl::PageReader& read_page) const override {
    return registers_.check_metadata(read_page);
  }

 private:
  ControllerRegisters& registers_;
  Lpn logical_;
};

}  // namespace ssd::platform
