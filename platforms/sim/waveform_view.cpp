#include "platforms/sim/waveform_view.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include <fmt/format.h>

#include "hw/channel/flash_die.h"
#include "platforms/config/platform_config.h"

namespace ssd::platform {

namespace {

namespace fs = std::filesystem;
using Signal = tlmx::VcdTracer::SignalInfo;

// GTKWave trace flags (gtkwave's analyzer.h): display format and group markers.
constexpr unsigned kDec = 0x4, kBin = 0x8, kRightJustify = 0x20, kBlank = 0x200, kCollapsed = 0x1000,
                   kFileFilter = 0x2000, kClosed = 0x400000, kGroupBegin = 0x800000, kGroupEnd = 0x1000000;

class SaveFile {
 public:
  explicit SaveFile(std::ofstream& out) : out_(out) {}
  void group(const std::string& name, bool closed) {
    flags(kGroupBegin | kBlank | (closed ? kClosed : 0));
    out_ << '-' << name << '\n';
    open_.push_back({name, closed});
  }
  void end_group() {
    const auto [name, closed] = open_.back();
    open_.pop_back();
    flags(kGroupEnd | kBlank | (closed ? kClosed | kCollapsed : 0));
    out_ << '-' << name << '\n';
  }
  // A signal under its alias; `filter` > 0 names it with that translate filter (^N line).
  void signal(const Signal& s, const std::string& alias, int filter = 0) {
    if (filter != filter_) {
      out_ << '^' << filter << ' ' << (filter ? filters_.at(filter - 1) : "disable") << '\n';
      filter_ = filter;
    }
    flags(kRightJustify | (filter ? kFileFilter | kDec : s.width == 1 ? kBin : kDec));
    std::string shown = alias;  // GTKWave cuts an alias at its last dot, as a hierarchical name
    std::replace(shown.begin(), shown.end(), '.', ' ');
    out_ << "+{" << shown << "} " << s.scope << '.' << s.name;  // +{alias} name
    if (s.width > 1) out_ << '[' << s.width - 1 << ":0]";
    out_ << '\n';
  }
  void add_filter(const std::string& path) { filters_.push_back(path); }

