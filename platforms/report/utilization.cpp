#include "platforms/report/utilization.h"

#include <fmt/format.h>

#include "platforms/report/statistics_json.h"
#include "tlm/time_base.h"

#include <algorithm>
#include <map>
#include <regex>
#include <vector>

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

// Min, mean and max of busy shares (all 0 when there are none).
json spread(const std::vector<double>& shares) {
  if (shares.empty()) return json{{"min", 0.0}, {"mean", 0.0}, {"max", 0.0}};
  double lo = shares[0], hi = shares[0], sum = 0;
  for (double b : shares) lo = std::min(lo, b), hi = std::max(hi, b), sum += b;
  return json{{"min", lo}, {"mean", sum / double(shares.size())}, {"max", hi}};
}
}  // namespace

json utilization_section(const json& hardware) {
  json resources = json::object();
  collect(hardware, "", resources);
  std::vector<double> dies, channels;
  for (const auto& channel : hardware.value("channels", json::array())) {
    channels.push_back(channel.value("busy_fraction", 0.0));
    for (const auto& die : channel.value("dies", json::array())) dies.push_back(die.value("busy_fraction", 0.0));
  }
  json u;
  u["resources"] = resources;
  u["dies"] = spread(dies);
  u["channels"] = spread(channels);
  std::string busiest;
  double share = -1;
  for (const auto& [name, value] : resources.items())
    if (value.get<double>() > share) busiest = name, share = value.get<double>();
  u["busiest"] = {{"resource", busiest}, {"busy_fraction", std::max(share, 0.0)}};
  // A core's busy time includes waiting for its tables over the system bus in SRAM or DRAM: when
  // that is most of it, the data path sharing them is the cause, not the core's speed.
  if (resource_kind(busiest) == "cores" && hardware.contains("cores")) {
    double compute = 0, wait = 0;
    const json& cores = hardware["cores"]["per_core"];
    for (std::size_t i = 0; i < cores.size(); ++i)
      if (busiest == "cores" || busiest == "core " + std::to_string(i))
        compute += cores[i].value("compute_us", 0.0), wait += cores[i].value("memory_wait_us", 0.0);
    u["busiest"]["memory_wait_share"] = compute + wait > 0 ? wait / (compute + wait) : 0.0;
  }
  u["bound"] = share >= kBoundBusyShare;
  std::map<std::string, std::pair<double, std::string>> busiest_of_kind;
  for (const auto& [name, value] : resources.items()) {
    auto& [s, who] = busiest_of_kind[resource_kind(name)];
    if (value.get<double>() > s) s = value.get<double>(), who = name;
  }
  std::vector<std::pair<double, std::string>> limiting;
  for (const auto& [kind, best] : busiest_of_kind)
    if (best.first >= kCoLimitBusyShare) limiting.push_back(best);
  std::sort(limiting.rbegin(), limiting.rend());
  u["limited_by"] = json::array();
  if (limiting.size() >= 2 && share < kSaturatedBusyShare)
    for (const auto& [s, who] : limiting) u["limited_by"].push_back(who);
  return u;
}

std::string resource_kind(const std::string& name) {
  static const std::regex die(R"(channel \d+ die \d+)"), channel(R"(channel \d+)"), core(R"(cores|core \d+)");
  if (std::regex_match(name, die)) return "dies";
  if (std::regex_match(name, channel)) return "channels";
  if (std::regex_match(name, core)) return "cores";
  if (name.rfind("host link", 0) == 0) return "host link";
  return name;
}

static_assert(BusyTime::kInitialIntervalTicks * tlmx::kTickPicoseconds == 1e9, "BusyTime's first interval is 1 ms");

