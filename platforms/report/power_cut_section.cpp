#include "platforms/report/power_cut_section.h"

#include <fmt/format.h>

namespace ssd::platform {

using nlohmann::json;

json power_cut_section(const PowerCutFacts& f) {
  const stimuli::DurabilityAudit& a = f.audit;
  return {{"at_s", f.at_s},
          {"workload_ended_before", f.workload_ended},
          {"requests_completed", f.requests_completed},
          {"requests_in_flight", f.requests_in_flight},
          {"volatile_write_cache", f.volatile_write_cache},
          {"flash", {{"torn_pages", f.flash.torn_pages},
                     {"paired_pages_lost", f.flash.paired_pages_lost},
                     {"erases_cut", f.flash.erases_cut},
                     {"unreadable_pages", a.unreadable_pages}}},
          {"buffered_pages_lost", f.buffered_pages_lost},
          {"plp", {{"hold_up_us", f.plp_hold_up_us},
                   {"buffered_pages_at_cut", f.buffered_pages_at_cut},
                   {"pages_evicted", f.plp_pages_evicted}}},
          {"recovery", {{"pages_scanned", f.recovery.pages_scanned},
                        {"unreadable_pages", f.recovery.unreadable_pages},
                        {"padding_pages", f.recovery.padding_pages},
                        {"superseded_pages", f.recovery.superseded_pages},
                        {"duplicate_pages", f.recovery.duplicate_pages},
                        {"version_conflicts", f.recovery.version_conflicts},
                        {"pages_recovered", f.recovery.pages_recovered}}},
          {"durability", {{"pages_written", a.pages_written},
                          {"durable_pages_lost", a.durable_pages_lost},
                          {"garbage_pages", a.garbage_pages},
                          {"acknowledged_not_durable", a.acknowledged_not_durable},
                          {"acknowledged_lost", a.acknowledged_lost},
                          {"in_flight_page_writes", a.in_flight_page_writes},
                          {"recovery_mismatches", a.recovery_mismatches},
                          {"verdict", a.ok() ? "ok" : a.first_problem}}}};
}

std::string power_cut_text(const json& p) {
  const json& fl = p["flash"];
  const json& d = p["durability"];
  std::string s = fmt::format(
      "  power cut at {:.6f} s{}: {} requests in flight; flash: {} programs torn, {} paired pages lost, {} erases cut; "
      "{} buffered pages lost with the DRAM\n",
      p["at_s"].get<double>(), p["workload_ended_before"].get<bool>() ? " (after the workload ended)" : "",
      p["requests_in_flight"].get<std::uint64_t>(), fl["torn_pages"].get<std::uint64_t>(),
      fl["paired_pages_lost"].get<std::uint64_t>(), fl["erases_cut"].get<std::uint64_t>(),
      p["buffered_pages_lost"].get<std::uint64_t>());
  if (p["plp"]["hold_up_us"].get<double>() > 0)
    s += fmt::format("  capacitors held the drive up {:g} us: {} of the write buffer's {} pages went to the flash\n",
                     p["plp"]["hold_up_us"].get<double>(), p["plp"]["pages_evicted"].get<std::uint64_t>(),
                     p["plp"]["buffered_pages_at_cut"].get<std::uint64_t>());
  const json& r = p["recovery"];
  s += fmt::format("  recovery from the OOB: {} pages scanned, {} logical pages found, {} older versions and {} "
                   "duplicates set aside, {} unreadable pages discarded\n",
                   r["pages_scanned"].get<std::uint64_t>(), r["pages_recovered"].get<std::uint64_t>(),
                   r["superseded_pages"].get<std::uint64_t>(), r["duplicate_pages"].get<std::uint64_t>(),
                   r["unreadable_pages"].get<std::uint64_t>());
  s += fmt::format("  durability: {} durable pages lost, {} garbage pages, {} pages recovered wrong ({}); {} "
                   "acknowledged page writes were not durable, {} of them on no readable page\n",
                   d["durable_pages_lost"].get<std::uint64_t>(), d["garbage_pages"].get<std::uint64_t>(),
                   d["recovery_mismatches"].get<std::uint64_t>(), d["verdict"].get<std::string>(),
                   d["acknowledged_not_durable"].get<std::uint64_t>(), d["acknowledged_lost"].get<std::uint64_t>());
  return s;
}

}  // namespace ssd::platform
