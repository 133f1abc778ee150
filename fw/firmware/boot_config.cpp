#include "fw/firmware/boot_config.h"

#include <cstdlib>
#include <map>
#include <sstream>

namespace ssd::fw {

namespace {

template <typename T>
void put(std::ostringstream& out, const char* key, T value) {
  out << key << '=' << value << '\n';
}

}  // namespace

std::string write_boot_config(const BootConfig& c) {
  std::ostringstream out;
  out.precision(17);
  const FlashGeometry& g = c.geometry;
  put(out, "geometry.channels", g.channels);
  put(out, "geometry.ways", g.ways);
  put(out, "geometry.dies_per_way", g.dies_per_way);
  put(out, "geometry.planes_per_die", g.planes_per_die);
  put(out, "geometry.blocks_per_plane", g.blocks_per_plane);
  put(out, "geometry.pages_per_block", g.pages_per_block);
  put(out, "geometry.page_bytes", g.page_bytes);
  put(out, "geometry.oob_bytes", g.oob_bytes);
  const FirmwareConfig& f = c.firmware;
  put(out, "firmware.ftl", f.ftl);
  put(out, "firmware.buffer_slots", f.buffer_slots);
  put(out, "firmware.write_buffer.policy", write_buffer_policy_names().at(static_cast<std::size_t>(f.write_buffer.policy)));
  put(out, "firmware.write_buffer.bytes", f.write_buffer.bytes);
  put(out, "firmware.write_buffer.high_water", f.write_buffer.high_water);
  put(out, "firmware.write_buffer.flush_depth", f.write_buffer.flush_depth);
  put(out, "firmware.read_reclaim_reads", f.read_reclaim_reads);
  put(out, "firmware.bad_blocks", f.bad_blocks ? 1 : 0);
  put(out, "firmware.read_only_margin", f.read_only_margin);
  put(out, "firmware.wear_leveling", wear_leveling_names().at(static_cast<std::size_t>(f.wear_leveling.mode)));
  put(out, "firmware.wear_leveling_spread", f.wear_leveling.spread);
  put(out, "firmware.erase_after_copies", f.erase_after_copies ? 1 : 0);
  put(out, "firmware.word_line_safety", f.word_line_safety ? 1 : 0);
  put(out, "firmware.word_line_pages", f.word_line_pages);
  put(out, "firmware.mark_work", c.mark_work ? 1 : 0);
  // Not the FTL's own costs (cycles.*): the image charges units (fw/target/main.cpp).
  for (const auto& [key, value] : f.ftl_options.values())
    if (key.compare(0, 7, "cycles.") != 0) out << "ftl." << key << '=' << value << '\n';
  return out.str();
}

BootConfig read_boot_config(const std::string& text) {
  BootConfig c;
  std::map<std::string, std::string> ftl;
  std::istringstream in(text);
  std::string line;
  for (unsigned number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) throw BootConfigError("boot configuration line " + std::to_string(number) + ": no '='");
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    auto whole = [&](std::uint64_t max) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || v > max)
        throw BootConfigError("boot configuration line " + std::to_string(number) + ": " + key + " = '" + value +
                              "' is not a whole number up to " + std::to_string(max));
      return std::uint64_t(v);
    };
    auto u32 = [&] { return static_cast<std::uint32_t>(whole(0xffffffffu)); };
    FlashGeometry& g = c.geometry;
    FirmwareConfig& f = c.firmware;
    if (key.compare(0, 4, "ftl.") == 0) ftl[key.substr(4)] = value;
    else if (key == "geometry.channels") g.channels = u32();
    else if (key == "geometry.ways") g.ways = u32();
    else if (key == "geometry.dies_per_way") g.dies_per_way = u32();
    else if (key == "geometry.planes_per_die") g.planes_per_die = u32();
    else if (key == "geometry.blocks_per_plane") g.blocks_per_plane = u32();
    else if (key == "geometry.pages_per_block") g.pages_per_block = u32();
    else if (key == "geometry.page_bytes") g.page_bytes = u32();
    else if (key == "geometry.oob_bytes") g.oob_bytes = u32();
    else if (key == "firmware.ftl") f.ftl = value;
    else if (key == "firmware.buffer_slots") f.buffer_slots = u32();
    else if (key == "firmware.write_buffer.policy") {
      try {
        f.write_buffer.policy = write_buffer_policy(value);
      } catch (const std::invalid_argument& e) {
        throw BootConfigError("boot configuration line " + std::to_string(number) + ": " + e.what());
      }
    } else if (key == "firmware.write_buffer.bytes") f.write_buffer.bytes = whole(~0ull);
    else if (key == "firmware.write_buffer.high_water") f.write_buffer.high_water = std::strtod(value.c_str(), nullptr);
    else if (key == "firmware.write_buffer.flush_depth") f.write_buffer.flush_depth = u32();
    else if (key == "firmware.read_reclaim_reads") f.read_reclaim_reads = u32();
    else if (key == "firmware.bad_blocks") f.bad_blocks = u32() != 0;
    else if (key == "firmware.read_only_margin") f.read_only_margin = u32();
    else if (key == "firmware.wear_leveling_spread") f.wear_leveling.spread = u32();
    else if (key == "firmware.wear_leveling") {
      try {
        f.wear_leveling.mode = wear_leveling_mode(value);
      } catch (const std::invalid_argument& e) {
        throw BootConfigError("boot configuration line " + std::to_string(number) + ": " + e.what());
      }
    }
    else if (key == "firmware.erase_after_copies") f.erase_after_copies = whole(1) != 0;
    else if (key == "firmware.word_line_safety") f.word_line_safety = whole(1) != 0;
    else if (key == "firmware.word_line_pages") f.word_line_pages = u32();
    else if (key == "firmware.mark_work") c.mark_work = whole(1) != 0;
    else throw BootConfigError("boot configuration line " + std::to_string(number) + ": unknown key '" + key + "'");
  }
  c.firmware.ftl_options = FtlOptions(std::move(ftl));
  return c;
}

}  // namespace ssd::fw
