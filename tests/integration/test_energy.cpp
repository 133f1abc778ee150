// Energy and power (platforms/report/energy_section.h, hw/power/): closed forms for the flash's
// and the background's energy, conservation (the parts add up to the total, and so do the
// intervals of power over time), and the idle power states a trace's idle gaps reach: APST and
// ASPM cost the next command their exit latency once, and the time in each state is what the gap
// leaves after the idle timers.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

constexpr double kVcc = 3.3, kReadMa = 25, kTinyReadUs = 25;  // the power.* defaults; tiny's tR

double sum_dies(const json& r, const char* counter) {
  double n = 0;
  for (const json& ch : r["hardware"]["channels"])
    for (const json& d : ch["dies"]) n += d[counter].get<double>();
  return n;
}

// The energy section's own arithmetic: the parts add up to the total, and the intervals of power
// over time (each over its span; the last one's part before the end) to each part and the total.
void check_conservation(const json& r) {
  const json& e = r["energy"];
  const double total = e["total_j"].get<double>(), seconds = r["hardware"]["simulated_seconds"].get<double>();
  double parts = 0;
  for (const auto& [name, j] : e["components_j"].items()) parts += j.get<double>();
  CHECK(parts == Approx(total).epsilon(1e-12));
  const double interval = e["over_time"]["interval_s"].get<double>();
  auto integrate = [&](const json& watts) {
    double joules = 0;
    for (std::size_t i = 0; i < watts.size(); ++i)
      joules += watts[i].get<double>() * std::min(interval, seconds - double(i) * interval);
    return joules;
  };
  CHECK(integrate(e["over_time"]["power_w"]) == Approx(total).epsilon(1e-9));
  for (const auto& [name, watts] : e["over_time"]["component_w"].items()) {
    INFO(name);
    CHECK(integrate(watts) == Approx(e["components_j"][name].get<double>()).epsilon(1e-9).margin(1e-15));
  }
  CHECK(e["average_w"].get<double>() == Approx(total / seconds).epsilon(1e-12));
  CHECK(e["peak_w"].get<double>() >= e["average_w"].get<double>() * (1 - 1e-9));
}

// A DiskSim trace: 4 KiB reads of sector 0 at the given times (ms).
std::string reads_at(const std::vector<double>& ms) {
  std::string text;
  for (double t : ms) text += std::to_string(t) + " 0 0 8 1\n";
  return text;
}

}  // namespace

TEST_CASE("energy: N page reads cost N x VCC x ICC1 x tR, the background power x time, and it all adds up",
          "[cli][energy]") {
  TempDir dir;
  const std::uint64_t n = 3000;
  const json r =
      successful_run({"-p", tiny_platform(), "--synthetic", "random", "--read-fraction", "1", "--request-bytes", "4096",
                      "--count", std::to_string(n), "--qd", "1", "--precondition", "fill", "--no-vcd"},
                     dir);
  const json& e = r["energy"];
  // One array read per request (page mapping keeps its map in DRAM; no read-retry on tiny).
  REQUIRE(sum_dies(r, "reads") == double(n));
  const double read_j = kVcc * kReadMa * 1e-3 * kTinyReadUs * 1e-6;
  CHECK(e["components_j"]["nand_read"].get<double>() == Approx(double(n) * read_j).epsilon(1e-9));
  CHECK(e["nand_energy_per_operation_uj"]["read"].get<double>() == Approx(read_j * 1e6).epsilon(1e-9));
  CHECK(e["components_j"]["nand_program"].get<double>() == 0);
  CHECK(e["nand_energy_per_operation_uj"]["program"].is_null());
  // Backgrounds: the controller's static power and every die's standby current over the whole run
  // (no power state leaves PS0); the link in L0 throughout.
  const double seconds = r["hardware"]["simulated_seconds"].get<double>();
  CHECK(e["components_j"]["controller"].get<double>() == Approx(0.250 * seconds).epsilon(1e-9));
  CHECK(e["components_j"]["nand_standby"].get<double>() == Approx(kVcc * 30e-6 * 4 * seconds).epsilon(1e-9));
  CHECK(e["components_j"]["host_link"].get<double>() == Approx(0.400 * seconds).epsilon(1e-9));
  CHECK(e["components_j"]["idle_states"].get<double>() == 0);
  CHECK(e["states"]["ps0_s"].get<double>() == Approx(seconds).epsilon(1e-12));
  // The channel's I/O: VCC x ICC4 for the channels' busy time.
  double channel_seconds = 0;
  for (const json& ch : r["hardware"]["channels"]) channel_seconds += ch["busy_fraction"].get<double>() * seconds;
  CHECK(e["components_j"]["channel_io"].get<double>() == Approx(kVcc * 10e-3 * channel_seconds).epsilon(1e-6));
  CHECK(e["per_request_j"].get<double>() == Approx(e["total_j"].get<double>() / double(n)).epsilon(1e-12));
  check_conservation(r);

  // The currents scale what they should, and nothing else.
  const json doubled = successful_run(
      {"-p", tiny_platform(), "--synthetic", "random", "--read-fraction", "1", "--request-bytes", "4096", "--count",
       std::to_string(n), "--qd", "1", "--precondition", "fill", "--no-vcd", "--set", "power.nand_icc_read_ma=50"},
      dir, "doubled.json");
  CHECK(doubled["energy"]["components_j"]["nand_read"].get<double>() ==
        Approx(2 * e["components_j"]["nand_read"].get<double>()).epsilon(1e-9));
  CHECK(doubled["host"]["latency_us"] == r["host"]["latency_us"]);
}

