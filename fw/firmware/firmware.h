// The firmware runtime on the controller core: takes fetched host commands, splits them into
// logical pages, asks the FTL for the flash work (partial pages as read-modify-write), moves
// host data by DMA, and completes each command when all its operations are done.
//
// Host data occupies the DRAM data buffer: a command takes one buffer page per logical page it
// touches, from admission until its flash work is done (writes: programmed; reads: sent to the
// host). A command that finds too few free pages waits, in arrival order, so the buffer bounds
// the host data in flight. With the write cache on, a write completes to the host once its data
// is in the buffer; its pages stay taken until programmed. (Reads of a page whose program is
// still in flight wait for the program rather than being served from the buffer. GC copies are
// staged outside this accounting.)
#pragma once

#include <deque>
#include <utility>
#include <memory>
#include <string>
#include <vector>

#include "common/metrics.h"
#include "fw/ftl/ftl.h"
#include "fw/hal/hal.h"
#include "fw/runtime/firmware_costs.h"
#include "fw/firmware/host_command.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

struct FirmwareConfig {
  FirmwareCosts costs;
  std::string ftl = "page_mapping";
  FtlOptions ftl_options;
  std::uint32_t buffer_slots = 1024;  // data-buffer pages for host data
  bool write_cache = false;           // complete writes once their data is in the buffer
};

class Firmware : public HostCommandHandler {
 public:
  // Metrics go to sets "firmware", "firmware.ops" and "ftl". Throws FtlOptionError for unknown
  // FTLs or bad FTL parameters.
  Firmware(Hal& hal, FirmwareConfig config, MetricsRegistry& metrics);

  void on_host_command(const HostCommand& cmd) override;

  Ftl& ftl() { return *ftl_; }
  const Ftl& ftl() const { return *ftl_; }
  OpScheduler& ops() { return ops_; }
  const FirmwareConfig& config() const { return config_; }
  std::uint64_t capacity_sectors() const {
    return std::uint64_t(ftl_->logical_pages()) * hal_.geometry().page_bytes / kSectorBytes;
  }

 private:
  void admit(const HostCommand& cmd, PageSpan span);
  void release(std::uint32_t pages);
  void handle_write(const HostCommand& cmd, PageSpan span);
  void handle_read(const HostCommand& cmd, PageSpan span);
  // Old-page tokens of a write's read-modify-writes: held until its programs are issued and
  // done, which (with the write cache) is after the host may reuse the command's id.
  std::uint32_t take_scratch(std::uint32_t pages);

  Hal& hal_;
  FirmwareConfig config_;
  MetricSet& metrics_;
  OpScheduler ops_;
  std::unique_ptr<Ftl> ftl_;
  std::vector<std::unique_ptr<std::vector<Token>>> scratch_;  // stable addresses
  std::vector<std::uint32_t> scratch_free_;
  std::uint32_t buffer_free_;
  std::deque<std::pair<HostCommand, PageSpan>> waiting_;  // admitted in arrival order as pages free up
  std::uint64_t &commands_, &partial_pages_, &buffer_waits_, &buffer_high_water_;
};

}  // namespace ssd::fw
