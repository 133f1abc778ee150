#include "platforms/report/energy_section.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tlm/time_base.h"

namespace ssd::platform {

using json = nlohmann::json;

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Per-interval figures on one common interval (ticks, a multiple of every source's: all are 1 ms
// doubled), over [0, end).
class Timeline {
 public:
  Timeline(std::uint64_t length, std::uint64_t end)
      : length_(length), end_(end), points_(end ? (end + length - 1) / length : 0) {}
  std::size_t points() const { return points_; }
  std::uint64_t length() const { return length_; }
  // The interval's ticks within the run (the last one's part before the end).
  double span(std::size_t i) const { return double(std::min<std::uint64_t>(end_, (i + 1) * length_) - i * length_); }
  // A source's per-interval values, summed into the common intervals (values past the end: the last).
  template <typename T>
  std::vector<double> rebin(const std::vector<T>& values, std::uint64_t their_length) const {
    std::vector<double> out(points_, 0.0);
    if (points_ == 0) return out;
    const std::uint64_t per = length_ / their_length;
    for (std::size_t i = 0; i < values.size(); ++i)
      out[std::min<std::size_t>(i / per, points_ - 1)] += double(values[i]);
    return out;
  }
  std::vector<double> rebin(const BusyTime& b) const { return rebin(b.per_interval(), b.interval_ticks()); }
  std::vector<double> rebin(const EnergyMeter& e) const { return rebin(e.per_interval(), e.interval_ticks()); }

 private:
  std::uint64_t length_, end_;
  std::size_t points_;
};

// Picojoules of `milliwatts` over `ticks`.
double pj(double milliwatts, double ticks) { return milliwatts * ticks * tlmx::ticks_to_seconds(1) * 1e9; }

struct Component {
  std::string name;
  std::vector<double> per_interval;  // picojoules
  double total = 0;
  void add(const std::vector<double>& pjs) {
    if (per_interval.empty()) per_interval.assign(pjs.size(), 0.0);
    for (std::size_t i = 0; i < pjs.size(); ++i) per_interval[i] += pjs[i];
  }
};

}  // namespace

json energy_section(const PlatformConfig& config, const MetricsRegistry& metrics, const EnergyInputs& run) {
  const hw::PowerConfig& p = config.power;
  const std::uint64_t end = std::uint64_t(run.seconds / tlmx::ticks_to_seconds(1) + 0.5);

  // The sources, found by what they record.
  std::vector<const EnergyMeter*> reads, programs, erases, memories_sram, memories_dram;
  std::vector<const BusyTime*> channel_buses, cores;
  const MetricSet* states = nullptr;
  for (const auto& [path, set] : metrics.sets()) {
    const auto& energy = set->energy();
    if (const auto r = energy.find("nand_read"); r != energy.end()) {
      reads.push_back(&r->second);
      programs.push_back(&energy.at("nand_program"));
      erases.push_back(&energy.at("nand_erase"));
      channel_buses.push_back(&set->busy().at("busy_fraction"));
    }
    if (const auto a = energy.find("access"); a != energy.end())
      (ends_with(path, "sram") ? memories_sram : memories_dram).push_back(&a->second);
    if (const auto u = set->busy().find("utilization"); u != set->busy().end()) cores.push_back(&u->second);
    if (ends_with(path, "host_interface.power")) states = set.get();
  }

  std::uint64_t length = BusyTime::kInitialIntervalTicks;
  if (const auto host = metrics.sets().find("host"); host != metrics.sets().end())  // line up with host.over_time
    if (const auto c = host->second->series().find("completions"); c != host->second->series().end())
      length = std::max(length, std::uint64_t(double(c->second->length_ns()) * 1e-9 / tlmx::ticks_to_seconds(1) + 0.5));
  for (const auto* list : {&reads, &programs, &erases, &memories_sram, &memories_dram})
    for (const EnergyMeter* e : *list) length = std::max(length, e->interval_ticks());
  for (const auto* list : {&channel_buses, &cores})
    for (const BusyTime* b : *list) length = std::max(length, b->interval_ticks());
  if (states)
    for (const auto& [name, b] : states->busy()) length = std::max(length, b.interval_ticks());
  while ((end + length - 1) / length > BusyTime::kMaxIntervals) length *= 2;
  const Timeline t(length, end);
  const std::size_t n = t.points();

  // Time in the non-operational states, and so the operational time, per interval (ticks).
  std::vector<double> operational(n), link_low(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) operational[i] = t.span(i);
  json state_times = json::object();
  Component idle_states{"idle_states", std::vector<double>(n, 0.0)};
  Component host_link{"host_link", std::vector<double>(n, 0.0)};
  double asleep_ticks = 0;
  for (std::size_t k = 0; k < p.states.size(); ++k) {
    const std::string name = "ps" + std::to_string(k + 1);
    const BusyTime& b = states->busy().at(name);
    const std::vector<double> in = t.rebin(b);
    for (std::size_t i = 0; i < n; ++i) {
      operational[i] -= in[i];
      idle_states.per_interval[i] += pj(p.states[k].power_mw, in[i]);
    }
    asleep_ticks += double(b.ticks());
    state_times[name + "_s"] = double(b.ticks()) * tlmx::ticks_to_seconds(1);
    state_times[name + "_entries"] = states->counter_or_zero(name + "_entries");
  }
  for (std::size_t k = 0; k < p.link_states.size(); ++k) {
    const std::string name = k == 0 ? "link_l1" : k == 1 ? "link_l1_2" : "link_l" + std::to_string(k + 1);
    const BusyTime& b = states->busy().at(name);
    const std::vector<double> in = t.rebin(b);
    for (std::size_t i = 0; i < n; ++i) {
      link_low[i] += in[i];
      host_link.per_interval[i] += pj(p.link_states[k].power_mw, in[i]);
    }
    state_times[name + "_s"] = double(b.ticks()) * tlmx::ticks_to_seconds(1);
    state_times[name + "_entries"] = states->counter_or_zero(name + "_entries");
  }
  state_times["ps0_s"] = (double(end) - asleep_ticks) * tlmx::ticks_to_seconds(1);
  if (states)
    state_times["wake_wait_us"] = double(states->durations().at("wake_wait")) * tlmx::ticks_to_seconds(1) * 1e6;
  for (std::size_t i = 0; i < n; ++i) host_link.per_interval[i] += pj(p.link_l0_mw, operational[i] - link_low[i]);

  // Operations, from the meters.
  auto metered = [&](const char* name, const std::vector<const EnergyMeter*>& meters) {
    Component c{name, std::vector<double>(n, 0.0)};
    for (const EnergyMeter* e : meters) c.add(t.rebin(*e));
    return c;
  };
  // A background of `milliwatts` over the operational time.
  auto background = [&](Component& c, double milliwatts) {
    if (c.per_interval.empty()) c.per_interval.assign(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) c.per_interval[i] += pj(milliwatts, operational[i]);
  };
  std::vector<Component> parts;
  parts.push_back(metered("nand_read", reads));
  parts.push_back(metered("nand_program", programs));
  parts.push_back(metered("nand_erase", erases));
  Component standby{"nand_standby", {}};
  background(standby, p.nand_vcc_v * p.nand_standby_ua * 1e-3 * double(config.geometry.total_dies()));
  parts.push_back(standby);
  Component io{"channel_io", std::vector<double>(n, 0.0)};
  for (const BusyTime* b : channel_buses) {
    const std::vector<double> busy = t.rebin(*b);
    for (std::size_t i = 0; i < n; ++i) io.per_interval[i] += pj(p.nand_vcc_v * p.channel_icc_ma, busy[i]);
  }
  parts.push_back(io);
  Component dram = metered("dram", memories_dram);
  background(dram, p.dram_background_mw);
  parts.push_back(dram);
  Component sram = metered("sram", memories_sram);
  background(sram, p.sram_leakage_mw_per_mib * double(config.sram.size_bytes) / double(1 << 20));
  parts.push_back(sram);

  // Cores: busy at mW/MHz x clock (the ISS core: its instructions by class, and its stalls),
  // idle at core_idle_mw, over the operational time.
  const double active_mw = p.core_mw_per_mhz * config.core.clock_mhz;
  Component core_energy{"cores", std::vector<double>(n, 0.0)};
  for (const BusyTime* b : cores) {
    const std::vector<double> busy = t.rebin(*b);
    double busy_pj = pj(active_mw, double(b->ticks()));
    if (run.iss) {  // the instructions' energy and the stalls', spread over the busy time
      const auto& counts = run.iss->counts;
      const double cycle_pj = p.core_mw_per_mhz * 1e3;  // mW/MHz: nJ per thousand cycles
      double instructions_pj = 0;
      for (std::size_t c = 0; c < hw::kInstructionClasses; ++c)
        instructions_pj += double(counts.per_class[c]) * config.iss.cpi.cycles(hw::InstructionClass(c)) *
                           p.iss_class_weights[c] * cycle_pj;
      const double issue_ticks = counts.issue_cycles / config.core.clock_mhz * 1e-6 / tlmx::ticks_to_seconds(1);
      busy_pj = instructions_pj + pj(active_mw, std::max(0.0, double(b->ticks()) - issue_ticks));
    }
    const double busy_ticks = double(b->ticks());
    for (std::size_t i = 0; i < n; ++i)
      core_energy.per_interval[i] += (busy_ticks > 0 ? busy_pj * busy[i] / busy_ticks : 0.0) +
                                     pj(p.core_idle_mw, std::max(0.0, operational[i] - busy[i]));
  }
  parts.push_back(core_energy);
  Component controller{"controller", {}};
  background(controller, p.controller_static_mw);
  parts.push_back(controller);
  parts.push_back(host_link);
  parts.push_back(idle_states);

  // Totals, power over time.
  json components = json::object(), component_w = json::object();
  std::vector<double> power(n, 0.0);
  double total_pj = 0;
  for (Component& c : parts) {
    json w = json::array();
    for (std::size_t i = 0; i < n; ++i) {
      c.total += c.per_interval[i];
      power[i] += c.per_interval[i];
      w.push_back(c.per_interval[i] * 1e-12 / (t.span(i) * tlmx::ticks_to_seconds(1)));
    }
    total_pj += c.total;
    components[c.name] = c.total * 1e-12;
    component_w[c.name] = w;
  }
  json power_w = json::array();
  double peak = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double w = power[i] * 1e-12 / (t.span(i) * tlmx::ticks_to_seconds(1));
    power_w.push_back(w);
    peak = std::max(peak, w);
  }
  auto per_operation_uj = [&](const std::vector<const EnergyMeter*>& meters, const char* counter) {
    double e = 0, ops = 0;
    for (const EnergyMeter* m : meters) e += m->picojoules();
    for (const auto& [path, set] : metrics.sets())
      if (set->placement() && set->placement()->key == "dies") ops += double(set->counter_or_zero(counter));
    return ops > 0 ? json(e * 1e-6 / ops) : json(nullptr);
  };
  const double total_j = total_pj * 1e-12;
  json s = {{"total_j", total_j},
            {"per_request_j", run.requests ? json(total_j / double(run.requests)) : json(nullptr)},
            {"per_gb_j", run.host_bytes ? json(total_j / (double(run.host_bytes) * 1e-9)) : json(nullptr)},
            {"average_w", run.seconds > 0 ? total_j / run.seconds : 0.0},
            {"peak_w", peak},
            {"flash_j", (components["nand_read"].get<double>() + components["nand_program"].get<double>() +
                         components["nand_erase"].get<double>() + components["nand_standby"].get<double>() +
                         components["channel_io"].get<double>())},
            {"components_j", components},
            {"nand_energy_per_operation_uj",
             {{"read", per_operation_uj(reads, "reads")},
              {"program", per_operation_uj(programs, "programs")},
              {"erase", per_operation_uj(erases, "erases")}}},
            {"states", state_times},
            {"over_time",
             {{"interval_s", double(length) * tlmx::ticks_to_seconds(1)},
              {"power_w", power_w},
              {"component_w", component_w}}}};
  return s;
}

