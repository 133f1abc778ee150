// Map checkpoints (firmware.checkpoint_interval_mib, fw/recovery/map_checkpointer.h) seen from
// the command line: what they cost in programs, and how the boot after a power cut uses them
// (fw/recovery/boot_scan.h): the newest whole checkpoint, page 0 of each block it saved, a scan of
// the rest, and the same map as a scan of every page. On tiny.yaml (4 KiB pages, 8 planes of
// 64 blocks x 32 pages).
#include <catch2/catch.hpp>
#include <random>

#include "cli_support.h"

using namespace ssd::cli;

namespace {
const std::string kRandom =
    "jobs:\n  - name: random\n    pattern: random\n    block_size: 4096\n    count: 2000\n    iodepth: 4\n";

json cut_run(const TempDir& dir, const std::string& jobs, const std::vector<std::string>& extra,
             const std::string& name) {
  std::vector<std::string> args = {"-p", tiny_platform(), "--jobs",
                                   jobs, "--set",         "firmware.checkpoint_interval_mib=1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return successful_run(args, dir, name);
}
}  // namespace

TEST_CASE("map checkpoints: the boot reads the newest whole one and scans only what it did not save, to the same map",
          "[cli][power_cut][recovery][checkpoint]") {
  // A filled drive (the factory checkpoint after the fill) under database_fsync, a checkpoint every
  // MiB of host data (256 of tiny's pages), cut after 4,000 requests.
  TempDir dir;
  const json r = cut_run(dir, source_path("workloads/database_fsync.yaml"),
                         {"--set", "firmware.erase_after_copies=true", "--power-cut-after", "4000"}, "fill.json");
  const json& f = r["ftl_metrics"];
  const json& p = r["power_cut"];
  const json& b = p["boot"];
  const json& c = b["checkpoint"];
  // Page mapping's checkpoint: its map (the l2p table, 4 bytes a logical page) in 4 KiB pages.
  std::uint64_t map_bytes = 0;
  for (const json& t : r["firmware_tables"]["tables"])
    if (t["name"] == "l2p") map_bytes = t["bytes"].get<std::uint64_t>();
  REQUIRE(map_bytes > 0);
  const std::uint64_t pages = (map_bytes + 4095) / 4096;
  const std::uint64_t written = f["checkpoints_written"].get<std::uint64_t>();
  CHECK(written >= 2);
  // Programs are counted as each checkpoint starts: those written, and the one under way at the cut.
  CHECK(f["checkpoint_pages_programmed"].get<std::uint64_t>() >= written * pages);
  CHECK(f["checkpoint_pages_programmed"].get<std::uint64_t>() <= (written + 1) * pages);
  // Checkpoints start once a MiB of host pages reached the FTL since the last one started.
  CHECK(written <= f["host_pages_written"].get<std::uint64_t>() / 256);
  CHECK(c["used"].get<std::uint64_t>() > 0);
  CHECK(c["pages_read"].get<std::uint64_t>() == pages * (1 + c["rejected"].get<std::uint64_t>()));
  // Its reading is the boot's first part: at least one page read's tR (25 us on tiny), within the scan.
  CHECK(c["read_s"].get<double>() >= 25e-6);
  CHECK(c["read_s"].get<double>() < b["scan_s"].get<double>());
  CHECK(c["blocks_from_checkpoint"].get<std::uint64_t>() > 0);
  CHECK(c["pages_from_checkpoint"] == 32 * c["blocks_from_checkpoint"].get<std::uint64_t>());  // whole blocks
  CHECK(b["map_differences"] == 0);
  CHECK(p["durability"]["verdict"] == "ok");
  // Every page the scan of everything would read, the boot read or took from the checkpoint: a saved
  // block costs one read instead of its 32, and a block not saved is read up to its first erased page.
  const std::uint64_t everything = p["recovery"]["pages_scanned"].get<std::uint64_t>();
  const std::uint64_t from_flash = b["pages_read"].get<std::uint64_t>() - c["pages_read"].get<std::uint64_t>();
  CHECK(from_flash + c["pages_from_checkpoint"].get<std::uint64_t>() -
            c["blocks_from_checkpoint"].get<std::uint64_t>() <=
        everything + b["blocks_scanned"].get<std::uint64_t>());
  CHECK(b["pages_read"].get<std::uint64_t>() * 3 < everything);
  // The same cut without checkpoints scans everything, several times slower.
  const json full = successful_run({"-p", tiny_platform(), "--jobs", source_path("workloads/database_fsync.yaml"),
                                    "--set", "firmware.erase_after_copies=true", "--power-cut-after", "4000"},
                                   dir, "full.json");
  CHECK_FALSE(full["power_cut"]["boot"].contains("checkpoint"));
  CHECK(full["power_cut"]["boot"]["recovery_s"].get<double>() > 3 * b["recovery_s"].get<double>());
  CHECK(full["ftl_metrics"].count("checkpoints_written") == 0);
}

TEST_CASE("map checkpoints: one the cut tore is rejected, and the boot falls back on the one before",
          "[cli][power_cut][recovery][checkpoint]") {
  // A fresh drive, no write buffer, random 4 KiB writes at QD4: the first checkpoint starts when
  // the 256th page reaches the FTL, the second at the 512th. A cut while a checkpoint's pages are
  // programming leaves it unreadable or half there: the boot reads it, rejects it, and reads the
  // one before (or, before the first, scans everything). Whatever it used, its map is the reference's.
  TempDir dir;
  write_text(dir.file("random.yaml"), kRandom);
  std::uint64_t torn_first = 0, torn_second = 0;
  for (int after = 250; after <= 262; after += 2) {
    for (const int base : {0, 256}) {
      const std::string n = std::to_string(after + base);
      INFO("cut after " << n);
      const json r = cut_run(dir, dir.file("random.yaml"),
                             {"--precondition", "none", "--set", "firmware.write_buffer=off", "--power-cut-after", n},
                             "r" + n + ".json");
      const json& b = r["power_cut"]["boot"];
      const json& c = b["checkpoint"];
      CHECK(b["map_differences"] == 0);
      CHECK(r["power_cut"]["durability"]["verdict"] == "ok");
      if (c["rejected"] == 1) {
        (base ? torn_second : torn_first) += 1;
        CHECK(c["used"] == (base ? 1 : 0));  // the one before, or none
      }
      if (c["used"] == 0) CHECK(c["blocks_from_checkpoint"] == 0);
    }
  }
  CHECK(torn_first > 0);
  CHECK(torn_second > 0);
}

TEST_CASE("map checkpoints: every FTL recovers through them at cuts drawn with a seed",
          "[cli][power_cut][durability][recovery][checkpoint]") {
  // As the seeded 20-cut test (tiny made MLC, word-line safety, erase_after_copies, database_fsync
  // on a filled drive), with a checkpoint every 2 MiB: 4 cuts an FTL. Each boot uses a checkpoint,
  // keeps every durable write, and rebuilds the reference's map.
  TempDir dir;
  std::mt19937_64 draw(36);
  std::uniform_int_distribution<int> after(1000, 8000);
  for (const std::string& ftl : ftl_names(dir)) {
    for (int k = 0; k < 4; ++k) {
      const std::string when = std::to_string(after(draw));
      INFO(ftl << ", --power-cut-after " << when);
      std::vector<std::string> args = {"run",
                                       "-p",
                                       tiny_platform(),
                                       "--ftl",
                                       ftl,
                                       "--jobs",
                                       source_path("workloads/database_fsync.yaml"),
                                       "--set",
                                       "nand.t_prog_us=[200,600]",
                                       "--set",
                                       "nand.t_read_us=[25,40]",
                                       "--set",
                                       "firmware.erase_after_copies=true",
                                       "--set",
                                       "firmware.word_line_safety=true",
                                       "--set",
                                       "firmware.checkpoint_interval_mib=2",
                                       "--power-cut-after",
                                       when,
                                       "--no-vcd",
                                       "-q",
                                       "--report",
                                       dir.file("r.json")};
      if (ftl == "subgroup") args.insert(args.end(), {"--set", "ftl.overprovisioning=0.25"});  // see test_power_cut.cpp
      const Result r = run_ssdsim(args, dir);
      REQUIRE(r.exited());
      CHECK(r.exit_code == 0);
      const json p = json::parse(read_text(dir.file("r.json")))["power_cut"];
      CHECK(p["durability"]["verdict"] == "ok");
      CHECK(p["boot"]["map_differences"] == 0);
      CHECK(p["boot"]["checkpoint"]["used"].get<std::uint64_t>() > 0);
    }
  }
}

TEST_CASE(
    "map checkpoints: with capacitors, the dump area holds the buffer's pages and the boot finds them beside the "
    "checkpoint",
    "[cli][power_cut][plp][recovery][checkpoint]") {
  // The firmware keeps two areas of its own, the checkpoint's slots and the dump area; the dump's
  // blocks were erased when any checkpoint was taken, so the boot scans them and finds there every
  // page the hold-up saved, the newest of its logical page.
  TempDir dir;
  for (const std::string ftl : {"page_mapping", "dftl", "bast"}) {
    for (const char* after : {"3000", "9000"}) {
      INFO(ftl << ", cut after " << after);
      const json r =
          successful_run({"-p", tiny_platform(), "--ftl", ftl, "--jobs", source_path("workloads/database_fsync.yaml"),
                          "--set", "firmware.erase_after_copies=true", "--set", "firmware.write_buffer=page_lru",
                          "--set", "firmware.plp=capacitors", "--set", "firmware.plp_hold_up_us=250000", "--set",
                          "firmware.checkpoint_interval_mib=2", "--power-cut-after", after},
                         dir, ftl + after + ".json");
      const json& p = r["power_cut"];
      CHECK(p["plp"]["pages_dumped"] == p["plp"]["buffered_pages_at_cut"]);
      CHECK(p["buffered_pages_lost"] == 0);
      CHECK(p["durability"]["verdict"] == "ok");
      CHECK(p["boot"]["map_differences"] == 0);
      CHECK(p["boot"]["checkpoint"]["used"].get<std::uint64_t>() > 0);
    }
  }
}

TEST_CASE("map checkpoints: refused on the ISS core, named", "[cli][checkpoint]") {
  TempDir dir;
  const auto iss = run_ssdsim({"run", "-p", tiny_platform(), "--synthetic", "random", "--set", "core.model=iss",
                               "--set", "firmware.checkpoint_interval_mib=4", "--no-vcd", "-q"},
                              dir);
  CHECK(iss.exit_code != 0);
  CHECK_THAT(iss.err, Catch::Contains("firmware.checkpoint_interval_mib") && Catch::Contains("core.model"));
}
