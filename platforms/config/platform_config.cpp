#include "platforms/config/platform_config.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "common/controller_mmio.h"

#include "fw/ftl/registry.h"
#include "platforms/config/parameter.h"
#include "platforms/config/yaml_keys.h"

namespace ssd::platform {

namespace {

using sc_core::sc_time;

// Walks the YAML tree by dotted keys, remembers what was read, and reports every problem with
// the file name and the key.
class Reader {
 public:
  Reader(YAML::Node root, std::string file) : root_(std::move(root)), file_(std::move(file)) {}

  YAML::Node find(const std::string& key) const {
    // Const lookups only: yaml-cpp's non-const operator[] would create keys, and Node
    // assignment would overwrite the referenced node, so handles are re-seated with reset().
    YAML::Node n;
    n.reset(root_);
    std::size_t pos = 0;
    while (true) {
      std::size_t dot = key.find('.', pos);
      std::string part = key.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
      const YAML::Node& cur = n;
      if (!cur.IsMap()) return YAML::Node();
      const YAML::Node child = cur[part];
      if (!child || child.IsNull()) return YAML::Node();  // absent (or empty): the default applies
      n.reset(child);
      if (dot == std::string::npos) return n;
      pos = dot + 1;
    }
  }
  [[noreturn]] void fail(const std::string& key, const std::string& value, const std::string& expect) const {
    throw ConfigError(file_ + ": " + key + " = " + value + " is invalid: expected " + expect);
  }
  // Reads one declared parameter: the file's value, parsed and checked, or its default.
  nlohmann::json value(const Parameter& p) {
    read_.insert(p.key);
    const YAML::Node n = find(p.key);
    return n.IsDefined() && !n.IsNull() ? p.parse(n, file_) : p.fallback;
  }
  // Keys present in the file that nothing read (typos, unknown parameters).
  void reject_unknown(const YAML::Node& n, const std::string& prefix) const {
    if (!n.IsMap()) {
      if (!read_.count(prefix)) throw ConfigError(file_ + ": unknown parameter '" + prefix + "' (see `ssdsim params`)");
      return;
    }
    for (const auto& kv : n) {
      std::string key = (prefix.empty() ? "" : prefix + ".") + key_text(kv.first, file_);
      if (key == "ftl") continue;  // checked by the FTL itself
      if (prefix == "firmware_cycles" && kv.second.IsMap()) continue;  // an FTL's own costs: read with the ftl section
      if (read_.count(key) && !kv.second.IsMap()) continue;
      if (read_.count(key) && kv.second.IsMap()) throw ConfigError(file_ + ": " + key + " must be a single value");
      reject_unknown(kv.second, key);
    }
  }
  const YAML::Node& root() const { return root_; }

