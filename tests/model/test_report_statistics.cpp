// The report's hardware section is read from the statistics registry alone: a set placed with
// report_as() appears under its key, nested under its nearest placed ancestor by SystemC
// name, with busy time as a fraction of the run and durations in microseconds. A new model's
// statistics need no report code.
#include <catch2/catch.hpp>

#include "common/metrics.h"
#include "platforms/report/report.h"
#include "tlm/time_base.h"

using namespace ssd;
using json = nlohmann::json;

namespace {
// The sets every report reads (host, FTL, firmware operations), empty.
void add_required_sets(MetricsRegistry& m) {
  MetricSet& host = m.set("host");
  for (const char* c : {"reads", "writes", "read_bytes", "write_bytes", "held_for_ordering", "folded_requests"})
    host.counter(c);
  host.histogram("read_latency_ns");
  host.histogram("write_latency_ns");
  host.series("completions");
  m.set("ftl");
  m.set("firmware.ops");
}
}  // namespace

TEST_CASE("A model's placed statistics appear in the report's hardware section without report code",
          "[report][statistics]") {
  MetricsRegistry m;
  add_required_sets(m);
  MetricSet& widget = m.set("ssd.widget");  // a model that exists nowhere in the report code
  widget.report_as("widget");
  widget.counter("requests") = 7;
  widget.busy("busy_fraction") = 250'000;  // of 1,000,000 ticks
  widget.duration("wait") = 300'000;       // 3 us at 10 ps a tick
  MetricSet& lane1 = m.set("ssd.widget.lane1");  // registered before lane0: the index orders them
  lane1.report_as("lanes", 1);
  lane1.counter("moves") = 3;
  MetricSet& lane0 = m.set("ssd.widget.lane0");
  lane0.report_as("lanes", 0);
  lane0.counter("moves") = 2;
  m.set("ssd.hidden").counter("secret") = 5;         // not placed: not in the report
  m.set("ssd.hidden.gauge").report_as("gauge_part");  // placed, ancestor not: at the section's top
  m.set("ssd.hidden.gauge").gauge("level") = 0.5;

  platform::RunFacts facts;
  facts.simulated_seconds = tlmx::ticks_to_seconds(1'000'000);
  const json hw = platform::build_report(platform::PlatformConfig{}, m, facts)["hardware"];

  REQUIRE(hw.contains("widget"));
  CHECK(hw["widget"]["requests"] == 7);
  CHECK(hw["widget"]["busy_fraction"].get<double>() == Approx(0.25));
  CHECK(hw["widget"]["wait_us"].get<double>() == Approx(3.0));
  CHECK_FALSE(hw["widget"].contains("wait"));
  REQUIRE(hw["widget"]["lanes"].size() == 2);
  CHECK(hw["widget"]["lanes"][0]["moves"] == 2);
  CHECK(hw["widget"]["lanes"][1]["moves"] == 3);
  CHECK_FALSE(hw.contains("lanes"));
  CHECK_FALSE(hw.contains("secret"));
  CHECK_FALSE(hw.contains("hidden"));
  CHECK(hw["gauge_part"]["level"].get<double>() == 0.5);
}
