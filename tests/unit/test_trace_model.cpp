// The stand-in trace model (stimuli/trace_model.h): the LRU stack against a naive list, the
// classifier and statistics on hand-built streams, then stand-ins of constructed excerpts whose
// features are known in closed form (purely sequential, only 8-sector writes, a cycle of three
// addresses, only cold misses), each measured again by a fresh classifier over the stand-in's
// output rather than trusting the generator's own counts. Plus determinism, exact lengths,
// errors, and the MSR CSV written and read back.
#include <catch2/catch.hpp>

#include "trace_test_support.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <list>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "stimuli/msr_trace.h"
#include "stimuli/msr_writer.h"
#include "stimuli/open_trace.h"
#include "stimuli/trace_model.h"

using namespace ssd::stimuli;

namespace {

// A workload over requests held in memory: the constructed excerpts.
class Requests : public Workload {
 public:
  explicit Requests(std::vector<HostRequest> requests) : requests_(std::move(requests)) {}
  bool next(HostRequest& r) override {
    if (i_ == requests_.size()) return false;
    r = requests_[i_++];
    return true;
  }
  std::string describe() const override { return "constructed excerpt"; }

 private:
  std::vector<HostRequest> requests_;
  std::size_t i_ = 0;
};

HostRequest request(std::uint64_t arrival_ns, bool write, std::uint64_t lba, std::uint32_t sectors) {
  HostRequest r;
  r.arrival_ns = arrival_ns;
  r.op = HostRequest::read_or_write(write);
  r.lba = lba;
  r.sectors = sectors;
  return r;
}

TraceModel learn(std::vector<HostRequest> requests) {
  Requests w(std::move(requests));
  return learn_trace_model(w);
}

std::vector<HostRequest> drain(Workload& w) {
  std::vector<HostRequest> out;
  HostRequest r;
  while (w.next(r)) out.push_back(r);
  return out;
}

// The statistics of `requests`, measured by a classifier of its own.
TraceStats measure(const std::vector<HostRequest>& requests) {
  ReferenceClassifier c;
  StatsCollector s;
  for (const HostRequest& r : requests) s.add(r, c.observe(r));
  return s.result();
}

StandinSpec writes_spec(std::uint64_t writes, std::uint64_t seed = 1) {
  StandinSpec s;
  s.writes = writes;
  s.seed = seed;
  return s;
}

// A mixed excerpt: 30% writes, sizes of 1-64 sectors, runs, re-references and new addresses.
std::vector<HostRequest> mixed_excerpt(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<HostRequest> out;
  std::vector<std::uint64_t> starts;
  std::uint64_t t = 0, next_start = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t sectors = 1u << (rng() % 7);
    std::uint64_t lba = 0;
    const auto pick = rng() % 10;
    if (pick < 3) {
      lba = next_start;  // continues the last request
    } else if (pick < 7 && !starts.empty()) {
      lba = starts[starts.size() - 1 - rng() % std::min<std::size_t>(starts.size(), 50)];
    } else {
      lba = (rng() % (1u << 20)) * 8;
    }
    t += rng() % 1000;
    out.push_back(request(t, rng() % 10 < 3, lba, sectors));
    starts.push_back(lba);
    next_start = lba + sectors;
  }
  return out;
}

}  // namespace

TEST_CASE("LruStack: depth and the address at a depth agree with a naive LRU list", "[standin]") {
  std::mt19937_64 rng(7);
  LruStack stack;
  std::list<std::uint64_t> naive;  // front = most recent
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t a = rng() % 500;
    const auto it = std::find(naive.begin(), naive.end(), a);
    const std::uint64_t expected = it == naive.end() ? 0 : std::uint64_t(std::distance(naive.begin(), it)) + 1;
    REQUIRE(stack.depth(a) == expected);
    if (it != naive.end()) naive.erase(it);
    naive.push_front(a);
    stack.touch(a);
    REQUIRE(stack.size() == naive.size());
    if (i % 97 == 0) {
      std::uint64_t d = 1;
      for (const std::uint64_t x : naive) REQUIRE(stack.at_depth(d++) == x);
    }
  }
}

TEST_CASE("LruStack: a removed address leaves the stack, the others close up", "[standin]") {
  LruStack stack;
  for (const std::uint64_t a : {10, 20, 30, 40}) stack.touch(a);  // 40 30 20 10
  stack.remove(30);
  stack.remove(99);  // not there: nothing happens
  CHECK(stack.size() == 3);
  CHECK(stack.depth(30) == 0);
  CHECK(stack.depth(20) == 2);
  CHECK(stack.at_depth(3) == 10);
  stack.touch(30);  // back on top
  CHECK(stack.depth(30) == 1);
  CHECK(stack.depth(10) == 4);
}

