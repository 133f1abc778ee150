// The host's NVMe I/O queues end to end: jobs on queues of their own, the controller's command
// arbitration between them (host.arbitration), interrupt coalescing (host.coalescing_*), each
// flow's figures (host.flows) and the slowdown and fairness of --alone-runs, each against what
// it must be in closed form.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli_support.h"

using namespace ssd::cli;

namespace {

// Random 4 KiB reads over the filled tiny drive: every request a flash read, no GC.
std::string reader(const std::string& name, std::uint32_t queue, const std::string& priority, std::uint64_t count,
                   const std::string& loop, std::uint64_t seed) {
  return "  - name: " + name + "\n    read_fraction: 1\n    block_size: 4096\n    count: " + std::to_string(count) +
         "\n    seed: " + std::to_string(seed) + "\n    queue: " + std::to_string(queue) + "\n    priority: " +
         priority + "\n" + loop;
}

std::vector<std::string> tiny_run(const TempDir& dir, const std::string& jobs, std::vector<std::string> more) {
  std::vector<std::string> args{"-p", tiny_platform(), "--jobs", dir.file(jobs)};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The same as an `ssdsim run` command line (run_ssdsim's; successful_run adds "run" itself).
std::vector<std::string> run_of(std::vector<std::string> args) {
  args.insert(args.begin(), "run");
  return args;
}

const json& flow(const json& report, std::size_t q) { return report["host"]["flows"][q]; }

}  // namespace

TEST_CASE("queues: weighted round robin shares the controller's fetches by the class weights",
          "[cli][queues][arbitration]") {
  // Three closed-loop flows (iodepth 8 each) on a controller that holds 2 commands: every queue
  // always has commands waiting, so each completion's free slot goes to the arbiter's choice and a
  // flow's throughput is its share of the fetches. With weights 4:2:1 and counts 4:2:1 the three
  // run side by side to the end: their rates stand 4:2:1 (within 2%) and their spans are equal.
  // Round robin on the same jobs gives every flow the same rate instead.
  TempDir dir;
  const std::string depth = "    iodepth: 8\n";
  write_text(dir.file("wrr.yaml"), "jobs:\n" + reader("high", 0, "high", 4000, depth, 1) +
                                       reader("medium", 1, "medium", 2000, depth, 2) +
                                       reader("low", 2, "low", 1000, depth, 3));
  const std::vector<std::string> controller{"--set", "host.controller_commands=2", "--set", "host.wrr_weight_high=4",
                                            "--set", "host.wrr_weight_medium=2", "--set", "host.wrr_weight_low=1"};
  std::vector<std::string> wrr = controller;
  wrr.insert(wrr.end(), {"--set", "host.arbitration=wrr"});
  const json w = successful_run(tiny_run(dir, "wrr.yaml", wrr), dir, "wrr.json");
  REQUIRE(w["host"]["flows"].size() == 3);
  const double high = flow(w, 0)["iops"].get<double>(), medium = flow(w, 1)["iops"].get<double>(),
               low = flow(w, 2)["iops"].get<double>();
  CHECK(high / low == Approx(4.0).epsilon(0.02));
  CHECK(medium / low == Approx(2.0).epsilon(0.02));
  CHECK(flow(w, 0)["span_s"].get<double>() == Approx(flow(w, 2)["span_s"].get<double>()).epsilon(0.02));
  CHECK(flow(w, 0)["priority"] == "high");
  CHECK(flow(w, 2)["depth"] == 8);
  // Every fetch went to its queue (host_interface.queues.<q>.fetched), one per command.
  CHECK(u64(w["hardware"]["host_interface"]["queues"][0]["fetched"]) == 4000);

  std::vector<std::string> rr = controller;
  rr.insert(rr.end(), {"--set", "host.arbitration=rr"});
  const json r = successful_run(tiny_run(dir, "wrr.yaml", rr), dir, "rr.json");
  // Round robin: equal rates while all three are busy; the low flow, done first, ran at a third
  // of the controller's rate, the high flow's overall rate is above it (alone at the end).
  CHECK(flow(r, 2)["span_s"].get<double>() < flow(r, 0)["span_s"].get<double>() / 2);
}

TEST_CASE("queues: an urgent queue is always fetched first under weighted round robin", "[cli][queues][arbitration]") {
  // Two open-loop flows whose requests all arrive at once (1 ns apart), on a controller that
  // holds one command: under wrr the urgent flow's commands are all fetched, and so completed,
  // before the low flow's first; under round robin the two interleave.
  TempDir dir;
  const std::string burst = "    rate_iops: 1000000000\n";
  write_text(dir.file("urgent.yaml"), "jobs:\n" + reader("urgent", 0, "urgent", 300, burst, 1) +
                                          reader("low", 1, "low", 300, burst, 2));
  for (const std::string policy : {"wrr", "rr"}) {
    INFO("host.arbitration=" << policy);
    const json r = successful_run(
        tiny_run(dir, "urgent.yaml", {"--set", "host.controller_commands=1", "--set", "host.arbitration=" + policy}),
        dir, policy + ".json");
    const double urgent_done = flow(r, 0)["last_completion_s"].get<double>();
    const double low_first = flow(r, 1)["first_completion_s"].get<double>();
    if (policy == "wrr")
      CHECK(low_first > urgent_done);
    else
      CHECK(low_first < urgent_done);
  }
}

TEST_CASE("queues: flow_priority die queues serve the more urgent flow's commands first", "[cli][queues][scheduling]") {
  // Two closed-loop read flows of 16 outstanding each over the same four dies, fetched round robin
  // (nothing waits in the controller), with 200 us reads so the dies are the bottleneck: with fifo
  // die queues both wait alike; with flow_priority the urgent flow's reads pass the low flow's
  // queued ones, so its die-queue wait falls to under half of fifo's and the low flow's grows.
  // Aging (channel.gc_max_wait_us, 1 ms by default) bounds what a command waits for more urgent
  // ones: with queues deeper than that every command ages and the order is fifo's again.
  TempDir dir;
  const std::string depth = "    iodepth: 16\n";
  write_text(dir.file("two.yaml"), "jobs:\n" + reader("urgent", 0, "urgent", 3000, depth, 1) +
                                       reader("low", 1, "low", 3000, depth, 2));
  auto die_wait = [](const json& r, std::size_t q) {
    return flow(r, q)["latency_breakdown"]["read"]["stages"]["die_queue"]["mean_us"].get<double>();
  };
  auto run = [&](const std::string& scheduler, const std::string& aging, const std::string& name) {
    return successful_run(tiny_run(dir, "two.yaml",
                                   {"--set", "channel.scheduler=" + scheduler, "--set", "nand.t_read_us=[200]", "--set",
                                    "channel.gc_max_wait_us=" + aging}),
                          dir, name);
  };
  const json fifo = run("fifo", "100000", "fifo.json");
  const json prio = run("flow_priority", "100000", "prio.json");
  const json aged = run("flow_priority", "1000", "aged.json");
  INFO("die queue us, urgent / low: fifo " << die_wait(fifo, 0) << " / " << die_wait(fifo, 1) << "; flow_priority "
                                          << die_wait(prio, 0) << " / " << die_wait(prio, 1) << "; aged "
                                          << die_wait(aged, 0) << " / " << die_wait(aged, 1));
  CHECK(die_wait(fifo, 0) == Approx(die_wait(fifo, 1)).epsilon(0.05));
  CHECK(die_wait(prio, 0) < 0.5 * die_wait(fifo, 0));
  CHECK(die_wait(prio, 1) > die_wait(fifo, 1));
  CHECK(die_wait(aged, 0) == Approx(die_wait(fifo, 0)).epsilon(0.1));
}

TEST_CASE("queues: interrupt coalescing delays each completion to its queue's interrupt", "[cli][queues][coalescing]") {
  TempDir dir;
  const std::vector<std::string> reads{"-p",     tiny_platform(), "--synthetic", "random", "--read-fraction", "1",
                                       "--count", "2000",          "--request-bytes", "4096", "--no-vcd"};
  auto with = [&reads](std::vector<std::string> more) {
    std::vector<std::string> a = reads;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  const json base = successful_run(with({"--qd", "1"}), dir, "base.json");
  // One command at a time never gathers 4 entries: each waits the whole aggregation time, 100 us,
  // and the drive's side of every request is unchanged (reads of an idle drive).
  const json timed = successful_run(with({"--qd", "1", "--set", "host.coalescing_threshold=4", "--set",
                                          "host.coalescing_time_us=100"}),
                                    dir, "timed.json");
  CHECK(timed["host"]["read_latency_us"]["mean"].get<double>() ==
        Approx(base["host"]["read_latency_us"]["mean"].get<double>() + 100.0).margin(0.01));
  CHECK(timed["latency_breakdown"]["read"]["stages"]["completion"]["mean_us"].get<double>() ==
        Approx(base["latency_breakdown"]["read"]["stages"]["completion"]["mean_us"].get<double>() + 100.0).margin(0.01));
  CHECK(u64(timed["hardware"]["host_interface"]["interrupts"]) == 2000);
  // Four at a time with a long aggregation time: every interrupt carries exactly four entries
  // (the host sees a batch, then submits the next four).
  const json batched = successful_run(with({"--qd", "4", "--set", "host.coalescing_threshold=4", "--set",
                                            "host.coalescing_time_us=10000"}),
                                      dir, "batched.json");
  CHECK(u64(batched["hardware"]["host_interface"]["interrupts"]) == 2000 / 4);
  // A threshold without a time is refused, naming both parameters.
  require_bad_input(run_ssdsim(run_of(with({"--set", "host.coalescing_threshold=4"})), dir),
                    {"host.coalescing_threshold", "host.coalescing_time_us"});
}

TEST_CASE("queues: two equal flows sharing a one-command controller are each slowed twofold, fairly",
          "[cli][queues][fairness]") {
  // Each flow keeps one read outstanding; the controller holds one command, so with both flows each
  // read waits for the other flow's read before its own: slowdown 2 less the host's turnaround
  // (the other flow's next command is not yet there when a slot frees), fairness 1. Slowdown is
  // the shared mean latency over the alone run's (same seeds, same requests).
  TempDir dir;
  const std::string depth = "    iodepth: 1\n";
  write_text(dir.file("pair.yaml"), "jobs:\n" + reader("a", 0, "medium", 1500, depth, 1) +
                                        reader("b", 1, "medium", 1500, depth, 2));
  const json r = successful_run(
      tiny_run(dir, "pair.yaml",
               {"--set", "host.controller_commands=1", "--alone-runs", "--no-vcd", "--csv", dir.file("pair.csv")}),
      dir, "pair.json");
  for (std::size_t q = 0; q < 2; ++q) {
    INFO("flow " << q);
    const json& f = flow(r, q);
    CHECK(f["slowdown"].get<double>() ==
          Approx(f["latency_us"]["mean"].get<double>() / f["alone_mean_latency_us"].get<double>()));
    CHECK(f["slowdown"].get<double>() > 1.9);
    CHECK(f["slowdown"].get<double>() <= 2.0 + 1e-9);
    CHECK(u64(f["alone_requests"]) == 1500);
  }
  CHECK(r["host"]["fairness"].get<double>() > 0.98);
  CHECK(r["host"]["fairness"].get<double>() <= 1.0);
  // The CSV row carries each flow's figures beside the run's.
  const std::vector<std::string> rows = lines_of(read_text(dir.file("pair.csv")));
  REQUIRE(rows.size() == 2);
  auto cells = [](const std::string& row) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (const char c : row) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted)
        out.emplace_back();
      else
        out.back() += c;
    }
    return out;
  };
  const std::vector<std::string> header = cells(rows[0]), row = cells(rows[1]);
  REQUIRE(header.size() == row.size());
  auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return row[i];
    FAIL("no CSV column " << name);
    return std::string();
  };
  CHECK(std::stod(column("flow1_slowdown")) == Approx(flow(r, 1)["slowdown"].get<double>()));
  CHECK(std::stod(column("fairness")) == Approx(r["host"]["fairness"].get<double>()));
  CHECK(column("flows") == "2");
}

