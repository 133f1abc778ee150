// What the firmware needs to know at boot (the flash geometry and the firmware section of the
// platform file), as the text a controller's boot loader hands the firmware image on the ISS
// core (core.model: iss): key=value lines, written by the platform, read by the image's
// start-up (fw/target/). Both ends are here so they cannot drift apart. Not carried: the costs
// (the image charges its own units) and firmware.plp (refused with core.model: iss, the
// power-loss signal does not reach the image).
#pragma once

#include <stdexcept>
#include <string>

#include "common/geometry.h"
#include "fw/firmware/firmware.h"

namespace ssd::fw {

struct BootConfig {
  FlashGeometry geometry;
  FirmwareConfig firmware;
  // The image marks each charge at the controller (register kWorkMark), so the platform can
  // attribute the cycles between charges to their kinds of work (tools/calibrate.py).
  bool mark_work = false;
};

class BootConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string write_boot_config(const BootConfig& config);
// Throws BootConfigError naming the line for anything it does not understand.
BootConfig read_boot_config(const std::string& text);

}  // namespace ssd::fw
