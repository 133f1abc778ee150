// The report's hardware section is read from the statistics registry alone: a set placed with
// report_as() appears under its key, nested under its nearest placed ancestor by SystemC
// name, with busy time as a fraction of the run and durations in microseconds. A new model's
// statistics need no report code.
#include <catch2/catch.hpp>

#include "common/busy_time.h"
#include "common/latency_trail.h"
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
  for (const char* op : {"host.latency_breakdown.read", "host.latency_breakdown.write"})
    for (std::size_t s = 0; s < kStages; ++s) m.set(op).histogram(stage_name(static_cast<Stage>(s)));
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
  widget.busy("busy_fraction").add(0, 250'000);  // of 1,000,000 ticks
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

TEST_CASE("utilization.over_time: each resource's busy share per interval, dies and channels as mean and max",
          "[report][statistics][utilization]") {
  constexpr std::uint64_t kMs = BusyTime::kInitialIntervalTicks;
  MetricsRegistry m;
  add_required_sets(m);
  MetricSet& channel = m.set("ssd.channel0");
  channel.report_as("channels", 0);
  channel.busy("busy_fraction").add(0, kMs / 2);  // half of the first ms
  MetricSet& die0 = m.set("ssd.channel0.die0");
  die0.report_as("dies", 0);
  die0.busy("busy_fraction").add(0, 2 * kMs);  // busy throughout the first two ms
  MetricSet& die1 = m.set("ssd.channel0.die1");
  die1.report_as("dies", 1);
  die1.busy("busy_fraction").add(kMs, kMs + kMs / 4);  // a quarter of the second
  MetricSet& link = m.set("ssd.host");
  link.report_as("host_interface");
  link.busy("to_device_busy_fraction").add(2 * kMs, 2 * kMs + kMs / 4);  // all of the short last interval

  platform::RunFacts facts;
  facts.simulated_seconds = tlmx::ticks_to_seconds(2 * kMs + kMs / 4);  // 2.25 ms: the third interval is partial
  const json u = platform::build_report(platform::PlatformConfig{}, m, facts)["utilization"]["over_time"];
  CHECK(u["interval_s"].get<double>() == Approx(0.001));
  CHECK(u["start_s"] == json::array({0.0, 0.001, 0.002}));
  const json& s = u["series"];
  CHECK(s["channels (mean)"] == json::array({0.5, 0.0, 0.0}));
  CHECK(s["dies (max)"] == json::array({1.0, 1.0, 0.0}));
  CHECK(s["dies (mean)"] == json::array({0.5, 0.625, 0.0}));
  CHECK(s["host link (to device)"][2].get<double>() == Approx(1.0));
  CHECK_FALSE(s.contains("channel 0 die 1"));  // dies only as their mean and max

  // A resource whose intervals doubled sets the interval for all: one 2 ms interval, then 0.25 ms.
  die1.busy("busy_fraction").add(1500 * kMs, 1500 * kMs + 1);
  die1.busy("busy_fraction").remove(1500 * kMs, 1500 * kMs + 1);
  const json v = platform::build_report(platform::PlatformConfig{}, m, facts)["utilization"]["over_time"];
  CHECK(v["interval_s"].get<double>() == Approx(0.002));
  CHECK(v["series"]["dies (mean)"][0].get<double>() == Approx((2.0 + 0.25) / 2 / 2));
  CHECK(v["series"]["host link (to device)"][1].get<double>() == Approx(1.0));
}
