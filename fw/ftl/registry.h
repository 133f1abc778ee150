// The FTLs the firmware can run, by name. Adding an FTL: a folder under fw/ftl/ and one line in
// fw/ftl/registry.cpp.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fw/ftl/ftl.h"

namespace ssd::fw {

struct FtlInfo {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<Ftl>(FtlContext&)> make;
  // Reads and checks the FTL's parameters for a geometry and a part of so many bits a cell
  // without building it (validation, listing); throws FtlOptionError.
  std::function<void(FtlOptions&, const FlashGeometry&, std::uint32_t bits_per_cell)> check;
};

const std::vector<FtlInfo>& ftl_registry();
const FtlInfo* find_ftl(const std::string& name);  // nullptr when unknown
std::string ftl_names();                           // "a, b, c" for error messages

}  // namespace ssd::fw
