// The firmware image's start: picolibc's crt0 sets up the stack, .data, .bss and the static
// constructors and calls main, which reads the boot configuration the platform hands over,
// builds the firmware (the FTL the configuration names) on the target HAL, reports boot and
// serves the controller's events for ever. A failure anywhere reaches the platform as the text
// of the exception (register kFatal), which stops the run with that message.
//
// The debug entry points (ssd_debug_*) are called by the platform at the end of a run, untimed,
// as a debugger would: the end-of-run mapping check and the export of the firmware's metrics.
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "common/metrics.h"
#include "fw/firmware/boot_config.h"
#include "fw/firmware/firmware.h"
#include "fw/target/target_hal.h"

using ssd::fw::TargetHal;
namespace mmio = ssd::mmio;

// Boot ends here: the platform runs the image untimed up to this function, then in time.
extern "C" [[gnu::used, gnu::noinline]] void ssd_boot_done() { asm volatile(""); }

namespace {

ssd::fw::Firmware* firmware = nullptr;
ssd::MetricsRegistry* metrics = nullptr;

std::uint32_t address_of(const void* p) { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p)); }

[[noreturn]] void fail(const char* message) {
  TargetHal::write_register(mmio::kFatal, message);
  for (;;) asm volatile("bkpt #2");
}

std::string boot_text() {
  std::string text(TargetHal::read_register(mmio::kBootBytes), '\0');
  TargetHal::write_register(mmio::kBootFetch, text.data());
  return text;
}

}  // namespace

int main() {
  try {
    ssd::fw::BootConfig boot = ssd::fw::read_boot_config(boot_text());
    // Every cost 1: a charge then adds the units of its work to the HAL's counters.
    for (std::size_t k = 0; k < std::size(ssd::fw::kFirmwareCostNames); ++k) ssd::fw::cost_of(boot.firmware.costs, k) = 1;
    static TargetHal hal(boot.geometry, boot.mark_work);
    static ssd::MetricsRegistry registry;
    static ssd::fw::Firmware fw(hal, boot.firmware, registry);
    firmware = &fw;
    metrics = &registry;
    std::string effective, warnings;
    for (const auto& [key, value] : fw.config().ftl_options.effective()) effective += key + "=" + value + "\n";
    for (const std::string& w : fw.config().ftl_options.warnings()) warnings += w + "\n";
    mmio::BootReport report{fw.ftl().logical_pages(), fw.ftl().logical_block_pages(), address_of(effective.c_str()),
                            address_of(warnings.c_str())};
    TargetHal::write_register(mmio::kBooted, &report);
    ssd_boot_done();
    hal.serve(fw);
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

extern "C" {

// Where the platform's debug calls return to: the core stops there.
[[gnu::used, gnu::noinline, gnu::naked]] void ssd_debug_return() { asm volatile("bkpt #3"); }

// Where logical pages [first, first + count) are: their physical pages, in a buffer of the image.
[[gnu::used]] const std::uint32_t* ssd_debug_locate(std::uint32_t first, std::uint32_t count) {
  static std::vector<std::uint32_t> out;
  out.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) out[i] = firmware->ftl().locate(first + i);
  return out.data();
}

// Whether physical pages [first, first + count) hold valid data (1) or not (0).
[[gnu::used]] const std::uint8_t* ssd_debug_valid_pages(std::uint32_t first, std::uint32_t count) {
  static std::vector<std::uint8_t> out;
  out.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) out[i] = firmware->ftl().holds_valid_page(first + i) ? 1 : 0;
  return out.data();
}

// The write buffer's pages (logical page, token pairs in logical page order), behind their count.
[[gnu::used]] const std::uint32_t* ssd_debug_buffered_pages() {
  static std::vector<std::uint32_t> out;
  out.clear();
  const auto pages = firmware->buffered_pages();
  out.push_back(static_cast<std::uint32_t>(pages.size()));
  for (const auto& [lpn, token] : pages) out.push_back(lpn), out.push_back(token);
  return out.data();
}

// The FTL's check of its metadata pages against the flash (read through the debug port); returns
// the first disagreement, "" when none.
[[gnu::used]] const char* ssd_debug_check_metadata() {
  static std::string result;
  result = firmware->ftl().check_metadata([](std::uint32_t ppn) {
    mmio::PageRecord page{ppn, 0, 0};
    TargetHal::write_register(mmio::kDebugReadPage, &page);
    return ssd::fw::HalResult{page.lpn, page.token, {}};
  });
  return result.c_str();
}

// What the firmware has not finished, "" when idle (fw::Firmware::unfinished_work).
[[gnu::used]] const char* ssd_debug_unfinished_work() {
  static std::string result;
  result = firmware->unfinished_work();
  return result.c_str();
}

// Every counter and gauge of the firmware's metric sets, one record at a time.
[[gnu::used]] void ssd_debug_export_metrics() {
  for (const auto& [path, set] : metrics->sets()) {
    for (const auto& [name, value] : set->counters()) {
      const mmio::MetricRecord r{address_of(path.c_str()), address_of(name.c_str()), mmio::MetricKind::Counter, 0, value, 0};
      TargetHal::write_register(mmio::kDebugOut, &r);
    }
    for (const auto& [name, value] : set->gauges()) {
      const mmio::MetricRecord r{address_of(path.c_str()), address_of(name.c_str()), mmio::MetricKind::Gauge, 0, 0, value};
      TargetHal::write_register(mmio::kDebugOut, &r);
    }
  }
}

// The target's system calls: no process to exit or signal; the heap's bounds come from the
// controller (common/controller_mmio.h).
void _exit(int) {
  fail("the firmware's main returned");
}
int getpid() { return 1; }
int kill(int, int) { fail("the firmware aborted"); }

void* sbrk(std::ptrdiff_t increment) {
  static std::uintptr_t brk = 0, end = 0;
  if (brk == 0) {
    brk = TargetHal::read_register(mmio::kHeapStart);
    end = TargetHal::read_register(mmio::kHeapEnd);
  }
  if (increment < 0 || std::uintptr_t(increment) > end - brk) return reinterpret_cast<void*>(-1);
  void* old = reinterpret_cast<void*>(brk);
  brk += std::uintptr_t(increment);
  return old;
}

}  // extern "C"