TEST_CASE("energy: writes, GC, the write buffer and the ISS core keep the parts adding up", "[cli][energy]") {
  TempDir dir;
  // Random writes on a filled drive (GC: programs, erases, copies) through the write buffer.
  const json w = successful_run({"-p", tiny_platform(), "--synthetic", "random", "--read-fraction", "0.3", "--count",
                                 "20000", "--qd", "8", "--precondition", "fill", "--no-vcd"},
                                dir, "writes.json");
  check_conservation(w);
  CHECK(w["energy"]["components_j"]["nand_erase"].get<double>() > 0);
  // An erase costs VCC x ICC3 x tBERS (1.5 ms on tiny); a program VCC x ICC2 x tPROG (200 us).
  CHECK(w["energy"]["nand_energy_per_operation_uj"]["erase"].get<double>() == Approx(3.3 * 25 * 1.5).epsilon(1e-9));
  CHECK(w["energy"]["nand_energy_per_operation_uj"]["program"].get<double>() == Approx(3.3 * 25 * 0.2).epsilon(1e-9));
  CHECK(w["energy"]["components_j"]["dram"].get<double>() > 0.045 * w["hardware"]["simulated_seconds"].get<double>());

  // The firmware image on the ISS core (a fresh drive): each instruction costs its class's issue
  // cycles x its weight x core_mw_per_mhz (0.08 mW/MHz: 80 pJ a cycle). Doubling every weight
  // adds each instruction's energy once more: sum over classes of count x CPI x 80 pJ, with the
  // CPI table's defaults (hw/iss/cpi_table.h: multiply 2, divide 8, the rest 1).
  const std::vector<std::string> iss = {"-p",      tiny_platform(), "--set",  "core.model=iss", "--precondition",
                                        "none",    "--synthetic",   "random", "--count",        "2000",
                                        "--no-vcd"};
  const json one = successful_run(iss, dir, "iss.json");
  std::vector<std::string> doubled_args = iss;
  doubled_args.insert(doubled_args.end(), {"--set", "power.iss_class_weights=[2,2,2,2,2,2,2,2,2]"});
  const json two = successful_run(doubled_args, dir, "iss2.json");
  check_conservation(one);
  double cycles = 0;
  for (const auto& [cls, count] : one["firmware_iss"]["instructions_by_class"].items())
    cycles += count.get<double>() * (cls == "multiply" ? 2 : cls == "divide" ? 8 : 1);
  CHECK(two["energy"]["components_j"]["cores"].get<double>() - one["energy"]["components_j"]["cores"].get<double>() ==
        Approx(cycles * 80e-12).epsilon(1e-9));
  CHECK(two["firmware_iss"]["instructions"] == one["firmware_iss"]["instructions"]);
}

