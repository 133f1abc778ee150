#include "platforms/config/platform_config.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

#include "fw/ftl/registry.h"

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
  std::string text(const std::string& key, const std::string& fallback) {
    YAML::Node n = find(key);
    read_.insert(key);
    std::string v = fallback;
    if (n.IsDefined() && !n.IsNull()) {
      if (!n.IsScalar()) fail(key, "(not a scalar)", "a single value");
      v = n.Scalar();
    }
    effective_[key] = v;
    return v;
  }
  double real(const std::string& key, double fallback, double lo, double hi, bool lo_open = false) {
    std::ostringstream fb;
    fb << fallback;
    std::string s = text(key, fb.str());
    double v;
    try {
      std::size_t used;
      v = std::stod(s, &used);
      if (used != s.size()) throw std::invalid_argument("");
    } catch (const std::exception&) {
      fail(key, "'" + s + "'", "a number");
    }
    if (!(lo_open ? v > lo : v >= lo) || !(v <= hi)) {
      std::ostringstream e;
      e << "a number in " << (lo_open ? "(" : "[") << lo << ", " << hi << "]";
      fail(key, s, e.str());
    }
    return v;
  }
  std::uint32_t integer(const std::string& key, std::uint32_t fallback, std::uint32_t lo, std::uint32_t hi) {
    std::string s = text(key, std::to_string(fallback));
    long long v;
    try {
      std::size_t used;
      v = std::stoll(s, &used);
      if (used != s.size()) throw std::invalid_argument("");
    } catch (const std::exception&) {
      fail(key, "'" + s + "'", "an integer");
    }
    if (v < lo || v > hi) fail(key, s, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return static_cast<std::uint32_t>(v);
  }
  bool boolean(const std::string& key, bool fallback) {
    std::string s = text(key, fallback ? "true" : "false");
    if (s == "true" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "no" || s == "off") return false;
    fail(key, "'" + s + "'", "true or false");
  }
  std::string choice(const std::string& key, const std::string& fallback, const std::set<std::string>& allowed) {
    std::string s = text(key, fallback);
    if (!allowed.count(s)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(key, "'" + s + "'", "one of " + list);
    }
    return s;
  }
  std::vector<double> list(const std::string& key, std::vector<double> fallback, double lo, double hi) {
    YAML::Node n = find(key);
    read_.insert(key);
    std::vector<double> v = fallback;
    if (n.IsDefined() && !n.IsNull()) {
      v.clear();
      if (n.IsScalar()) n.reset(YAML::Load("[" + n.Scalar() + "]"));
      if (!n.IsSequence() || n.size() < 1 || n.size() > 10) fail(key, "(" + YAML::Dump(n) + ")", "a list of 1 to 10 numbers");
      for (const auto& e : n) {
        double x;
        try {
          x = e.as<double>();
        } catch (const std::exception&) {
          fail(key, YAML::Dump(n), "a list of numbers");
        }
        if (!(x > lo && x <= hi)) {
          std::ostringstream os;
          os << "numbers in (" << lo << ", " << hi << "]";
          fail(key, YAML::Dump(n), os.str());
        }
        v.push_back(x);
      }
    }
    std::ostringstream os;
    os << "[";
    for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
    os << "]";
    effective_[key] = os.str();
    return v;
  }
  // Keys present in the file that nothing read (typos, unknown parameters).
  void reject_unknown(const YAML::Node& n, const std::string& prefix) const {
    if (!n.IsMap()) {
      if (!read_.count(prefix)) throw ConfigError(file_ + ": unknown parameter '" + prefix + "' (see `ssdsim params`)");
      return;
    }
    for (const auto& kv : n) {
      std::string key = (prefix.empty() ? "" : prefix + ".") + kv.first.as<std::string>();
      if (key == "ftl") continue;  // checked by the FTL itself
      if (read_.count(key) && !kv.second.IsMap()) continue;
      if (read_.count(key) && kv.second.IsMap()) throw ConfigError(file_ + ": " + key + " must be a single value");
      reject_unknown(kv.second, key);
    }
  }
  const YAML::Node& root() const { return root_; }
  std::map<std::string, std::string>& effective() { return effective_; }

 private:
  YAML::Node root_;
  std::string file_;
  std::set<std::string> read_;
  std::map<std::string, std::string> effective_;
};

