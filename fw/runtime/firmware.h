// The firmware runtime on the controller core: takes fetched host commands, splits them into
// logical pages, asks the FTL for the flash work (partial pages as read-modify-write), moves
// host data by DMA, and completes each command when all its operations are done.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/metrics.h"
#include "fw/ftl/ftl.h"
#include "fw/hal/hal.h"
#include "fw/runtime/firmware_costs.h"
#include "fw/runtime/host_command.h"
#include "fw/runtime/op_scheduler.h"

namespace ssd::fw {

struct FirmwareConfig {
  FirmwareCosts costs;
  std::string ftl = "page_mapping";
  FtlOptions ftl_options;
  std::uint32_t buffer_slots = 1024;
};

class Firmware {
 public:
  // Metrics go to sets "firmware", "firmware.ops" and "ftl". Throws FtlOptionError for unknown
  // FTLs or bad FTL parameters.
  Firmware(Hal& hal, FirmwareConfig config, MetricsRegistry& metrics);

  void on_host_command(const HostCommand& cmd);

  Ftl& ftl() { return *ftl_; }
  const Ftl& ftl() const { return *ftl_; }
  OpScheduler& ops() { return ops_; }
  const FirmwareConfig& config() const { return config_; }
  std::uint64_t capacity_sectors() const {
    return std::uint64_t(ftl_->logical_pages()) * hal_.geometry().page_bytes / kSectorBytes;
  }

 private:
  void handle_write(const HostCommand& cmd, PageSpan span);
  void handle_read(const HostCommand& cmd, PageSpan span);
  std::vector<Token>& scratch(std::uint32_t id, std::uint32_t pages);

  Hal& hal_;
  FirmwareConfig config_;
  MetricSet& metrics_;
  OpScheduler ops_;
  std::unique_ptr<Ftl> ftl_;
  std::vector<std::vector<Token>> scratch_;  // per command id: old-page tokens for RMW
  std::uint64_t &commands_, &partial_pages_;
};

}  // namespace ssd::fw