 private:
  void flags(unsigned f) {
    if (f != flags_) out_ << '@' << fmt::format("{:x}", f) << '\n';
    flags_ = f;
  }
  std::ofstream& out_;
  std::vector<std::pair<std::string, bool>> open_;
  std::vector<std::string> filters_;
  unsigned flags_ = 0;
  int filter_ = 0;
};

template <typename Names>
void write_filter(const fs::path& path, const char* what, const Names& names, std::size_t count) {
  std::ofstream f(path);
  f << "# GTKWave translate filter for " << what << " (written by ssdsim with the view)\n";
  for (std::size_t i = 0; i < count; ++i) f << i << ' ' << names[i] << '\n';
  if (!f) throw ConfigError("cannot write waveform filter '" + path.string() + "'");
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

}  // namespace

std::string view_path_for(const std::string& dump_path) {
  return fs::path(dump_path).replace_extension(".gtkw").string();
}

void write_waveform_view(const WaveformView& view) {
  const fs::path folder = fs::absolute(view.view_path).parent_path();
  const fs::path state_filter = folder / "die_state.filter", origin_filter = folder / "die_origin.filter";
  write_filter(state_filter, "a die's state and cache_state", hw::kDieStateNames, std::size(hw::kDieStateNames));
  write_filter(origin_filter, "a die's origin (whose work its array runs)", hw::kDieOriginNames,
               std::size(hw::kDieOriginNames));

  std::ofstream out(view.view_path);
  out << "[*] ssd-vp view, generated for this run's platform and traced signals\n"
      << "[dumpfile] \"" << fs::absolute(view.dump_path).string() << "\"\n"
      << "[savefile] \"" << fs::absolute(view.view_path).string() << "\"\n"
      << "[timestart] " << view.start_ticks << "\n[size] 1600 900\n[pos] -1 -1\n"
      << "[sst_width] 220\n[signals_width] 260\n[treeopen] ssd.\n";
  SaveFile save(out);
  save.add_filter(state_filter.string());
  save.add_filter(origin_filter.string());
  if (!view.firmware_functions.empty()) {  // filter 3: the ISS core's function (its index in the symbol table)
    const fs::path functions_filter = folder / "firmware_functions.filter";
    write_filter(functions_filter, "the function the ISS core runs (the image's symbol table)", view.firmware_functions,
                 view.firmware_functions.size());
    save.add_filter(functions_filter.string());
  }

  // Signals by part of the drive, in the order the models declared them.
  const std::regex channel_scope(R"(ssd\.channel(\d+))"), die_scope(R"(ssd\.channel(\d+)\.die(\d+))");
  std::vector<const Signal*> host, cores, firmware, busy, other;
  std::map<int, std::vector<const Signal*>> channel_owned;
  std::map<int, std::map<int, std::vector<const Signal*>>> dies;
  std::smatch m;
  for (const Signal& s : view.signals) {
    if (s.scope == "ssd.host" || s.scope == "ssd.host_interface") host.push_back(&s);
    else if (s.scope == "ssd.cores") cores.push_back(&s);
    else if (starts_with(s.scope, "ssd.firmware")) firmware.push_back(&s);
    else if (s.scope == "ssd.utilization") busy.push_back(&s);
    else if (std::regex_match(s.scope, m, die_scope)) dies[std::stoi(m[1])][std::stoi(m[2])].push_back(&s);
    else if (std::regex_match(s.scope, m, channel_scope)) channel_owned[std::stoi(m[1])].push_back(&s);
    else other.push_back(&s);
  }
  auto plain = [&save](const std::vector<const Signal*>& signals, const std::string& prefix) {
    for (const Signal* s : signals) {
      std::string scope = s->scope.size() > prefix.size() ? s->scope.substr(prefix.size() + 1) + "." : "";
      save.signal(*s, scope + s->name);
    }
  };
  if (!host.empty()) {
    save.group("Host: requests outstanding (host) and submission-queue slots in use (drive)", false);
    for (const Signal* s : host) save.signal(*s, s->scope == "ssd.host" ? "host outstanding" : "drive SQ slots in use");
    save.end_group();
  }
  if (!cores.empty()) {
    save.group("Firmware cores: busy per core, jobs waiting (ISS: function running, instructions per sample)", false);
    for (const Signal* s : cores)
      save.signal(*s, s->name, s->name == "core0_function" && !view.firmware_functions.empty() ? 3 : 0);
    save.end_group();
  }
  if (!firmware.empty()) {
    save.group("Firmware: GC/merges running, write buffer, FTL state", false);
    plain(firmware, "ssd.firmware");
    save.end_group();
  }
  if (!busy.empty()) {
    save.group("Busy share per interval (per mille): system bus, SRAM, DRAM, PCIe link, cores, dies, channels", false);
    plain(busy, "ssd.utilization");
    save.end_group();
  }
  std::map<int, bool> channels;
  for (const auto& [c, _] : channel_owned) channels[c] = true;
  for (const auto& [c, _] : dies) channels[c] = true;
  for (const auto& [c, _] : channels) {
    save.group(fmt::format("Channel {}", c), c != channels.begin()->first);  // the first open, as an example
    for (const Signal* s : channel_owned[c]) save.signal(*s, fmt::format("ch{} {}", c, s->name));
    for (const auto& [d, signals] : dies[c])
      for (const Signal* s : signals) {
        const bool state = s->name == "state" || s->name == "cache_state";
        save.signal(*s, fmt::format("ch{} die{} {}", c, d, s->name), state ? 1 : s->name == "origin" ? 2 : 0);
      }
    save.end_group();
  }
  if (!other.empty()) {
    save.group("Other", true);
    for (const Signal* s : other) save.signal(*s, s->scope + "." + s->name);
    save.end_group();
  }
  if (!out) throw ConfigError("cannot write waveform view '" + view.view_path + "'");
}

}  // namespace ssd::platform
