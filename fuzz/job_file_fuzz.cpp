// libFuzzer target: the fio-style job-file loader (platforms/config/job_file.h) and the jobs it
// yields (stimuli/job_workload.h) on a 1 GiB drive: the first requests are drawn, honouring the
// per-job queue depths as the host does, and checked to lie inside the drive. ConfigError and
// WorkloadError are the documented refusals; anything else is a finding.
#include <cmath>
#include <deque>

#include "fuzz/fuzz_input.h"
#include "platforms/config/job_file.h"
#include "platforms/config/platform_config.h"

namespace {
constexpr std::uint64_t kCapacityBytes = 1ull << 30;
constexpr int kRequestsDrawn = 1000;

void check_specs(const std::vector<ssd::stimuli::JobSpec>& jobs) {
  for (const auto& s : jobs) {
    ssd::fuzz::expect(s.read_fraction >= 0 && s.read_fraction <= 1, "an accepted read_fraction lies in [0, 1]");
    ssd::fuzz::expect(std::isfinite(s.rate_iops) && s.rate_iops >= 0, "an accepted rate_iops is a finite rate");
  }
}

void draw(ssd::stimuli::JobWorkload& w, std::size_t jobs) {
  const std::vector<std::uint32_t> depths = w.stream_depths();
  std::deque<std::uint32_t> outstanding;  // issuers, oldest first
  ssd::stimuli::HostRequest r;
  std::uint64_t previous = 0;
  for (int i = 0; i < kRequestsDrawn; ++i) {
    while (!w.ready()) {
      ssd::fuzz::expect(!outstanding.empty(), "a job workload that is not ready has requests outstanding");
      w.completed(outstanding.front());
      outstanding.pop_front();
    }
    if (!w.next(r)) break;
    if (r.is_flush()) {  // flush_every / flush_interval: no data, no address
      ssd::fuzz::expect(r.sectors == 0 && r.lba == 0, "a flush has no sectors and no address");
    } else {
      ssd::fuzz::expect(r.sectors > 0, "a read or write covers at least one sector");
      ssd::fuzz::expect(r.lba < kCapacityBytes / 512 && r.sectors <= kCapacityBytes / 512 - r.lba,
                        "a job's request lies inside the drive");
    }
    ssd::fuzz::expect(r.issuer < jobs, "a request's issuer is its job");
    if (w.open_loop()) ssd::fuzz::expect(r.arrival_ns >= previous, "open-loop arrivals never go backwards");
    previous = r.arrival_ns;
    if (!depths.empty()) outstanding.push_back(r.issuer);
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    std::vector<ssd::stimuli::JobSpec> jobs = ssd::platform::load_job_text(text, "jobs.yaml");
    const std::size_t count = jobs.size();
    ssd::stimuli::JobWorkload w(jobs, kCapacityBytes);
    check_specs(jobs);
    draw(w, count);
  } catch (const ssd::platform::ConfigError&) {
  } catch (const ssd::stimuli::WorkloadError&) {
  }
  return 0;
}
