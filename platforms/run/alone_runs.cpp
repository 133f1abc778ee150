#include "platforms/run/alone_runs.h"

#include "platforms/run/input_errors.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iostream>
#include <string>

namespace ssd::platform {

using nlohmann::json;

namespace {

// The child: the run with one queue, its figures written to `fd` as JSON, then gone without
// unwinding the parent's state it inherited.
[[noreturn]] void run_alone_child(RunOptions options, std::uint32_t queue, int fd) {
  json out;
  int code = 0;
  try {
    options.only_queue = queue;
    options.alone_runs = false;
    options.vcd_path.clear();
    options.progress = false;
    options.firmware_job_log.clear();
    const RunOutcome outcome = run_simulation(options);
    const json& host = outcome.report.at("host");
    out = {{"requests", host.at("reads").get<std::uint64_t>() + host.at("writes").get<std::uint64_t>()},
           {"mean_latency_us", host.at("latency_us").at("mean")},
           {"integrity_ok", outcome.integrity_ok}};
  } catch (const std::exception& e) {
    out = {{"error", e.what()}, {"bad_input", is_input_error(e)}};
    code = 1;
  }
  const std::string text = out.dump();
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  std::cout.flush();
  std::cerr.flush();
  ::_exit(code);
}

AloneRun run_one_alone(const RunOptions& options, std::uint32_t queue) {
  int fds[2];
  if (::pipe(fds) != 0) throw RunError("--alone-runs: cannot open a pipe to the alone run of queue " + std::to_string(queue));
  const pid_t pid = ::fork();
  if (pid < 0) throw RunError("--alone-runs: cannot start the alone run of queue " + std::to_string(queue));
  if (pid == 0) {
    ::close(fds[0]);
    run_alone_child(options, queue, fds[1]);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const std::string which = "--alone-runs: queue " + std::to_string(queue) + " alone: ";
  const json out = json::parse(text, nullptr, false);
  if (out.is_discarded() || !WIFEXITED(status))
    throw RunError(which + "the run ended without its figures (" +
                   (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status)) : "no report") + ")");
  if (out.contains("error")) {
    if (out["bad_input"].get<bool>()) throw ConfigError(which + out["error"].get<std::string>());
    throw RunError(which + out["error"].get<std::string>());
  }
  if (!out["integrity_ok"].get<bool>()) throw RunError(which + "the integrity check failed");
  return {queue, out["requests"].get<std::uint64_t>(), out["mean_latency_us"].get<double>()};
}

}  // namespace

std::uint32_t flow_count(const RunOptions& options) {
  if (!options.jobs.empty()) {
    std::uint32_t highest = 0;
    for (const auto& j : options.jobs) highest = std::max(highest, j.queue.value_or(0));
    return highest + 1;
  }
  return std::max<std::uint32_t>(1, options.trace_queues);
}

std::vector<AloneRun> run_flows_alone(const RunOptions& options) {
  const std::uint32_t flows = flow_count(options);
  if (flows < 2)
    throw ConfigError("--alone-runs: the workload has one I/O queue; give a job file with queues (`queue` per job) "
                      "or --queues N");
  if (options.power_cut())
    throw ConfigError("--alone-runs: not with a power cut (the flows' figures would end at the cut)");
  std::vector<AloneRun> alone;
  for (std::uint32_t q = 0; q < flows; ++q) alone.push_back(run_one_alone(options, q));
  return alone;
}

void add_slowdowns(json& report, const std::vector<AloneRun>& alone) {
  json& flows = report.at("host").at("flows");
  double lowest = 0, highest = 0;
  bool first = true;
  for (const AloneRun& a : alone) {
    json& flow = flows.at(a.queue);
    const double shared = flow.at("latency_us").at("mean").get<double>();
    flow["alone_requests"] = a.requests;
    flow["alone_mean_latency_us"] = a.mean_latency_us;
    if (a.requests == 0 || a.mean_latency_us <= 0) {  // a flow without reads or writes has no slowdown
      flow["slowdown"] = nullptr;
      continue;
    }
    const double slowdown = shared / a.mean_latency_us;
    flow["slowdown"] = slowdown;
    lowest = first ? slowdown : std::min(lowest, slowdown);
    highest = first ? slowdown : std::max(highest, slowdown);
    first = false;
  }
  report["host"]["fairness"] = first ? json(nullptr) : json(lowest / highest);
}

}  // namespace ssd::platform
