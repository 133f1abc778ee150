// The text of a key of a YAML map in a platform or job file. Keys are plain names: a key that
// is a list, a map or empty ("? [a, b]: 1", "? {x: 1}: 2", "? : 3") is refused with a ConfigError
// naming the file and the line, where yaml-cpp would throw a bad conversion (found by fuzzing).
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "platforms/config/platform_config.h"

namespace ssd::platform {

inline std::string key_text(const YAML::Node& key, const std::string& file) {
  if (!key.IsScalar())
    throw ConfigError(file + ":" + std::to_string(key.Mark().line + 1) + ": expected a plain name as a key, got " +
                      (key.IsSequence() ? "a list" : key.IsMap() ? "a map" : "an empty key"));
  return key.Scalar();
}

}  // namespace ssd::platform