TEST_CASE("ReferenceClassifier: sequential lags, stack distances and cold misses", "[standin]") {
  ReferenceClassifier c;
  // 0+8, 100+8, 8 (continues the request 2 back), 100 (re-reference: stack 8,100,0 -> depth 2),
  // 16 (continues 8+8, the request 2 back), 0 (stack 16,100,8,0 -> depth 4), 5000 (cold).
  const std::vector<HostRequest> s{request(0, true, 0, 8),    request(10, false, 100, 8), request(30, true, 8, 8),
                                   request(60, true, 100, 4), request(100, true, 16, 8),  request(150, false, 0, 8),
                                   request(150, true, 5000, 8)};
  const std::vector<std::pair<AddressClass, std::uint64_t>> expected{
      {AddressClass::Cold, 0},       {AddressClass::Cold, 0},  {AddressClass::Sequential, 2}, {AddressClass::Reuse, 2},
      {AddressClass::Sequential, 2}, {AddressClass::Reuse, 4}, {AddressClass::Cold, 0}};
  const std::vector<std::uint64_t> gaps{0, 10, 20, 30, 40, 50, 0};
  for (std::size_t i = 0; i < s.size(); ++i) {
    INFO("request " << i);
    const RequestFeatures f = c.observe(s[i]);
    CHECK(f.kind == expected[i].first);
    CHECK(f.lag_or_distance == expected[i].second);
    CHECK(f.gap_ns == gaps[i]);
    CHECK(f.sectors == s[i].sectors);
    CHECK(f.write == s[i].is_write());
  }
}

TEST_CASE("StatsCollector: size buckets, written footprint of overlapping writes, quantiles", "[standin]") {
  // Writes of pages [0,2), [1,3), [10,11), [3,10) (adjacent on both sides: merges all), [0,11)
  // again: 11 distinct pages. Reads count for the size mix but not the footprint.
  const std::vector<HostRequest> s{request(0, true, 0, 16),    request(100, true, 8, 16),   request(200, true, 80, 8),
                                   request(300, true, 24, 56), request(400, true, 0, 88),   request(500, false, 4000, 300),
                                   request(900, false, 1, 1)};
  const TraceStats t = measure(s);
  CHECK(t.requests == 7);
  CHECK(t.writes == 5);
  CHECK(t.written_pages == 11);
  CHECK(t.size_buckets[0] == 2);  // 8 sectors, 1 sector
  CHECK(t.size_buckets[1] == 2);  // 16 sectors twice
  CHECK(t.size_buckets[2] == 1);  // 56 sectors = 7 pages
  CHECK(t.size_buckets[3] == 1);  // 88 sectors = 11 pages
  CHECK(t.size_buckets[4] == 1);  // 300 sectors = 38 pages
  CHECK(t.duration_ns == 900);
  CHECK(t.mean_gap_us() == Approx(0.15));
  CHECK(t.max_end_sector == 4300);

  // Quantiles by nearest rank over ten re-references at distances 1, 2 (x7), 7 (x2): p10 is the
  // 1st smallest, p50 the 5th, p90 the 9th. One-sector requests far apart: nothing sequential.
  ReferenceClassifier c;
  StatsCollector q;
  const auto ref = [&](std::uint64_t lba) {
    const HostRequest r = request(0, false, lba, 1);
    q.add(r, c.observe(r));
  };
  const std::uint64_t a = 10000, b = 20000;
  for (std::uint64_t i = 1; i <= 5; ++i) ref(100 * i);  // c1..c5, cold
  ref(a), ref(b);                                      // cold
  for (int i = 0; i < 7; ++i) ref(i % 2 ? b : a);      // depth 2 each
  ref(a);                                              // depth 1
  ref(100), ref(200);                                  // c1, then c2: depth 7 each
  const TraceStats r = q.result();
  CHECK(r.cold == 7);
  CHECK(r.reuse == 10);
  CHECK(r.distance_p10 == 1);
  CHECK(r.distance_p50 == 2);
  CHECK(r.distance_p90 == 7);
}