void apply_override(YAML::Node& root, const std::string& file, const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("override '" + assignment + "' is not of the form key=value");
  std::string key = assignment.substr(0, eq);
  const std::string value = assignment.substr(eq + 1);
  bool exact = false;
  for (const auto& e : platform_schema()) exact |= e.key == key;
  if (!exact && key.find('.') == std::string::npos) {  // a last component: must name exactly one key
    std::vector<std::string> matches;
    for (const auto& e : platform_schema()) {
      const std::size_t dot = e.key.rfind('.');
      if ((dot == std::string::npos ? e.key : e.key.substr(dot + 1)) == key) matches.push_back(e.key);
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
}

}  // namespace

PlatformConfig load_platform(const std::string& path, const std::vector<std::string>& overrides) {
  YAML::Node root;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw ConfigError("cannot read platform file '" + path + "'");
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw ConfigError("cannot read platform file '" + path + "'");
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  if (root.IsNull()) root.reset(YAML::Node(YAML::NodeType::Map));
  if (!root.IsMap()) throw ConfigError(path + ": a platform file is a map of sections");
  for (const auto& o : overrides) apply_override(root, path, o);

  Reader r(root, path);
  PlatformConfig c;
  c.source = path;
  c.name = r.text("name", "unnamed");

  FlashGeometry& g = c.geometry;
  g.channels = r.integer("geometry.channels", 8, 1, 64);
  g.ways = r.integer("geometry.ways", 4, 1, 32);
  g.dies_per_way = r.integer("geometry.dies_per_way", 1, 1, 8);
  g.planes_per_die = r.integer("geometry.planes_per_die", 2, 1, 8);
  g.blocks_per_plane = r.integer("geometry.blocks_per_plane", 1024, 4, 65536);
  g.pages_per_block = r.integer("geometry.pages_per_block", 256, 2, 4096);
  g.page_bytes = r.integer("geometry.page_bytes", 8192, 512, 65536);
  if (g.page_bytes % 512) r.fail("geometry.page_bytes", std::to_string(g.page_bytes), "a multiple of 512");
  g.oob_bytes = r.integer("geometry.oob_bytes", 448, 0, 8192);
  if (g.total_pages() >= kNoPpn)
    throw ConfigError(path + ": the geometry has " + std::to_string(g.total_pages()) +
                      " pages; at most 4294967294 are addressable (reduce geometry.blocks_per_plane or pages)");

  auto us = [](double v) { return sc_time(v * 1e6, sc_core::SC_PS); };
  c.nand.t_read.clear();
  for (double v : r.list("nand.t_read_us", {50}, 0, 100000)) c.nand.t_read.push_back(us(v));
  c.nand.t_prog.clear();
  for (double v : r.list("nand.t_prog_us", {600}, 0, 100000)) c.nand.t_prog.push_back(us(v));
  c.nand.t_erase = us(r.real("nand.t_erase_us", 3000, 0, 1e6, true));
  c.nand.read_cmd_cycles = r.integer("nand.read_cmd_cycles", 7, 1, 64);
  c.nand.program_cmd_cycles = r.integer("nand.program_cmd_cycles", 7, 1, 64);
  c.nand.erase_cmd_cycles = r.integer("nand.erase_cmd_cycles", 5, 1, 64);
  c.nand.cmd_cycle = sc_time(r.real("nand.cmd_cycle_ns", 10, 0, 1000, true) * 1e3, sc_core::SC_PS);
  c.nand.multiplane = r.boolean("nand.multiplane", true);
  c.sequential_program = r.boolean("nand.sequential_program", true);

  c.channel.width_bits = r.integer("channel.width_bits", 8, 8, 16);
  if (c.channel.width_bits != 8 && c.channel.width_bits != 16)
    r.fail("channel.width_bits", std::to_string(c.channel.width_bits), "8 or 16");
  c.channel.rate_mts = static_cast<std::uint32_t>(r.real("channel.rate_mts", 400, 0, 10000, true));
  c.scheduler = r.choice("channel.scheduler", "fifo", {"fifo", "read_first"}) == "fifo" ? hw::DieScheduler::Fifo
                                                                                       : hw::DieScheduler::ReadFirst;

  c.bus.width_bytes = r.integer("bus.width_bytes", 16, 1, 256);
  c.bus.clock_mhz = r.real("bus.clock_mhz", 400, 0, 10000, true);
  c.sram.size_bytes = std::uint64_t(r.integer("sram.size_kib", 2048, 1, 1048576)) << 10;
  c.sram.latency = sc_time(r.real("sram.latency_ns", 5, 0, 10000) * 1e3, sc_core::SC_PS);
  c.sram.bandwidth_mbps = r.real("sram.bandwidth_mbps", 6400, 0, 1e6, true);
  c.dram.size_bytes = std::uint64_t(r.integer("dram.size_mib", 1024, 1, 1048576)) << 20;
  c.dram.latency = sc_time(r.real("dram.latency_ns", 60, 0, 10000) * 1e3, sc_core::SC_PS);
  c.dram.bandwidth_mbps = r.real("dram.bandwidth_mbps", 6400, 0, 1e6, true);
  c.core.count = r.integer("core.count", 1, 1, 16);
  c.core.clock_mhz = r.real("core.clock_mhz", 400, 0, 10000, true);
  c.core.dispatch = r.choice("core.dispatch", "first_idle", hw::core_dispatch_names());

  fw::FirmwareCosts& k = c.firmware.costs;
  c.firmware.buffer_slots = r.integer("firmware.buffer_slots", 1024, 1, 1048576);
  c.firmware.write_cache = r.boolean("firmware.write_cache", false);
  k.host_command = r.integer("firmware_cycles.host_command", k.host_command, 0, 10000000);
  k.host_page = r.integer("firmware_cycles.host_page", k.host_page, 0, 10000000);
  k.host_complete = r.integer("firmware_cycles.host_complete", k.host_complete, 0, 10000000);
  k.op_issue = r.integer("firmware_cycles.op_issue", k.op_issue, 0, 10000000);
  k.op_complete = r.integer("firmware_cycles.op_complete", k.op_complete, 0, 10000000);
  k.map_lookup = r.integer("firmware_cycles.map_lookup", k.map_lookup, 0, 10000000);
  k.map_update = r.integer("firmware_cycles.map_update", k.map_update, 0, 10000000);
  k.page_allocate = r.integer("firmware_cycles.page_allocate", k.page_allocate, 0, 10000000);
  k.gc_scan_per_block = r.integer("firmware_cycles.gc_scan_per_block", k.gc_scan_per_block, 0, 10000000);

  c.host.lanes = r.integer("host.lanes", 4, 1, 32);
  c.host.lane_gtps = r.real("host.lane_gtps", 8, 0, 128, true);
  c.host.encoding = r.real("host.encoding", 128.0 / 130.0, 0, 1, true);
  c.host.latency = sc_time(r.real("host.latency_ns", 500, 0, 1e6) * 1e3, sc_core::SC_PS);
  c.host.queue_depth = r.integer("host.queue_depth", 64, 1, 65536);

  // FTL: the name, and every other key as the FTL's own parameter (it validates them).
  c.firmware.ftl = r.text("ftl.name", "page_mapping");
  if (!fw::find_ftl(c.firmware.ftl))
    r.fail("ftl.name", "'" + c.firmware.ftl + "'", "one of " + fw::ftl_names());
  std::map<std::string, std::string> ftl_params;
  if (YAML::Node ftl = root["ftl"]) {
    if (!ftl.IsMap()) r.fail("ftl", "(not a section)", "a section with name and the FTL's parameters");
    // Flat keys go to whichever FTL runs; a subsection named after an FTL only to that FTL (so
    // one platform file can carry settings for several and --ftl can switch between them).
    std::map<std::string, std::string> own;
    for (const auto& kv : ftl) {
      const std::string key = kv.first.as<std::string>();
      if (key == "name") continue;
      if (kv.second.IsMap() && fw::find_ftl(key)) {
        for (const auto& sub : kv.second) {
          const std::string name = "ftl." + key + "." + sub.first.as<std::string>();
          if (!sub.second.IsScalar()) r.fail(name, "(not a scalar)", "a single value");
          if (key == c.firmware.ftl) own[sub.first.as<std::string>()] = sub.second.Scalar();
        }
        continue;
      }
      if (!kv.second.IsScalar())
        r.fail("ftl." + key, "(not a scalar)", "a single value, or a section named after an FTL (" + fw::ftl_names() + ")");
      ftl_params[key] = kv.second.Scalar();
    }
    for (const auto& [k, v] : own) ftl_params[k] = v;
  }
  c.firmware.ftl_options = fw::FtlOptions(ftl_params);
  r.reject_unknown(root, "");
  try {  // the FTL checks its own parameters against this geometry
    fw::FtlOptions probe(ftl_params);
    fw::find_ftl(c.firmware.ftl)->check(probe, c.geometry);
    for (const auto& [k, v] : probe.effective()) r.effective()["ftl." + k] = v;
  } catch (const fw::FtlOptionError& e) {
    throw ConfigError(path + ": " + e.what());
  }
  c.effective = r.effective();
  return c;
}

}  // namespace ssd::platform