TEST_CASE("energy: an idle gap past the APST timer costs the next command the state's exit latency once",
          "[cli][energy][power_states]") {
  TempDir dir;
  // Two reads of the same page: the second after a gap. PS1 after 10 ms idle (entry 100 us, exit
  // 1 ms, 50 mW); PS2 after 1 s more (never reached by these gaps).
  const std::vector<std::string> apst = {"--set", "power.apst=true",
                                         "--set", "power.state_mw=[50,5]",
                                         "--set", "power.state_entry_us=[100,1000]",
                                         "--set", "power.state_exit_us=[1000,5000]",
                                         "--set", "power.state_idle_ms=[10,1000]"};
  auto run = [&](const std::string& name, std::vector<double> at_ms, std::vector<std::string> extra) {
    write_text(dir.file(name + ".trace"), reads_at(at_ms));
    std::vector<std::string> args = {
        "-p",   tiny_platform(), "--trace", dir.file(name + ".trace"), "--trace-format", "disksim", "--precondition",
        "fill", "--no-vcd"};
    args.insert(args.end(), extra.begin(), extra.end());
    return successful_run(args, dir, name + ".json");
  };
  // The first read's latency, alone: the drive is idle from its completion (its entry and
  // interrupt reach the host together) until the second read's doorbell.
  const double first_us = run("first", {0.0}, {})["host"]["latency_us"]["max"].get<double>();
  // What the second read of a run waited for the wake-up: its latency over the same read's on a
  // drive that stays awake.
  auto second_us = [&](const json& r) { return 2 * r["host"]["latency_us"]["mean"].get<double>() - first_us; };
  auto wake_us = [&](const std::string& name, double gap_ms, const std::vector<std::string>& extra) {
    const json awake = run(name + "-awake", {0.0, gap_ms}, {});
    const json r = run(name, {0.0, gap_ms}, extra);
    return std::make_pair(second_us(r) - second_us(awake), r);
  };

  // A doorbell reaches the drive the link's one-way latency after the host rang it (tiny: 500 ns).
  const double doorbell_s = 500e-9;
  // 50 ms gap: PS1 from (first completion + 10 ms + 100 us) until the second doorbell; it waits 1 ms.
  const auto [slept_wait, slept] = wake_us("slept", 50, apst);
  const json& st = slept["energy"]["states"];
  CHECK(slept_wait == Approx(1000).epsilon(1e-9));
  CHECK(u64(st["ps1_entries"]) == 1);
  CHECK(u64(st["ps2_entries"]) == 0);
  CHECK(st["wake_wait_us"].get<double>() == Approx(1000).epsilon(1e-9));
  const double ps1_s = 0.050 + doorbell_s - (first_us * 1e-6 + 0.010 + 100e-6);
  CHECK(st["ps1_s"].get<double>() == Approx(ps1_s).epsilon(1e-6));
  CHECK(st["ps2_s"].get<double>() == 0);
  CHECK(slept["energy"]["components_j"]["idle_states"].get<double>() == Approx(0.050 * ps1_s).epsilon(1e-6));
  const double seconds = slept["hardware"]["simulated_seconds"].get<double>();
  CHECK(st["ps0_s"].get<double>() + st["ps1_s"].get<double>() == Approx(seconds).epsilon(1e-12));
  // The backgrounds run only in PS0.
  CHECK(slept["energy"]["components_j"]["controller"].get<double>() ==
        Approx(0.250 * st["ps0_s"].get<double>()).epsilon(1e-9));
  check_conservation(slept);
  CHECK(slept["energy"]["total_j"].get<double>() <
        run("slept-awake", {0.0, 50}, {})["energy"]["total_j"].get<double>());

  // A gap shorter than the timer: nothing changes.
  const auto [short_wait, short_gap] = wake_us("short", 5, apst);
  CHECK(short_wait == Approx(0).margin(1e-9));
  CHECK(u64(short_gap["energy"]["states"]["ps1_entries"]) == 0);

  // A doorbell while PS1 is being entered: the entry finishes, then the exit.
  const double arrive_ms = first_us * 1e-3 + 10 + 0.040 - doorbell_s * 1e3;  // 40 us into the 100 us entry
  const auto [entering_wait, entering] = wake_us("entering", arrive_ms, apst);
  CHECK(entering_wait == Approx(60 + 1000).epsilon(1e-6));
  CHECK(entering["energy"]["states"]["ps1_s"].get<double>() == 0);

  // Past both timers: PS2's exit, once; PS1 lasted its 1 s timer.
  const auto [deep_wait, deep] = wake_us("deep", 1500, apst);
  CHECK(deep_wait == Approx(5000).epsilon(1e-9));
  CHECK(u64(deep["energy"]["states"]["ps2_entries"]) == 1);
  CHECK(deep["energy"]["states"]["ps1_s"].get<double>() == Approx(1.0).epsilon(1e-9));
  check_conservation(deep);

  // ASPM alone: the link's L1 after 32 us idle, L1.2 after 100 us more; the next command pays the
  // deepest exit (L1.2: 100 us) and the link draws its L1.2 power meanwhile.
  const auto [link_wait, link] = wake_us("link", 50, {"--set", "power.aspm=true"});
  CHECK(link_wait == Approx(100).epsilon(1e-9));
  CHECK(u64(link["energy"]["states"]["link_l1_2_entries"]) == 1);
  const double l12_s = 0.050 + doorbell_s - (first_us * 1e-6 + 132e-6);
  CHECK(link["energy"]["states"]["link_l1_2_s"].get<double>() == Approx(l12_s).epsilon(1e-6));
  CHECK(link["energy"]["states"]["link_l1_s"].get<double>() == Approx(100e-6).epsilon(1e-6));
  check_conservation(link);
}
