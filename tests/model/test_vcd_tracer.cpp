// The VCD tracer: nested scopes, value changes in time order (also when reported ahead of
// time), and the time window.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tlm/vcd_tracer.h"

using ssd::tlmx::VcdTracer;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
std::string temp_vcd(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }
}  // namespace

TEST_CASE("VCD tracer writes nested scopes and changes in time order", "[model][vcd]") {
  const std::string path = temp_vcd("ssd_vp_vcd_order.vcd");
  {
    VcdTracer vcd(path);
    int state = vcd.add("ssd.channel0.die0", "state", 3);
    int owner = vcd.add("ssd.channel0", "bus_owner", 8);
    int busy = vcd.add("ssd.cores", "core0_busy", 1);
    vcd.change_at(state, 2, 100, 100);
    vcd.change_at(state, 3, 300, 100);  // reported ahead: the array phase starts at 300
    vcd.change_at(owner, 1, 100, 100);
    vcd.change_at(owner, 0, 300, 100);
    vcd.change_at(busy, 1, 200, 200);   // written between the two
    vcd.change_at(busy, 1, 250, 250);   // no change: nothing written
    vcd.change_at(busy, 0, 400, 400);
    CHECK_THROWS_AS(vcd.change_at(busy, 1, 399, 400), std::logic_error);
  }
  const std::string text = slurp(path);
  // One scope tree: ssd > channel0 > die0, and ssd > cores.
  CHECK(text.find("$scope module ssd $end\n$scope module channel0 $end\n$var wire 8") != std::string::npos);
  CHECK(text.find("$scope module die0 $end\n$var wire 3") != std::string::npos);
  const auto t100 = text.find("#100\n"), t200 = text.find("#200\n"), t300 = text.find("#300\n"),
             t400 = text.find("#400\n");
  REQUIRE(t100 != std::string::npos);
  REQUIRE(t200 != std::string::npos);
  REQUIRE(t300 != std::string::npos);
  REQUIRE(t400 != std::string::npos);
  CHECK(t100 < t200);
  CHECK(t200 < t300);
  CHECK(t300 < t400);
  CHECK(text.find("#250") == std::string::npos);
  CHECK(text.substr(t300, t400 - t300).find("b11 ") != std::string::npos);  // state 3 at 300
}

TEST_CASE("VCD tracer keeps only the time window, starting with a dump of every value", "[model][vcd]") {
  const std::string path = temp_vcd("ssd_vp_vcd_window.vcd");
  {
    VcdTracer vcd(path, 1000, 2000);
    int q = vcd.add("ssd.host", "outstanding", 16);
    vcd.change_at(q, 5, 500, 500);     // before the window: remembered, not written
    vcd.change_at(q, 6, 1500, 1500);   // opens the window: dump at its start (5 holds there), then 6
    vcd.change_at(q, 7, 2500, 2500);   // after the window: not written
  }
  const std::string text = slurp(path);
  CHECK(text.find("#500") == std::string::npos);
  CHECK(text.find("#2500") == std::string::npos);
  const auto dump = text.find("#1000\n$dumpvars\nb101 !\n$end\n#1500\nb110 !");
  CHECK(dump != std::string::npos);
  CHECK(text.find("b111 ") == std::string::npos);
}

TEST_CASE("VCD tracer merges values known after the fact into the file in time order", "[model][vcd]") {
  const std::string path = temp_vcd("ssd_vp_vcd_late.vcd");
  {
    VcdTracer vcd(path);
    int state = vcd.add("ssd.die0", "state", 3);  // code "!"
    int busy = vcd.add("ssd.utilization", "dies_mean", 10);  // code "\""
    vcd.change_at(state, 1, 100, 100);
    vcd.change_at(state, 2, 300, 300);
    vcd.change_late(busy, 500, 0);    // into the initial step, after the dump of initial values
    vcd.change_late(busy, 250, 200);  // a step of its own between 100 and 300
    vcd.change_late(busy, 250, 250);  // unchanged: not written
    vcd.change_late(busy, 1000, 300); // into the existing step
    vcd.change_late(busy, 0, 400);    // after the last step
  }
  const std::string text = slurp(path);
  const auto dump_end = text.find("$end\n", text.find("$dumpvars"));
  const auto t100 = text.find("#100\n"), t200 = text.find("#200\n"), t300 = text.find("#300\n"),
             t400 = text.find("#400\n");
  REQUIRE(t100 != std::string::npos);
  REQUIRE(t200 != std::string::npos);
  REQUIRE(t300 != std::string::npos);
  REQUIRE(t400 != std::string::npos);
  CHECK(dump_end < text.find("b111110100 \""));  // 500 after the initial dump
  CHECK(dump_end < t100);
  CHECK(t100 < t200);
  CHECK(t200 < t300);
  CHECK(t300 < t400);
  CHECK(text.substr(t200, t300 - t200) == "#200\nb11111010 \"\n");   // 250
  CHECK(text.substr(t300, t400 - t300).find("b1111101000 \"") != std::string::npos);  // 1000
  CHECK(text.substr(t300, t400 - t300).find("b10 !") != std::string::npos);
  CHECK(text.substr(t400) == "#400\nb0 \"\n");
  CHECK(text.find("#250") == std::string::npos);
}
