#include "platforms/report/iss_section.h"

#include <fmt/format.h>

#include <algorithm>

namespace ssd::platform {

using nlohmann::json;

json iss_section(const IssRunFacts& f) {
  const double period_ps = 1e6 / f.clock_mhz;
  auto cycles_of = [period_ps](sc_core::sc_time t) { return t.to_seconds() * 1e12 / period_ps; };
  const double stall = cycles_of(f.counts.bus_stall), cycles = f.counts.issue_cycles + stall;
  json stalls = json::object();
  for (std::size_t w = 0; w < f.window_names.size() && w < f.counts.window_stall.size(); ++w)
    stalls[f.window_names[w]] = cycles_of(f.counts.window_stall[w]);
  json classes = json::object();
  for (std::size_t c = 0; c < hw::kInstructionClasses; ++c)
    classes[hw::instruction_class_name(static_cast<hw::InstructionClass>(c))] = f.counts.per_class[c];
  std::vector<hw::IssCore::FunctionCost> by_cost = f.functions;
  auto total = [&](const hw::IssCore::FunctionCost& fc) { return fc.issue_cycles + cycles_of(fc.stall); };
  std::sort(by_cost.begin(), by_cost.end(), [&](const auto& a, const auto& b) { return total(a) > total(b); });
  json functions = json::array();
  for (std::size_t i = 0; i < by_cost.size() && i < 20; ++i)
    functions.push_back({{"name", by_cost[i].name},
                         {"instructions", by_cost[i].instructions},
                         {"cycles", total(by_cost[i])},
                         {"share", cycles > 0 ? total(by_cost[i]) / cycles : 0.0}});
  return {{"cpu", "ARM Cortex-R5F (Unicorn UC_CPU_ARM_CORTEX_R5F)"},
          {"image", f.image},
          {"instructions", f.counts.instructions},
          {"cycles", cycles},
          {"cpi", f.counts.instructions ? cycles / double(f.counts.instructions) : 0.0},
          {"issue_cycles", f.counts.issue_cycles},
          {"stall_cycles", stalls},
          {"bus_accesses", f.counts.bus_accesses},
          {"instructions_by_class", classes},
          {"functions", functions}};
}

std::string iss_text(const json& s) {
  if (s.is_null() || s.empty()) return "";
  const double cycles = std::max(1e-30, s["cycles"].get<double>());
  std::string stalls;
  for (const auto& [memory, c] : s["stall_cycles"].items())
    stalls += fmt::format("{}{} {:.1f}%", stalls.empty() ? "" : ", ", memory, 100 * c.get<double>() / cycles);
  std::string top;
  std::size_t k = 0;
  for (const json& fn : s["functions"]) {
    if (k++ == 3) break;
    top += fmt::format("{}{} {:.1f}%", top.empty() ? "" : ", ", fn["name"].get<std::string>(),
                       100 * fn["share"].get<double>());
  }
  return fmt::format("  ISS core: {} instructions, CPI {:.2f} (stalls of the cycles: {}); costliest functions: {}\n",
                     s["instructions"].get<std::uint64_t>(), s["cpi"].get<double>(), stalls, top);
}

}  // namespace ssd::platform