TEST_CASE("queues: bad queue settings are refused with the job, key or option named", "[cli][queues][errors]") {
  TempDir dir;
  const std::string depth = "    iodepth: 4\n";
  write_text(dir.file("gap.yaml"), "jobs:\n" + reader("a", 0, "low", 10, depth, 1) + reader("b", 2, "low", 10, depth, 2) +
                                        reader("c", 0, "low", 10, depth, 3));
  require_bad_input(run_ssdsim(run_of(tiny_run(dir, "gap.yaml", {"--no-vcd"})), dir), {"queue 1 has no job"});
  write_text(dir.file("beyond.yaml"), "jobs:\n" + reader("a", 0, "low", 10, depth, 1) + reader("b", 2, "low", 10, depth, 2));
  require_bad_input(run_ssdsim(run_of(tiny_run(dir, "beyond.yaml", {"--no-vcd"})), dir), {"queue 2 is named", "2 jobs"});
  write_text(dir.file("classes.yaml"),
             "jobs:\n" + reader("a", 0, "low", 10, depth, 1) + reader("b", 0, "high", 10, depth, 2));
  require_bad_input(run_ssdsim(run_of(tiny_run(dir, "classes.yaml", {"--no-vcd"})), dir), {"job 'b'", "queue 0 is low"});
  write_text(dir.file("nodepth.yaml"), "jobs:\n" + reader("a", 0, "low", 10, "", 1) + reader("b", 1, "low", 10, "", 2));
  require_bad_input(run_ssdsim(run_of(tiny_run(dir, "nodepth.yaml", {"--no-vcd"})), dir), {"job 'a'", "iodepth"});
  write_text(dir.file("bad_class.yaml"), "jobs:\n  - name: a\n    queue: 0\n    priority: soon\n    iodepth: 1\n");
  require_bad_input(run_ssdsim(run_of(tiny_run(dir, "bad_class.yaml", {"--no-vcd"})), dir), {"bad_class.yaml:4", "priority"});
  write_text(dir.file("deep.yaml"), "jobs:\n" + reader("a", 0, "low", 10, "    iodepth: 40\n", 1));
  require_bad_input(run_ssdsim(run_of(tiny_run(dir, "deep.yaml", {"--no-vcd"})), dir), {"I/O queue 0", "host.queue_depth = 32"});
  const std::vector<std::string> synthetic{"-p", tiny_platform(), "--synthetic", "random", "--count", "10", "--no-vcd"};
  auto plus = [&synthetic](std::vector<std::string> more) {
    std::vector<std::string> a = synthetic;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  require_bad_input(run_ssdsim(run_of(plus({"--alone-runs"})), dir), {"--alone-runs", "one I/O queue"});
  require_bad_input(run_ssdsim(run_of(plus({"--queues", "2", "--only-queue", "2"})), dir), {"--only-queue 2"});
  require_bad_input(run_ssdsim(run_of(plus({"--queues", "2", "--queue-priority", "urgent,soon"})), dir),
                    {"--queue-priority", "soon"});
  require_bad_input(run_ssdsim(run_of(plus({"--set", "host.arbitration=fair"})), dir), {"host.arbitration"});
}

TEST_CASE("queues: a synthetic stream's issuers become flows with --queues, and one flow runs alone with --only-queue",
          "[cli][queues]") {
  TempDir dir;
  const std::vector<std::string> base{"-p",         tiny_platform(), "--synthetic", "random", "--read-fraction",
                                      "0.5",        "--count",       "4000",        "--issuers", "4",
                                      "--queues",   "2",             "--qd",        "4",         "--no-vcd"};
  const json both = successful_run(base, dir, "both.json");
  REQUIRE(both["host"]["flows"].size() == 2);
  // Issuers 0 and 2 on queue 0, 1 and 3 on queue 1: request i from issuer i % 4, half each.
  const std::uint64_t q0 = u64(flow(both, 0)["reads"]) + u64(flow(both, 0)["writes"]);
  const std::uint64_t q1 = u64(flow(both, 1)["reads"]) + u64(flow(both, 1)["writes"]);
  CHECK(q0 == 2000);
  CHECK(q1 == 2000);
  CHECK(both["workload"]["queues"] == 2);
  CHECK(u64(both["workload"]["queue_depth"]) == 8);
  std::vector<std::string> alone = base;
  alone.insert(alone.end(), {"--only-queue", "1"});
  const json one = successful_run(alone, dir, "one.json");
  CHECK(u64(flow(one, 0)["reads"]) + u64(flow(one, 0)["writes"]) == 0);
  CHECK(u64(flow(one, 1)["reads"]) == u64(flow(both, 1)["reads"]));
  CHECK(u64(flow(one, 1)["writes"]) == u64(flow(both, 1)["writes"]));
}
