#include "platforms/soc/ssd_top.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/controller_mmio.h"
#include "fw/firmware/boot_config.h"
#include "platforms/soc/image_mapping.h"

#ifndef SSD_FIRMWARE_IMAGE
#error "SSD_FIRMWARE_IMAGE: the build names the firmware image it builds (CMakeLists.txt)"
#endif

namespace ssd::platform {

SsdTop::SsdTop(sc_core::sc_module_name name, const PlatformConfig& c, hw::NandArray& array, MetricsRegistry& metrics,
               tlmx::VcdTracer* vcd)
    : sc_module(name), metrics_(metrics), array_(array), firmware_config_(c.firmware) {
  map_.sram_size = c.sram.size_bytes;
  map_.dram_size = c.dram.size_bytes;
  bus_ = std::make_unique<hw::SystemBus>("bus", c.bus, metrics);
  sram_ = std::make_unique<hw::MemoryTarget>("sram", c.sram, metrics);
  dram_ = std::make_unique<hw::MemoryTarget>("dram", c.dram, metrics);
  bus_->targets.bind(sram_->socket);
  bus_->targets.bind(dram_->socket);
  bus_->map(map_.sram_base, map_.sram_size, 0, "sram", sram_.get());
  bus_->map(map_.dram_base, map_.dram_size, 1, "dram", dram_.get());

  hw::FirmwareCore* core = nullptr;
  if (c.core.model == "iss") {
    registers_ = std::make_unique<ControllerRegisters>("cores", iss_config(c), metrics);
    registers_->core().bus.bind(bus_->initiators);
    registers_->trace_to(vcd);
    core = registers_.get();
  } else {
    hw::CoreConfig annotated = c.core;
    annotated.dcache_bytes = c.annotated_dcache ? c.iss.dcache_bytes : 0;
    core_ = std::make_unique<hw::EmbeddedCore>("cores", annotated, metrics, vcd);
    core_->bus.bind(bus_->initiators);
    core_->use_direct_access(*bus_);
    core = core_.get();
  }
  host_if_ = std::make_unique<hw::HostInterface>("host_interface", c.host, c.power, map_.dram_base, metrics, vcd);
  host_if_->dma.bind(bus_->initiators);

  hal_ = std::make_unique<CoSimHal>("firmware_hal", c.geometry, map_, *core, metrics, array);
  host_if_->fetched_commands.bind(hal_->host_commands);
  hal_->host_requests.bind(host_if_->firmware_requests);
  hal_->trace_to(vcd);
  if (c.scheduler == "flow_priority") hal_->mark_flow_classes();
  for (std::uint32_t ch = 0; ch < c.geometry.channels; ++ch) {
    hw::ChannelControllerConfig cc{ch, c.geometry, c.nand, c.channel, c.scheduler, map_.dram_base, c.arbitration,
                                   c.reliability, c.power};
    auto ctrl = std::make_unique<hw::ChannelController>(("channel" + std::to_string(ch)).c_str(), cc, array, metrics, vcd);
    hal_->flash.bind(ctrl->flash_target);
    ctrl->dma.bind(bus_->initiators);
    channels_.push_back(std::move(ctrl));
  }
  map_page_bytes_ = c.geometry.page_bytes;
  switch_ = std::make_unique<HalSwitch>(*hal_);
  if (registers_) {
    hal_->set_host_handler(*registers_);
    hal_->set_listener(registers_.get());
    const std::string image = c.firmware_image.empty() ? SSD_FIRMWARE_IMAGE : c.firmware_image;
    if (!c.firmware_job_log.empty()) registers_->log_jobs(c.firmware_job_log);
    const FirmwareBoot& boot =
        registers_->boot(image, fw::write_boot_config({c.geometry, c.firmware, !c.firmware_job_log.empty()}), *hal_);
    mapping_ = std::make_unique<ImageMapping>(*registers_, boot.logical_pages, c.geometry.total_pages());
  } else {
    firmware_ = std::make_unique<fw::Firmware>(*switch_, c.firmware, metrics);
    if (c.firmware.checkpoint_interval_bytes > 0) {
      checkpoints_ = std::make_unique<CheckpointRecords>(array);
      firmware_->set_checkpoint_medium(checkpoints_.get());
    }
    hal_->set_host_handler(*firmware_);
    mapping_ = std::make_unique<FirmwareMapping>(*firmware_);
  }
}

// The ISS core's memories: the TCM, and the SRAM and DRAM as windows over the system bus where
// common/controller_mmio.h puts them.
hw::IssConfig SsdTop::iss_config(const PlatformConfig& c) const {
  hw::IssConfig iss = c.iss;
  iss.clock_mhz = c.core.clock_mhz;
  iss.halt_is_failure = true;  // the firmware serves for ever
  iss.tcm_base = mmio::kTcmBase;
  const auto sram = static_cast<std::uint32_t>(map_.sram_size);
  const auto dram = static_cast<std::uint32_t>(std::min<std::uint64_t>(map_.dram_size, mmio::kDramWindowMaxBytes) & ~0xfffull);
  iss.bus_windows = {{"sram", mmio::kBusWindowsSplit - sram, sram, map_.sram_base},
                     {"dram", mmio::kBusWindowsSplit, dram, map_.dram_base}};
  return iss;
}

fw::Firmware& SsdTop::firmware() {
  if (!firmware_) throw std::logic_error("the firmware runs as an image on the ISS core (core.model = iss)");
  return *firmware_;
}

Lpn SsdTop::logical_pages() const { return mapping_->logical_pages(); }

std::map<std::string, std::string> SsdTop::ftl_parameters() const {
  if (registers_) {  // as the image reported them at boot
    return registers_->boot_report().effective_parameters;
  }
  return firmware_->config().ftl_options.effective();
}

std::string SsdTop::unfinished_work() const {
  std::string out = mapping_->unfinished_work();
  for (const auto& ch : channels_) {
    const std::string held = ch->describe_unfinished();
    if (!held.empty()) out += (out.empty() ? "flash: " : "; flash: ") + held;
  }
  return out;
}

void SsdTop::begin_power_loss() {
  fw::Firmware& fw = firmware();
  if (fw.stops_work_at_power_loss())
    for (auto& ch : channels_) ch->power_fail();
  core_->post([&fw] { fw.on_power_loss(); }, hw::JobHint{});
}

void SsdTop::power_cut(sc_core::sc_time now, PowerCutFacts& facts) {
  for (const auto& ch : channels_) facts.plp_ftl_work_stopped += ch->commands_dropped();
  for (auto& ch : channels_) ch->power_cut(now, facts.flash);
  // (The image has no capacitors to dump with: its buffered pages are all lost.)
  facts.buffered_pages_lost = registers_ ? mapping_->buffered_pages().size() : firmware().unsaved_buffered_pages();
}

void SsdTop::power_off(sc_core::sc_time now) {
  for (auto& ch : channels_) ch->power_off(now);
  host_if_->power_off();
  if (core_) core_->power_off(now);
  hal_->power_off();
}

const fw::BootRecovery& SsdTop::boot_recovery(const fw::FirmwareCosts& costs, bool scan_whole_blocks,
                                              std::function<void()> done) {
  if (!core_) throw std::logic_error("the boot after a power cut runs on the annotated core only");
  boot_ = std::make_unique<fw::BootRecovery>(*hal_, costs, logical_pages(), scan_whole_blocks,
                                             fw::BootCheckpoints{checkpoints_.get(), firmware_->checkpoint_blocks()});
  core_->post([this, done = std::move(done)] { boot_->start(done); }, hw::JobHint{});
  return *boot_;
}

const MetricsRegistry& SsdTop::remount(std::function<void(const fw::Firmware::MountCounts&)> done) {
  if (!boot_) throw std::logic_error("remount: the drive has not booted after a power cut");
  mount_image_ = std::make_unique<fw::MountImage>(fw::MountImage{
      boot_->recovery(), boot_->written(), [this](BlockId b) { return array_.erase_count(b); }, firmware_->grown_bad_blocks()});
  mapping_.reset();
  firmware_.reset();
  hal_->release_tables();
  remount_metrics_ = std::make_unique<MetricsRegistry>();
  firmware_ = std::make_unique<fw::Firmware>(*switch_, firmware_config_, *remount_metrics_);
  if (checkpoints_) firmware_->set_checkpoint_medium(checkpoints_.get());
  hal_->set_host_handler(*firmware_);
  mapping_ = std::make_unique<FirmwareMapping>(*firmware_);
  core_->post([this, done = std::move(done)] { firmware_->mount(*mount_image_, done); }, hw::JobHint{});
  return *remount_metrics_;
}

sc_core::sc_time SsdTop::finalize(sc_core::sc_time end) {
  const sc_core::sc_time idle = core_ ? std::max(end, core_->drained_at()) : end;
  for (auto& ch : channels_) ch->end_of_simulation_stats(idle);
  if (core_) core_->finalize(idle);
  if (registers_) {
    registers_->finalize(idle);
    registers_->export_metrics(metrics_);  // the firmware's own figures (ftl, firmware sets) live in the image
  }
  return idle;
}

}  // namespace ssd::platform