TEST_CASE("stand-in: a purely sequential excerpt gives a purely sequential stand-in", "[standin]") {
  std::vector<HostRequest> excerpt;
  for (std::uint64_t i = 0; i < 500; ++i) excerpt.push_back(request(i * 1000, i % 4 == 0, 4096 + i * 16, 16));
  const TraceModel model = learn(excerpt);
  CHECK(model.excerpt.sequential == 499);
  REQUIRE(model.tuples.size() == 499);  // the first request, the only cold one, is not a tuple
  StandinWorkload standin(model, writes_spec(20000));
  const std::vector<HostRequest> out = drain(standin);
  const TraceStats s = measure(out);
  // Every request but the first (which has nothing to continue) starts where the one before ended.
  CHECK(s.sequential == s.requests - 1);
  CHECK(s.cold == 1);
  CHECK(s.reuse == 0);
  CHECK(s.writes == 20000);
  for (std::size_t i = 1; i < out.size(); ++i) REQUIRE(out[i].lba == out[i - 1].lba + out[i - 1].sectors);
}

TEST_CASE("stand-in: an excerpt of only 8-sector writes gives only 8-sector writes", "[standin]") {
  std::mt19937_64 rng(3);
  std::vector<HostRequest> excerpt;
  for (std::uint64_t i = 0; i < 1000; ++i) excerpt.push_back(request(i * 500, true, (rng() % 100000) * 8, 8));
  StandinWorkload standin(learn(excerpt), writes_spec(50000));
  const std::vector<HostRequest> out = drain(standin);
  REQUIRE(out.size() == 50000);
  for (const HostRequest& r : out) {
    REQUIRE(r.is_write());
    REQUIRE(r.sectors == 8);
  }
  const TraceStats s = measure(out);
  CHECK(s.size_buckets[0] == s.requests);
  CHECK(s.mean_kib() == 4.0);
}

TEST_CASE("stand-in: re-references three distinct addresses back stay at stack distance 3", "[standin]") {
  // A, B, C, A, B, C, ...: after the first three (cold), every request has stack distance 3.
  std::vector<HostRequest> excerpt;
  for (std::uint64_t i = 0; i < 300; ++i) excerpt.push_back(request(i * 100, i % 2 == 0, (i % 3) * 1000, 8));
  const TraceModel model = learn(excerpt);
  REQUIRE(model.excerpt.reuse == 297);
  REQUIRE(model.excerpt.distance_p10 == 3);
  REQUIRE(model.excerpt.distance_p90 == 3);
  StandinWorkload standin(model, writes_spec(30000));
  const TraceStats s = measure(drain(standin));
  // The stand-in draws the two cold tuples (out of 299) about 0.7% of the time; everything else
  // is a re-reference at distance exactly 3.
  CHECK(s.sequential == 0);
  CHECK(s.reuse + s.cold == s.requests);
  CHECK(s.share(s.reuse) > 0.98);
  CHECK(s.distance_p10 == 3);
  CHECK(s.distance_p90 == 3);
  // No re-reference at any other distance: check the histogram's extremes through one more measure.
  ReferenceClassifier c;
  StandinWorkload again(model, writes_spec(30000));
  HostRequest r;
  std::uint64_t other = 0;
  while (again.next(r)) {
    const RequestFeatures f = c.observe(r);
    other += f.kind == AddressClass::Reuse && f.lag_or_distance != 3;
  }
  CHECK(other == 0);
}

TEST_CASE("stand-in: --reuse-by-op keeps writes rewriting written data", "[standin]") {
  // W(a), R(x1), W(a), R(x2), ...: every write rewrites the one written address (depth 2 among
  // all sectors, depth 1 among those last written); every read is a cold miss.
  std::vector<HostRequest> excerpt;
  for (std::uint64_t i = 0; i < 400; ++i)
    excerpt.push_back(request(i * 100, i % 2 == 0, i % 2 == 0 ? 0 : (i + 1) * 1000, 8));
  const TraceModel model = learn(excerpt);
  REQUIRE(model.excerpt.written_pages == 1);
  for (const RequestFeatures& t : model.tuples) {
    if (!t.write) continue;
    REQUIRE(t.kind == AddressClass::Reuse);
    REQUIRE(t.lag_or_distance == 2);
    REQUIRE(t.target_written);
    REQUIRE(t.op_depth == 1);
  }
  StandinSpec spec = writes_spec(5000);
  spec.reuse_by_op = true;
  StandinWorkload by_op(model, spec);
  const TraceStats s = measure(drain(by_op));
  // The first write lands on some sector (nothing was written yet); every later one rewrites it.
  CHECK(s.written_pages == 1);
  CHECK(s.writes == 5000);
  // The plain model takes whatever sector is at depth 2, mostly one only read before.
  StandinWorkload plain(model, writes_spec(5000));
  CHECK(measure(drain(plain)).written_pages > 2000);
}

