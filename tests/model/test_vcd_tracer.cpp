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
    vcd.change_at(q, 6, 1500, 1500);   // opens the window: dump (5) then the change (6)
    vcd.change_at(q, 7, 2500, 2500);   // after the window: not written
  }
  const std::string text = slurp(path);
  CHECK(text.find("#500") == std::string::npos);
  CHECK(text.find("#2500") == std::string::npos);
  const auto dump = text.find("#1500\n$dumpvars\nb101 ");
  CHECK(dump != std::string::npos);
  CHECK(text.find("b110 ", dump) != std::string::npos);
  CHECK(text.find("b111 ") == std::string::npos);
}
