#include "platforms/report/utilization.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace ssd::platform {

using nlohmann::json;

namespace {

bool is_busy_key(const std::string& key) {
  const std::string suffix = "busy_fraction";
  return key == "utilization" ||
         (key.size() >= suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0);
}

// An array is named by its element ("channels" -> "channel 0"), an object by its key with spaces
// ("system_bus" -> "system bus"); "per_x" arrays stand for their parent ("cores.per_core" ->
// "core 0").
std::string readable(std::string key, bool array) {
  if (array && key.size() > 1 && key.back() == 's') key.pop_back();
  std::replace(key.begin(), key.end(), '_', ' ');
  return key;
}

// The busy figure `key` of the object at `name`: "host interface" + "to_device_busy_fraction"
// -> "host link (to device)"; "channel 0" + "busy_fraction" -> "channel 0".
std::string resource_name(const std::string& name, const std::string& key) {
  if (key == "busy_fraction" || key == "utilization") return name;
  std::string what = key.substr(0, key.size() - std::string("_busy_fraction").size());
  std::replace(what.begin(), what.end(), '_', ' ');
  if (name == "host interface") return "host link (" + what + ")";
  return name + " " + what;
}

void collect(const json& node, const std::string& name, json& resources) {
  if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) collect(node[i], name + " " + std::to_string(i), resources);
    return;
  }
  if (!node.is_object()) return;
  for (const auto& [key, value] : node.items()) {
    if (value.is_number() && is_busy_key(key)) {
      resources[resource_name(name, key)] = value;
    } else if (value.is_structured()) {
      if (key.rfind("per_", 0) == 0) {
        collect(value, key.substr(4), resources);
        continue;
      }
      const std::string part = readable(key, value.is_array());
      collect(value, name.empty() ? part : name + " " + part, resources);
    }
  }
}

}  // namespace

json utilization_section(const json& hardware) {
  json resources = json::object();
  collect(hardware, "", resources);
  double lo = std::numeric_limits<double>::max(), hi = 0, sum = 0;
  std::size_t dies = 0;
  for (const auto& channel : hardware.value("channels", json::array()))
    for (const auto& die : channel.value("dies", json::array())) {
      const double b = die.value("busy_fraction", 0.0);
      lo = std::min(lo, b), hi = std::max(hi, b), sum += b, ++dies;
    }
  json u;
  u["resources"] = resources;
  u["dies"] = dies ? json{{"min", lo}, {"mean", sum / double(dies)}, {"max", hi}}
                   : json{{"min", 0.0}, {"mean", 0.0}, {"max", 0.0}};
  std::string busiest;
  double share = -1;
  for (const auto& [name, value] : resources.items())
    if (value.get<double>() > share) busiest = name, share = value.get<double>();
  u["busiest"] = {{"resource", busiest}, {"busy_fraction", std::max(share, 0.0)}};
  u["bound"] = share >= kBoundBusyShare;
  return u;
}

std::string bottleneck_text(const json& u) {
  const std::string busiest = u["busiest"]["resource"].get<std::string>();
  const double share = 100 * u["busiest"]["busy_fraction"].get<double>();
  if (u["bound"].get<bool>()) return fmt::format("bound by {} ({:.1f}% busy)", busiest, share);
  return fmt::format("not bound by the drive: its busiest resource, {}, is {:.1f}% busy (the host's queue depth or "
                     "arrival times set the pace)",
                     busiest, share);
}

}  // namespace ssd::platform