const std::vector<std::string>& energy_components() {
  static const std::vector<std::string> names = {"nand_read",  "nand_program", "nand_erase", "nand_standby",
                                                 "channel_io", "dram",         "sram",       "cores",
                                                 "controller", "host_link",    "idle_states"};
  return names;
}

std::string energy_text(const json& e) {
  const double total = e["total_j"].get<double>();
  std::string out = fmt::format("  energy: {:.4g} J", total);
  if (!e["per_request_j"].is_null())
    out += fmt::format(" ({:.4g} uJ a request", e["per_request_j"].get<double>() * 1e6);
  if (!e["per_gb_j"].is_null())
    out += fmt::format(", {:.4g} J a GB)", e["per_gb_j"].get<double>());
  else if (!e["per_request_j"].is_null())
    out += ")";
  out += fmt::format(", {:.3g} W average, {:.3g} W peak", e["average_w"].get<double>(), e["peak_w"].get<double>());
  // The three largest components.
  std::vector<std::pair<double, std::string>> parts;
  for (const auto& [name, j] : e["components_j"].items()) parts.emplace_back(j.get<double>(), name);
  std::sort(parts.rbegin(), parts.rend());
  for (std::size_t k = 0; k < std::min<std::size_t>(3, parts.size()); ++k)
    out += fmt::format("{} {} {:.0f}%", k ? "," : ";", parts[k].second, total > 0 ? 100 * parts[k].first / total : 0.0);
  return out + "\n";
}

}  // namespace ssd::platform