BusyShares busy_shares(const MetricsRegistry& metrics, std::uint64_t end_ticks) {
  std::uint64_t min_interval_ticks = 0;  // host.over_time's interval
  if (const auto host = metrics.sets().find("host"); host != metrics.sets().end())
    if (const auto c = host->second->series().find("completions"); c != host->second->series().end())
      min_interval_ticks = std::uint64_t(double(c->second->length_ns()) * 1e-9 / tlmx::ticks_to_seconds(1) + 0.5);
  std::vector<const BusyTime*> series;
  const json busy_tree = placed_busy_series(metrics, series);
  json names = json::object();  // resource name -> index into series
  collect(busy_tree, "", names);
  std::uint64_t length = std::max<std::uint64_t>(min_interval_ticks, BusyTime::kInitialIntervalTicks);
  for (const BusyTime* b : series) length = std::max(length, b->interval_ticks());
  while ((end_ticks + length - 1) / length > BusyTime::kMaxIntervals) length *= 2;
  const std::size_t points = end_ticks ? (end_ticks + length - 1) / length : 0;

  // One resource's busy share per interval: its own intervals summed into the common ones, each
  // divided by the interval's length (the last one only up to the end of the run).
  auto shares = [&](const BusyTime& b) {
    std::vector<double> busy(points, 0.0);
    const std::uint64_t per = length / b.interval_ticks();  // both are 1 ms doubled, so this divides
    for (std::size_t i = 0; i < b.per_interval().size() && i / per < points; ++i)
      busy[i / per] += double(b.per_interval()[i]);
    for (std::size_t j = 0; j < points; ++j)
      busy[j] /= double(std::min<std::uint64_t>(end_ticks, (j + 1) * length) - j * length);
    return busy;
  };
  // Dies and channels are summarized by their mean and their busiest, the rest shown one by one.
  std::map<std::string, std::vector<std::vector<double>>> groups;
  BusyShares out{length, points, {}};
  auto& out_series = out.series;
  for (const auto& [name, index] : names.items()) {
    std::vector<double> s = shares(*series.at(index.get<std::size_t>()));
    const std::string kind = resource_kind(name);
    if (kind == "dies" || kind == "channels") groups[kind].push_back(std::move(s));
    else out_series[name] = std::move(s);
  }
  for (const auto& [group, members] : groups) {
    std::vector<double> mean(points, 0.0), max(points, 0.0);
    for (const auto& m : members)
      for (std::size_t j = 0; j < points; ++j) mean[j] += m[j] / double(members.size()), max[j] = std::max(max[j], m[j]);
    out_series[group + " (mean)"] = std::move(mean);
    out_series[group + " (max)"] = std::move(max);
  }
  return out;
}

json utilization_over_time(const BusyShares& shares) {
  const double interval_s = tlmx::ticks_to_seconds(shares.interval_ticks);
  std::vector<double> start(shares.points);
  for (std::size_t j = 0; j < shares.points; ++j) start[j] = double(j) * interval_s;
  return {{"interval_s", interval_s}, {"start_s", start}, {"series", shares.series}};
}

std::string bottleneck_text(const json& u) {
  const std::string busiest = u["busiest"]["resource"].get<std::string>();
  const double share = 100 * u["busiest"]["busy_fraction"].get<double>();
  const json& limiting = u["limited_by"];
  if (!limiting.empty()) {  // several kinds near their limit, none saturated: they hold each other back
    std::string names;
    for (std::size_t i = 0; i < limiting.size(); ++i) {
      const std::string who = limiting[i].get<std::string>();
      names += (i == 0 ? "" : i + 1 == limiting.size() ? " and " : ", ") +
               fmt::format("{} ({:.1f}%)", who, 100 * u["resources"][who].get<double>());
    }
    return "limited by " + names + " together: each waits for the other, so none is saturated";
  }
  if (u["bound"].get<bool>() && u["busiest"].contains("memory_wait_share") &&
      u["busiest"]["memory_wait_share"].get<double>() >= 0.5)
    return fmt::format("bound by {} ({:.1f}% busy, {:.0f}% of it waiting for memory: the system bus and memory its "
                       "tables sit behind are contended, a faster core would not help)",
                       busiest, share, 100 * u["busiest"]["memory_wait_share"].get<double>());
  if (u["bound"].get<bool>()) return fmt::format("bound by {} ({:.1f}% busy)", busiest, share);
  return fmt::format("not bound by the drive: its busiest resource, {}, is {:.1f}% busy (the host's queue depth or "
                     "arrival times set the pace)",
                     busiest, share);
}

}  // namespace ssd::platform
