// The boot configuration the platform hands the firmware image on the ISS core: every setting the
// image's firmware obeys must survive the text round trip, or the image runs with a default while
// the report states the platform's value.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "fw/firmware/boot_config.h"

using namespace ssd::fw;

TEST_CASE("boot configuration: every firmware setting survives the round trip", "[boot_config]") {
  BootConfig c;
  c.geometry.channels = 3;
  c.geometry.ways = 5;
  c.geometry.dies_per_way = 2;
  c.geometry.planes_per_die = 4;
  c.geometry.blocks_per_plane = 77;
  c.geometry.pages_per_block = 96;
  c.geometry.page_bytes = 8192;
  c.geometry.oob_bytes = 448;
  FirmwareConfig& f = c.firmware;
  f.ftl = "dftl";
  f.buffer_slots = 333;
  f.write_buffer.policy = WriteBufferPolicy::kPageLru;
  f.write_buffer.bytes = 123456789012ull;
  f.write_buffer.high_water = 0.625;
  f.write_buffer.flush_depth = 7;
  f.read_reclaim_reads = 4242;
  f.bad_blocks = true;
  f.read_only_margin = 9;
  f.wear_leveling.mode = WearLeveling::Mode::Static;
  f.wear_leveling.spread = 55;
  f.erase_after_copies = true;
  f.word_line_safety = true;
  f.word_line_pages = 3;
  f.ftl_options = FtlOptions(std::map<std::string, std::string>{{"cache_entries", "4096"}});
  c.mark_work = true;

  const BootConfig r = read_boot_config(write_boot_config(c));
  CHECK(r.geometry.channels == 3);
  CHECK(r.geometry.ways == 5);
  CHECK(r.geometry.dies_per_way == 2);
  CHECK(r.geometry.planes_per_die == 4);
  CHECK(r.geometry.blocks_per_plane == 77);
  CHECK(r.geometry.pages_per_block == 96);
  CHECK(r.geometry.page_bytes == 8192);
  CHECK(r.geometry.oob_bytes == 448);
  CHECK(r.firmware.ftl == "dftl");
  CHECK(r.firmware.buffer_slots == 333);
  CHECK(r.firmware.write_buffer.policy == WriteBufferPolicy::kPageLru);
  CHECK(r.firmware.write_buffer.bytes == 123456789012ull);
  CHECK(r.firmware.write_buffer.high_water == 0.625);
  CHECK(r.firmware.write_buffer.flush_depth == 7);
  CHECK(r.firmware.read_reclaim_reads == 4242);
  CHECK(r.firmware.bad_blocks);
  CHECK(r.firmware.read_only_margin == 9);
  CHECK(r.firmware.wear_leveling.mode == WearLeveling::Mode::Static);
  CHECK(r.firmware.wear_leveling.spread == 55);
  CHECK(r.firmware.erase_after_copies);
  CHECK(r.firmware.word_line_safety);
  CHECK(r.firmware.word_line_pages == 3);
  CHECK(r.firmware.ftl_options.values() == c.firmware.ftl_options.values());
  CHECK(r.mark_work);
  // The text is the fixed point of the round trip: nothing written is dropped on reading.
  CHECK(write_boot_config(r) == write_boot_config(c));
}

TEST_CASE("boot configuration: an unknown key is refused naming its line", "[boot_config]") {
  try {
    read_boot_config("geometry.channels=2\nfirmware.no_such_setting=1\n");
    FAIL("accepted an unknown key");
  } catch (const BootConfigError& e) {
    CHECK(std::string(e.what()).find("line 2") != std::string::npos);
    CHECK(std::string(e.what()).find("firmware.no_such_setting") != std::string::npos);
  }
}
