// The firmware's mapping as the end-of-run check (verify_mapping) reads it: the host-compiled
// firmware's own objects (FirmwareMapping), or the firmware image's on the ISS core through
// its debug entry points (platforms/soc/image_mapping.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "fw/firmware/firmware.h"

namespace ssd::platform {

class MappingView {
 public:
  virtual ~MappingView() = default;
  virtual Lpn logical_pages() const = 0;
  virtual Ppn locate(Lpn lpn) const = 0;
  virtual bool holds_valid_page(Ppn ppn) const = 0;
  // Both for a batch of pages (fw::Ftl::locate_range, holds_valid_pages): the check asks of every
  // page of the drive, a batch at a time.
  virtual void locate_range(Lpn first, std::uint32_t count, Ppn* out) const {
    for (std::uint32_t i = 0; i < count; ++i) out[i] = locate(first + i);
  }
  virtual void holds_valid_pages(const Ppn* ppns, std::uint32_t count, std::uint8_t* out) const {
    for (std::uint32_t i = 0; i < count; ++i) out[i] = ppns[i] != kNoPpn && holds_valid_page(ppns[i]);
  }
  // The write buffer's pages (each one's newest copy), by logical page.
  virtual std::vector<std::pair<Lpn, Token>> buffered_pages() const = 0;
  virtual std::string check_metadata(const fw::Ftl::PageReader& read_page) const = 0;
  // Work the firmware has not finished ("" when idle; fw::Firmware::unfinished_work).
  virtual std::string unfinished_work() const = 0;
};

class FirmwareMapping final : public MappingView {
 public:
  explicit FirmwareMapping(const fw::Firmware& firmware) : firmware_(firmware) {}
  Lpn logical_pages() const override { return firmware_.ftl().logical_pages(); }
  Ppn locate(Lpn lpn) const override { return firmware_.ftl().locate(lpn); }
  bool holds_valid_page(Ppn ppn) const override { return firmware_.ftl().holds_valid_page(ppn); }
  void locate_range(Lpn first, std::uint32_t count, Ppn* out) const override {
    firmware_.ftl().locate_range(first, count, out);
  }
  void holds_valid_pages(const Ppn* ppns, std::uint32_t count, std::uint8_t* out) const override {
    firmware_.ftl().holds_valid_pages(ppns, count, out);
  }
  std::vector<std::pair<Lpn, Token>> buffered_pages() const override { return firmware_.buffered_pages(); }
  std::string check_metadata(const fw::Ftl::PageReader& read_page) const override {
    return firmware_.ftl().check_metadata(read_page);
  }
  std::string unfinished_work() const override { return firmware_.unfinished_work(); }

 private:
  const fw::Firmware& firmware_;
};

}  // namespace ssd::platform