TEST_CASE("stand-in: cold misses come from fresh regions, inside the range, never repeating a start", "[standin]") {
  // Only cold misses (distinct random 4 KiB-aligned starts in the first GiB).
  std::mt19937_64 rng(11);
  std::vector<HostRequest> excerpt;
  std::vector<std::uint64_t> used;
  while (excerpt.size() < 2000) {
    const std::uint64_t lba = (rng() % (1u << 18)) * 8;
    if (std::find(used.begin(), used.end(), lba) != used.end()) continue;
    used.push_back(lba);
    excerpt.push_back(request(excerpt.size() * 10, true, lba, 8 + 8 * (rng() % 2)));
  }
  const TraceModel model = learn(excerpt);
  REQUIRE(model.excerpt.cold + model.excerpt.sequential == 2000);
  REQUIRE(model.region_sectors == (1u << 30) / 512);

  SECTION("default range: one region per pass, every start new") {
    StandinSpec spec = writes_spec(7000);
    CHECK(default_range_bytes(model, spec) == 4ull << 30);  // ceil(7000 / 2000) = 4 regions
    StandinWorkload standin(model, spec);
    const TraceStats s = measure(drain(standin));
    CHECK(s.reuse == 0);
    CHECK(s.max_end_sector <= standin.range_bytes() / 512);
    CHECK(s.max_end_sector > 3 * model.region_sectors);  // the fourth region is in use
  }
  SECTION("a range of many regions: each cold miss is an excerpt's, with its size, shifted by whole regions") {
    StandinSpec spec = writes_spec(7000);
    spec.range_bytes = 64ull << 30;
    StandinWorkload standin(model, spec);
    const std::vector<HostRequest> out = drain(standin);
    std::set<std::pair<std::uint64_t, std::uint32_t>> pairs;
    for (const HostRequest& r : excerpt) pairs.insert({r.lba, r.sectors});
    ReferenceClassifier c;
    std::uint64_t cold = 0;
    for (const HostRequest& r : out) {
      if (c.observe(r).kind != AddressClass::Cold) continue;
      ++cold;
      INFO("lba " << r.lba << ", " << r.sectors << " sectors");
      REQUIRE(pairs.count({r.lba % model.region_sectors, r.sectors}) == 1);
    }
    CHECK(cold > 6900);
  }
  SECTION("a range of one region: later passes wrap, shifted, and still never repeat a start") {
    StandinSpec spec = writes_spec(7000);
    spec.range_bytes = 1ull << 30;
    StandinWorkload standin(model, spec);
    const TraceStats s = measure(drain(standin));
    CHECK(s.reuse == 0);
    CHECK(s.max_end_sector <= model.region_sectors);
  }
}

TEST_CASE("stand-in: the same seed gives the same stand-in, another seed another", "[standin]") {
  const TraceModel model = learn(mixed_excerpt(3000, 5));
  StandinSpec by_op = writes_spec(5000, 42);
  by_op.reuse_by_op = true;
  StandinWorkload a(model, writes_spec(5000, 42)), b(model, writes_spec(5000, 42)), c(model, writes_spec(5000, 43)),
      d(model, by_op), e(model, by_op);
  const auto same = [](const std::vector<HostRequest>& x, const std::vector<HostRequest>& y) {
    return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), [](const auto& p, const auto& q) {
             return p.arrival_ns == q.arrival_ns && p.is_write() == q.is_write() && p.lba == q.lba && p.sectors == q.sectors;
           });
  };
  const auto ra = drain(a), rb = drain(b), rc = drain(c), rd = drain(d), re = drain(e);
  CHECK(same(ra, rb));
  CHECK_FALSE(same(ra, rc));
  CHECK(same(rd, re));
  CHECK_FALSE(same(ra, rd));
}

TEST_CASE("stand-in: exactly W writes, or exactly N requests", "[standin]") {
  const TraceModel model = learn(mixed_excerpt(3000, 9));
  for (const std::uint64_t w : {1ull, 17ull, 12345ull}) {
    StandinWorkload s(model, writes_spec(w));
    const auto out = drain(s);
    CHECK(std::count_if(out.begin(), out.end(), [](const auto& r) { return r.is_write(); }) == std::int64_t(w));
    CHECK(out.back().is_write());  // it stops at the W-th write
    CHECK(s.stats().writes == w);
  }
  StandinSpec n;
  n.requests = 4321;
  StandinWorkload s(model, n);
  CHECK(drain(s).size() == 4321);
}