 private:
  YAML::Node root_;
  std::string file_;
  std::set<std::string> read_;
};


// Applies one "key=value" and returns the key as declared (a last component resolved).
std::string apply_override(YAML::Node& root, const std::string& file, const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("override '" + assignment + "' is not of the form key=value");
  std::string key = assignment.substr(0, eq);
  const std::string value = assignment.substr(eq + 1);
  bool exact = false;
  exact = find_parameter(key) != nullptr;
  if (!exact && key.find('.') == std::string::npos) {  // a last component: must name exactly one key
    std::vector<std::string> matches;
    for (const auto& p : platform_parameters()) {
      const std::size_t dot = p.key.rfind('.');
      if ((dot == std::string::npos ? p.key : p.key.substr(dot + 1)) == key) matches.push_back(p.key);
    }
    if (matches.empty()) throw ConfigError("override '" + assignment + "': unknown parameter '" + key + "' (see `ssdsim params`)");
    if (matches.size() > 1) {
      std::string all;
      for (const auto& m : matches) all += (all.empty() ? "" : ", ") + m;
      throw ConfigError("override '" + assignment + "': '" + key + "' is ambiguous (" + all + ")");
    }
    key = matches[0];
  } else if (!exact && key.rfind("ftl.", 0) != 0) {
    throw ConfigError("override '" + assignment + "': unknown parameter '" + key + "' (see `ssdsim params`)");
  }
  YAML::Node parsed;
  try {
    parsed = YAML::Load(value);
  } catch (const YAML::Exception&) {
    parsed = YAML::Node(value);
  }
  // Walk/create the path and set the leaf.
  std::vector<std::string> parts;
  std::size_t pos = 0, dot;
  while ((dot = key.find('.', pos)) != std::string::npos) {
    parts.push_back(key.substr(pos, dot - pos));
    pos = dot + 1;
  }
  parts.push_back(key.substr(pos));
  std::vector<YAML::Node> chain{root};
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node next = chain.back()[parts[i]];
    if (!next.IsMap()) {
      if (next.IsDefined() && !next.IsNull())
        throw ConfigError(file + ": override '" + assignment + "': '" + parts[i] + "' is not a section");
      chain.back()[parts[i]] = YAML::Node(YAML::NodeType::Map);
      next.reset(chain.back()[parts[i]]);
    }
    chain.push_back(next);
  }
  chain.back()[parts.back()] = parsed;
  // A flat FTL parameter on the command line applies to whichever FTL runs: it replaces what
  // the file's per-FTL subsections say for the same key.
  if (parts.size() == 2 && parts[0] == "ftl" && parts[1] != "name")
    for (const auto& f : fw::ftl_registry())
      if (YAML::Node section = root["ftl"][f.name]; section.IsMap()) section.remove(parts[1]);
  return key;
}

}  // namespace

PlatformConfig load_platform(const std::string& path, const std::vector<std::string>& overrides) {
  std::error_code ec;
  std::ifstream in;
  if (std::filesystem::is_regular_file(path, ec)) in.open(path, std::ios::binary);
  if (!in.is_open()) throw ConfigError("cannot read platform file '" + path + "'");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw ConfigError("cannot read platform file '" + path + "'");
  return load_platform_text(text, path, overrides);
}

namespace {

// The YAML tree with the --set overrides applied; `keys` gets each override's declared key and
// the value as given.
YAML::Node parse_platform_yaml(const std::string& text, const std::string& path, const std::vector<std::string>& overrides,
                               std::vector<std::pair<std::string, std::string>>& keys) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  if (root.IsNull()) root.reset(YAML::Node(YAML::NodeType::Map));
  if (!root.IsMap()) throw ConfigError(path + ": a platform file is a map of sections");
  for (const auto& o : overrides) keys.emplace_back(apply_override(root, path, o), o.substr(o.find('=') + 1));
  return root;
}

