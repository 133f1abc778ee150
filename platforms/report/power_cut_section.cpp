#include "platforms/report/power_cut_section.h"

#include <fmt/format.h>

#include "tlm/time_base.h"

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
                   {"destage", f.plp_destage},
                   {"buffered_pages_at_cut", f.buffered_pages_at_cut},
                   {"pages_evicted", f.plp_pages_evicted},
                   {"pages_dumped", f.plp_pages_dumped},
                   {"ftl_work_stopped", f.plp_ftl_work_stopped}}},
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

json boot_section(const BootFacts& f, const FlashGeometry& geometry) {
  const fw::BootScanCounts& c = f.counts;
  json section = {{"recovery_s", tlmx::ticks_to_seconds(c.total_ticks)},
          {"scan_s", tlmx::ticks_to_seconds(c.scan_ticks)},
          {"pages_read", c.pages_read},
          {"pages_read_per_die", double(c.pages_read) / geometry.total_dies()},
          {"blocks_scanned", c.blocks_scanned},
          {"blocks_found_erased", c.blocks_erased},
          {"blocks_erased_again", c.blocks_erased_again},
          {"pages_recovered", f.recovery.pages_recovered},
          {"map_differences", f.map_differences}};
  if (f.checkpoints)  // firmware.checkpoint_interval_mib
    section["checkpoint"] = {{"used", c.checkpoint_used},
                             {"read_s", tlmx::ticks_to_seconds(c.checkpoint_ticks)},
                             {"rejected", c.checkpoints_rejected},
                             {"pages_read", c.checkpoint_pages_read},
                             {"blocks_from_checkpoint", c.blocks_from_checkpoint},
                             {"pages_from_checkpoint", c.pages_from_checkpoint}};
  return section;
}

json after_recovery_section(const AfterRecoveryFacts& f) {
  const double iops = f.simulated_s > 0 ? double(f.requests_completed) / f.simulated_s : 0.0;
  json s = {{"mount_s", f.mount_s},
            {"dump_pages_restored", f.mount.dump_pages_restored},
            {"dump_blocks_erased", f.mount.dump_blocks_erased},
            {"mount_pages_programmed", f.mount_pages_programmed},
            {"mount_erases", f.mount_erases},
            {"requests_given_up", f.requests_given_up},
            {"requests_completed", f.requests_completed},
            {"simulated_s", f.simulated_s},
            {"iops", iops},
            {"wall_s", f.wall_s},
            {"host_pages_written", f.host_pages_written},
            {"flash_pages_programmed", f.flash_pages_programmed},
            {"erases", f.erases},
            {"waf", f.host_pages_written ? json(double(f.flash_pages_programmed) / double(f.host_pages_written)) : json(nullptr)},
            {"ftl_counters", f.ftl_counters},
            {"pages_checked", f.pages_checked},
            {"mismatches", f.mismatches},
            {"mapping_check", f.mapping_check}};
  if (f.mismatches > 0) s["first_mismatch"] = f.first_mismatch;
  return s;
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
  if (const json& plp = p["plp"]; plp["hold_up_us"].get<double>() > 0) {
    const bool dump = plp["destage"].get<std::string>() == "dump";
    s += fmt::format("  capacitors held the drive up {:g} us: {} of the write buffer's {} pages {}\n",
                     plp["hold_up_us"].get<double>(), plp[dump ? "pages_dumped" : "pages_evicted"].get<std::uint64_t>(),
                     plp["buffered_pages_at_cut"].get<std::uint64_t>(),
                     dump ? "programmed into the dump area" : "handed to the FTL");
  }
  const json& r = p["recovery"];
  s += fmt::format("  recovery from the OOB: {} pages scanned, {} logical pages found, {} older versions and {} "
                   "duplicates set aside, {} unreadable pages discarded\n",
                   r["pages_scanned"].get<std::uint64_t>(), r["pages_recovered"].get<std::uint64_t>(),
                   r["superseded_pages"].get<std::uint64_t>(), r["duplicate_pages"].get<std::uint64_t>(),
                   r["unreadable_pages"].get<std::uint64_t>());
  if (p.contains("boot")) {
    const json& b = p["boot"];
    s += fmt::format("  boot: recovery took {:.3f} ms (OOB scan of {} pages in {} blocks: {:.3f} ms; {} blocks erased "
                     "again); its map {}\n",
                     b["recovery_s"].get<double>() * 1e3, b["pages_read"].get<std::uint64_t>(),
                     b["blocks_scanned"].get<std::uint64_t>(), b["scan_s"].get<double>() * 1e3,
                     b["blocks_erased_again"].get<std::uint64_t>(),
                     b["map_differences"].get<std::uint64_t>() == 0
                         ? std::string("is the reference's")
                         : fmt::format("differs from the reference's on {} logical pages",
                                       b["map_differences"].get<std::uint64_t>()));
    if (b.contains("checkpoint")) {
      const json& c = b["checkpoint"];
      s += c["used"].get<std::uint64_t>() == 0
               ? fmt::format("  boot: no whole map checkpoint ({} rejected): every block scanned\n",
                             c["rejected"].get<std::uint64_t>())
               : fmt::format("  boot: map checkpoint {} read ({} pages in {:.3f} ms; {} newer rejected): {} blocks ({} "
                             "pages) taken from it, the rest scanned\n",
                             c["used"].get<std::uint64_t>(), c["pages_read"].get<std::uint64_t>(),
                             c["read_s"].get<double>() * 1e3,
                             c["rejected"].get<std::uint64_t>(), c["blocks_from_checkpoint"].get<std::uint64_t>(),
                             c["pages_from_checkpoint"].get<std::uint64_t>());
    }
  }
  if (p.contains("after_recovery")) {
    const json& a = p["after_recovery"];
    s += fmt::format("  after recovery: mounted in {:.3f} ms; {} requests in flight at the cut given up, {} completed "
                     "after it ({:.0f} IOPS, WAF {}); {} read pages checked, {} mismatches; mapping {}\n",
                     a["mount_s"].get<double>() * 1e3, a["requests_given_up"].get<std::uint64_t>(),
                     a["requests_completed"].get<std::uint64_t>(), a["iops"].get<double>(),
                     a["waf"].is_null() ? std::string("-") : fmt::format("{:.3f}", a["waf"].get<double>()),
                     a["pages_checked"].get<std::uint64_t>(), a["mismatches"].get<std::uint64_t>(),
                     a["mapping_check"].get<std::string>());
  }
  s += fmt::format("  durability: {} durable pages lost, {} garbage pages, {} pages recovered wrong ({}); {} "
                   "acknowledged page writes were not durable, {} of them on no readable page\n",
                   d["durable_pages_lost"].get<std::uint64_t>(), d["garbage_pages"].get<std::uint64_t>(),
                   d["recovery_mismatches"].get<std::uint64_t>(), d["verdict"].get<std::string>(),
                   d["acknowledged_not_durable"].get<std::uint64_t>(), d["acknowledged_lost"].get<std::uint64_t>());
  return s;
}

}  // namespace ssd::platform