TEST_CASE("stand-in: a mixed excerpt's features come back", "[standin]") {
  const TraceModel model = learn(mixed_excerpt(20000, 1));
  const TraceStats& e = model.excerpt;
  StandinWorkload standin(model, writes_spec(100000));
  const TraceStats s = measure(drain(standin));
  CHECK(s.share(s.writes) == Approx(e.share(e.writes)).margin(0.01));
  for (int i = 0; i < TraceStats::kSizeBuckets; ++i)
    CHECK(s.share(s.size_buckets[i]) == Approx(e.share(e.size_buckets[i])).margin(0.01));
  CHECK(s.share(s.sequential) == Approx(e.share(e.sequential)).margin(0.01));
  CHECK(s.share(s.reuse) == Approx(e.share(e.reuse)).margin(0.01));
  CHECK(s.share(s.cold) == Approx(e.share(e.cold)).margin(0.01));
  CHECK(s.mean_gap_us() == Approx(e.mean_gap_us()).epsilon(0.02));
  // The stand-in's own statistics are the same as a fresh measure of its output.
  CHECK(standin.stats().reuse == s.reuse);
  CHECK(standin.stats().written_pages == s.written_pages);
}

TEST_CASE("stand-in: impossible requests are refused", "[standin]") {
  Requests empty({});
  CHECK_THROWS_AS(learn_trace_model(empty), WorkloadError);
  const TraceModel reads = learn({request(0, false, 0, 8), request(10, false, 64, 8)});
  CHECK_THROWS_WITH(StandinWorkload(reads, writes_spec(10)), Catch::Contains("no write request"));
  StandinSpec none;
  CHECK_THROWS_AS(StandinWorkload(reads, none), WorkloadError);
  StandinSpec odd;
  odd.requests = 10;
  odd.range_bytes = 4096 * 10 + 512;
  CHECK_THROWS_WITH(StandinWorkload(reads, odd), Catch::Contains("4 KiB"));
  // A write that is the excerpt's first request and its only one is kept as a tuple.
  const TraceModel first_write = learn({request(0, true, 0, 8), request(10, false, 64, 8), request(20, false, 128, 8)});
  StandinWorkload s(first_write, writes_spec(3));
  const auto out = drain(s);
  CHECK(std::count_if(out.begin(), out.end(), [](const auto& r) { return r.is_write(); }) == 3);
}

TEST_CASE("stand-in: the MSR CSV written is read back by the MSR reader, plain and gzip", "[standin]") {
  const TraceModel model = learn(mixed_excerpt(2000, 2));
  for (const std::string name : {"ssd_standin_test.csv", "ssd_standin_test.csv.gz"}) {
    INFO(name);
    const std::string path = (std::filesystem::temp_directory_path() / name).string();
    StandinWorkload standin(model, writes_spec(3000));
    const std::vector<HostRequest> written = drain(standin);
    {
      MsrWriter writer(path);
      for (const HostRequest& r : written) writer.write(r);
      writer.close();
      CHECK(writer.requests() == written.size());
    }
    const auto back = open_trace(path, "auto");
    const std::vector<HostRequest> read = drain(*back);
    REQUIRE(read.size() == written.size());
    for (std::size_t i = 0; i < read.size(); ++i) {
      INFO("request " << i);
      REQUIRE(read[i].is_write() == written[i].is_write());
      REQUIRE(read[i].lba == written[i].lba);
      REQUIRE(read[i].sectors == written[i].sectors);
      REQUIRE(read[i].arrival_ns == written[i].arrival_ns / 100 * 100);  // 100 ns ticks
    }
    std::filesystem::remove(path);
  }
}

TEST_CASE("stand-in: the bundled hm_0 excerpt through the MSR reader", "[standin]") {
  MsrTrace excerpt(ssd::test::bundled_trace("hm_0.csv"));
  const TraceModel model = learn_trace_model(excerpt);
  const TraceStats& e = model.excerpt;
  CHECK(e.requests == 7016);
  CHECK(e.requests == e.sequential + e.reuse + e.cold);
  StandinWorkload standin(model, writes_spec(20000));
  const TraceStats s = measure(drain(standin));
  CHECK(s.writes == 20000);
  CHECK(s.share(s.writes) == Approx(e.share(e.writes)).margin(0.01));
  CHECK(s.share(s.sequential) == Approx(e.share(e.sequential)).margin(0.015));
  CHECK(s.share(s.reuse) == Approx(e.share(e.reuse)).margin(0.015));
  CHECK(s.share(s.cold) == Approx(e.share(e.cold)).margin(0.015));
}