// Every registered parameter (platform_parameters.cpp), then what one parameter alone cannot check.
void read_parameters(Reader& r, const std::string& path, PlatformConfig& c) {
  for (const Parameter& p : platform_parameters()) {
    nlohmann::json v = r.value(p);
    p.apply(c, v);
    c.effective[p.key] = std::move(v);
  }
  const FlashGeometry& g = c.geometry;
  if (g.page_bytes % 512) r.fail("geometry.page_bytes", std::to_string(g.page_bytes), "a multiple of 512");
  if (g.total_pages() >= kNoPpn)
    throw ConfigError(path + ": the geometry has " + std::to_string(g.total_pages()) +
                      " pages; at most 4294967294 are addressable (reduce geometry.blocks_per_plane or pages)");
  if (c.channel.width_bits != 8 && c.channel.width_bits != 16)
    r.fail("channel.width_bits", std::to_string(c.channel.width_bits), "8 or 16");
  const hw::EccConfig& ecc = c.reliability.ecc;
  const std::uint64_t codewords = (g.page_bytes + ecc.codeword_bytes - 1) / ecc.codeword_bytes;
  if (c.reliability.errors && codewords * ecc.parity_bytes > g.oob_bytes)
    r.fail("ecc.parity_bytes", std::to_string(ecc.parity_bytes),
           "at most " + std::to_string(g.oob_bytes / codewords) + ": a page's " + std::to_string(codewords) +
               " codewords keep their parity in its spare area (geometry.oob_bytes = " + std::to_string(g.oob_bytes) + ")");
  if (ecc.codeword_bytes > g.page_bytes)
    r.fail("ecc.codeword_bytes", std::to_string(ecc.codeword_bytes),
           "at most geometry.page_bytes = " + std::to_string(g.page_bytes) + " (a page holds whole codewords)");
  if (ecc.correctable_bits >= ecc.codeword_bits())
    r.fail("ecc.correctable_bits", std::to_string(ecc.correctable_bits),
           "fewer than the codeword's " + std::to_string(ecc.codeword_bits()) + " bits");
  if (ecc.soft_levels > 0 && (ecc.soft_correctable_bits <= ecc.correctable_bits || ecc.soft_correctable_bits >= ecc.codeword_bits()))
    r.fail("ecc.soft_correctable_bits", std::to_string(ecc.soft_correctable_bits),
           "more than ecc.correctable_bits = " + std::to_string(ecc.correctable_bits) + " and fewer than the codeword's " +
               std::to_string(ecc.codeword_bits()) + " bits when ecc.soft_levels > 0");
  if (const auto listed = c.effective.find("failures.factory_bad_blocks"); listed != c.effective.end())
    for (const auto& v : *listed)
      if (const double b = v.get<double>(); b != std::floor(b) || b >= double(g.total_blocks()))
        r.fail("failures.factory_bad_blocks", fmt::format("{:g}", b),
               "whole block numbers below the array's " + std::to_string(g.total_blocks()) + " blocks");
  c.firmware.bad_blocks = c.reliability.failures.any();  // the firmware handles what the flash may do
  if (c.firmware.plp && !(c.firmware.plp_hold_up_us > 0))
    throw ConfigError(path + ": firmware.plp = capacitors needs their hold-up time, firmware.plp_hold_up_us > 0");
  if (c.firmware.checkpoint_interval_bytes > 0 && c.core.model == "iss")
    throw ConfigError(path + ": firmware.checkpoint_interval_mib: map checkpoints and the boot that reads them run on "
                      "the annotated core only (core.model = annotated)");
  if (c.firmware.plp && c.core.model == "iss")
    throw ConfigError(path + ": firmware.plp = capacitors: the power-loss signal reaches the firmware on the "
                      "annotated core only (core.model = annotated)");
  if (c.core.model == "iss") {
    if (c.core.count != 1)
      throw ConfigError(path + ": core.model = iss runs one core; core.count = " + std::to_string(c.core.count) +
                        " needs the annotated model (core.model = annotated)");
    if (c.firmware.buffer_slots > 4096)
      throw ConfigError(path + ": core.model = iss shows a command's host data tokens in a window of 4096 pages a "
                        "command: firmware.buffer_slots = " + std::to_string(c.firmware.buffer_slots) +
                        " allows larger commands (at most 4096 with core.model = iss)");
    if (c.host.queue_depth > mmio::kTokenWindowCommandIds)
      throw ConfigError(path + ": core.model = iss has a token window for " + std::to_string(mmio::kTokenWindowCommandIds) +
                        " command ids: host.queue_depth = " + std::to_string(c.host.queue_depth) + " (at most " +
                        std::to_string(mmio::kTokenWindowCommandIds) + " with core.model = iss)");
    if (c.sram.size_bytes % 4096 != 0 || c.sram.size_bytes > 0x2000'0000)
      throw ConfigError(path + ": core.model = iss maps the SRAM into the core's address space in 4 KiB pages, up to "
                        "512 MiB: sram.size_kib = " + std::to_string(c.sram.size_bytes >> 10) + " is not a multiple of 4 "
                        "up to 524288");
  }
  if (c.host.coalescing_threshold > 1 && c.host.coalescing_time == sc_core::SC_ZERO_TIME)
    throw ConfigError(path + ": host.coalescing_threshold = " + std::to_string(c.host.coalescing_threshold) +
                      " needs host.coalescing_time_us > 0 (the longest an entry waits for its interrupt)");
  finish_power_config(path, c);
  // The pages a word line holds: the part's page types (bits per cell), which the firmware reads
  // from its parameter page.
  c.firmware.word_line_pages = static_cast<std::uint32_t>(std::max<std::size_t>(1, c.nand.t_prog.size()));
  c.firmware.write_buffer.bytes = static_cast<std::uint64_t>(c.write_buffer_dram_share * double(c.dram.size_bytes));
  const std::uint64_t buffer_pages = c.firmware.write_buffer.bytes / g.page_bytes;
  if (c.firmware.write_buffer.policy != fw::WriteBufferPolicy::kOff && buffer_pages < c.firmware.buffer_slots)
    throw ConfigError(path + ": firmware.write_buffer_dram_share = " + c.effective["firmware.write_buffer_dram_share"].dump() +
                      " of dram.size_mib = " + std::to_string(c.dram.size_bytes >> 20) + " holds " +
                      std::to_string(buffer_pages) + " pages, fewer than one command may write (firmware.buffer_slots = " +
                      std::to_string(c.firmware.buffer_slots) + "): raise the share or the DRAM, or lower buffer_slots");
}

// The ftl section: every key but the name is the FTL's own parameter (it validates them). Flat
// keys go to whichever FTL runs; a subsection named after an FTL only to that FTL (so one
// platform file can carry settings for several and --ftl can switch between them).
std::map<std::string, std::string> read_ftl_section(const YAML::Node& root, Reader& r, const std::string& path,
                                                    const std::string& ftl_name) {
  std::map<std::string, std::string> params;
  const YAML::Node ftl = root["ftl"];
  if (!ftl) return params;
  if (!ftl.IsMap()) r.fail("ftl", "(not a section)", "a section with name and the FTL's parameters");
  std::map<std::string, std::string> own;
  for (const auto& kv : ftl) {
    const std::string key = key_text(kv.first, path);
    if (key == "name") continue;
    if (kv.second.IsMap() && fw::find_ftl(key)) {
      for (const auto& sub : kv.second) {
        const std::string sub_key = key_text(sub.first, path), name = "ftl." + key + "." + sub_key;
        if (!sub.second.IsScalar()) r.fail(name, "(not a scalar)", "a single value");
        if (key == ftl_name) own[sub_key] = sub.second.Scalar();
      }
      continue;
    }
    if (!kv.second.IsScalar())
      r.fail("ftl." + key, "(not a scalar)", "a single value, or a section named after an FTL (" + fw::ftl_names() + ")");
    params[key] = kv.second.Scalar();
  }
  for (const auto& [k, v] : own) params[k] = v;
  // The FTL's own firmware costs (firmware_cycles.<ftl>.<cost>), as its parameters cycles.<cost>
  // unless its section sets them.
  if (const YAML::Node cycles = root["firmware_cycles"]; cycles && cycles.IsMap()) {
    for (const auto& kv : cycles) {
      const std::string name = key_text(kv.first, path);
      if (!kv.second.IsMap()) continue;
      if (!fw::find_ftl(name)) r.fail("firmware_cycles." + name, "(a section)", "a cost, or a section named after an FTL (" + fw::ftl_names() + ")");
      for (const auto& cost : kv.second) {
        const std::string key = key_text(cost.first, path), full = "firmware_cycles." + name + "." + key;
        if (std::find(std::begin(fw::kFirmwareCostNames), std::end(fw::kFirmwareCostNames), key) == std::end(fw::kFirmwareCostNames))
          r.fail(full, "(unknown cost)", "one of the firmware_cycles costs");
        if (!cost.second.IsScalar()) r.fail(full, "(not a scalar)", "a whole number of cycles");
        if (name == ftl_name) params.emplace("cycles." + key, cost.second.Scalar());
      }
    }
  }
  return params;
}

// The FTL checks its own parameters against this geometry; their effective values join the report's.
void check_ftl_parameters(const std::map<std::string, std::string>& params, const std::string& path, PlatformConfig& c) {
  try {
    fw::FtlOptions probe(params);
    fw::FirmwareCosts costs = c.firmware.costs;
    fw::read_cost_overrides(probe, costs);
    fw::find_ftl(c.firmware.ftl)->check(probe, c.geometry, c.firmware.word_line_pages);
    for (const auto& [k, v] : probe.effective()) c.effective["ftl." + k] = typed_value(v);
    for (const std::string& w : probe.warnings()) c.warnings.push_back(path + ": " + w);
  } catch (const fw::FtlOptionError& e) {
    throw ConfigError(path + ": " + e.what());
  }
}

// The overrides as applied, by declared key, with their effective values (the last of a key
// given twice; as given for a key the running FTL does not read, such as ftl.dftl.cmt_bytes
// under another FTL); the platform's name gains them unless one sets the name itself, so the
// runs of a sweep over one file are told apart ("tiny [geometry.channels=2, geometry.ways=4]").
// The FTL is named in the report on its own and is left out.
void record_overrides(const std::vector<std::pair<std::string, std::string>>& keys, PlatformConfig& c) {
  std::vector<std::string> order;
  std::map<std::string, std::string> given;
  for (const auto& [k, v] : keys) {
    if (std::find(order.begin(), order.end(), k) == order.end()) order.push_back(k);
    given[k] = v;
  }
  std::string suffix;
  bool named = false;
  for (const std::string& k : order) {
    const nlohmann::json v = c.effective.contains(k) ? c.effective[k] : nlohmann::json(given[k]);
    c.overrides[k] = v;
    named |= k == "name";
    if (k == "name" || k == "ftl.name") continue;
    suffix += (suffix.empty() ? "" : ", ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  }
  if (!named && !suffix.empty()) c.name += " [" + suffix + "]";
}

// Calibrated cycles hold the ISS's memory stalls as cycles of the calibration clock; they do not
// scale with the clock as the core's own cycles do (bench/sweeps/firmware_cores_iss measures how
// far they carry).
void check_calibration_clock(const std::string& path, PlatformConfig& c) {
  const double at = c.firmware_cycles_clock_mhz, clock = c.core.clock_mhz;
  if (c.core.model != "annotated" || at <= 0 || std::abs(clock / at - 1) < 0.01) return;
  c.warnings.push_back(path + ": core.clock_mhz = " + fmt::format("{:g}", clock) +
                       " but the firmware_cycles were calibrated at " + fmt::format("{:g}", at) +
                       " MHz (firmware_cycles.clock_mhz): their memory stalls scale with the clock as if they were "
                       "core cycles, so the firmware's cost is off at this clock (bench/sweeps/firmware_cores_iss: "
                       "up to tens of percent); run core.model = iss, or calibrate at this clock");
}

}  // namespace

PlatformConfig load_platform_text(const std::string& text, const std::string& path,
                                  const std::vector<std::string>& overrides) {
  std::vector<std::pair<std::string, std::string>> override_keys;
  const YAML::Node root = parse_platform_yaml(text, path, overrides, override_keys);
  Reader r(root, path);
  PlatformConfig c;
  c.source = path;
  read_parameters(r, path, c);
  if (!fw::find_ftl(c.firmware.ftl)) r.fail("ftl.name", "'" + c.firmware.ftl + "'", "one of " + fw::ftl_names());
  const std::map<std::string, std::string> ftl_params = read_ftl_section(root, r, path, c.firmware.ftl);
  c.firmware.ftl_options = fw::FtlOptions(ftl_params);
  r.reject_unknown(root, "");
  check_ftl_parameters(ftl_params, path, c);
  check_calibration_clock(path, c);
  record_overrides(override_keys, c);
  return c;
}

}  // namespace ssd::platform
