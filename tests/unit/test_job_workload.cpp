#include <catch2/catch.hpp>

#include <map>

#include "common/generalized_harmonic.h"
#include "stimuli/job_workload.h"

using namespace ssd::stimuli;

namespace {
constexpr std::uint64_t kDrive = 1ull << 30;  // 1 GiB

JobSpec job(const std::string& name, std::uint64_t count) {
  JobSpec s;
  s.name = name;
  s.count = count;
  return s;
}
}  // namespace

TEST_CASE("Jobs, closed loop: weighted round robin, then the rest of the longer job", "[stimuli][jobs]") {
  JobSpec a = job("a", 7), b = job("b", 2);
  a.weight = 3;
  JobWorkload w({a, b}, kDrive);
  CHECK_FALSE(w.open_loop());
  std::string order;
  HostRequest r;
  while (w.next(r)) order += r.issuer == 0 ? 'a' : 'b';
  CHECK(order == "aaabaaaba");  // a: 3 per turn, b: 1; b runs out after 2
}

TEST_CASE("Jobs: a sequential job walks its range in request steps and wraps", "[stimuli][jobs]") {
  JobSpec s = job("seq", 5);
  s.pattern = JobSpec::Pattern::Sequential;
  s.sizes = {{8192, 1.0}};
  s.range_start_bytes = 1 << 20;
  s.range_bytes = 3 * 8192;
  JobWorkload w({s}, kDrive);
  std::vector<std::uint64_t> lbas;
  HostRequest r;
  while (w.next(r)) {
    lbas.push_back(r.lba);
    CHECK(r.sectors == 16);
  }
  const std::uint64_t base = (1 << 20) / 512;
  CHECK(lbas == std::vector<std::uint64_t>{base, base + 16, base + 32, base, base + 16});
}

TEST_CASE("Jobs, open loop: each job at its rate, merged in time order", "[stimuli][jobs]") {
  JobSpec fast = job("fast", 4), slow = job("slow", 2);
  fast.rate_iops = 1000;  // every 1 ms
  slow.rate_iops = 400;   // every 2.5 ms
  JobWorkload w({fast, slow}, kDrive);
  CHECK(w.open_loop());
  std::vector<std::pair<std::uint64_t, std::uint32_t>> got;
  HostRequest r;
  while (w.next(r)) got.emplace_back(r.arrival_ns, r.issuer);
  const std::vector<std::pair<std::uint64_t, std::uint32_t>> want{
      {0, 0}, {0, 1}, {1'000'000, 0}, {2'000'000, 0}, {2'500'000, 1}, {3'000'000, 0}};
  CHECK(got == want);
  JobSpec closed = job("closed", 1);
  CHECK_THROWS_WITH(JobWorkload({fast, closed}, kDrive), Catch::Contains("either every job has a rate_iops"));
}

TEST_CASE("Jobs: hot/cold and Zipf skew concentrate the accesses as specified", "[stimuli][jobs]") {
  // Hot/cold 0.2:0.8 over 1,000 slots of 4 KiB: 80% of the requests in the first 200 slots
  // (binomial sd 0.3% over 20,000 requests: the 1.5% tolerance is 5 sd).
  JobSpec hc = job("hc", 20000);
  hc.range_bytes = 1000 * 4096;
  hc.skew = JobSpec::Skew::HotCold;
  JobWorkload h({hc}, kDrive);
  std::uint64_t hot = 0;
  HostRequest r;
  while (h.next(r)) hot += r.lba / 8 < 200;
  CHECK(double(hot) / 20000 == Approx(0.8).margin(0.015));

  // Zipf theta 0.99 over 1,000 slots: the most popular slot gets 1 / zeta(1000, 0.99) of the
  // requests (zeta = 7.03..., so 14.2%); the next one half as much.
  JobSpec z = job("z", 50000);
  z.range_bytes = 1000 * 4096;
  z.skew = JobSpec::Skew::Zipf;
  z.zipf_theta = 0.99;
  JobWorkload zw({z}, kDrive);
  std::map<std::uint64_t, std::uint64_t> hits;
  while (zw.next(r)) ++hits[r.lba];
  std::vector<std::uint64_t> counts;
  for (const auto& [lba, n] : hits) counts.push_back(n);
  std::sort(counts.rbegin(), counts.rend());
  double zeta = 0;
  for (int k = 1; k <= 1000; ++k) zeta += 1.0 / std::pow(k, 0.99);
  CHECK(double(counts[0]) / 50000 == Approx(1.0 / zeta).margin(0.01));
  CHECK(double(counts[1]) / counts[0] == Approx(std::pow(0.5, 0.99)).margin(0.1));
}

TEST_CASE("Jobs: bad specs are named", "[stimuli][jobs]") {
  JobSpec big = job("big", 1);
  big.range_start_bytes = kDrive - 4096;
  big.sizes = {{8192, 1.0}};
  CHECK_THROWS_WITH(JobWorkload({big}, kDrive), Catch::Contains("job 'big' (#1)") && Catch::Contains("does not hold"));
  JobSpec odd = job("odd", 1);
  odd.sizes = {{1000, 1.0}};
  CHECK_THROWS_WITH(JobWorkload({odd}, kDrive), Catch::Contains("multiples of 512"));
}

TEST_CASE("Zipf normalization: exact up to 2^20 items, Euler-Maclaurin beyond within 1e-12", "[stimuli][jobs]") {
  for (double theta : {0.5, 0.99}) {
    for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(1000), std::uint64_t(1) << 20, (std::uint64_t(1) << 20) + 1,
                            std::uint64_t(3000000)}) {
      long double plain = 0;  // the plain sum, in extended precision
      for (std::uint64_t k = 1; k <= n; ++k) plain += 1.0L / std::pow((long double)k, (long double)theta);
      INFO("theta " << theta << ", n " << n);
      CHECK(ssd::generalized_harmonic(n, theta) == Approx(double(plain)).epsilon(1e-12));
    }
  }
  // Closed form: H(n, 0.5) ~ 2 sqrt(n) + zeta(1/2) + 1/(2 sqrt n), zeta(1/2) = -1.4603545088.
  const double n = 1e9;
  CHECK(ssd::generalized_harmonic(std::uint64_t(n), 0.5) ==
        Approx(2 * std::sqrt(n) - 1.4603545088 + 0.5 / std::sqrt(n)).epsilon(1e-12));
}
