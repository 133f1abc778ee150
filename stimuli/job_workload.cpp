#include "stimuli/job_workload.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "common/generalized_harmonic.h"

namespace ssd::stimuli {

namespace {
constexpr std::uint64_t kSector = 512;

double uniform01(std::mt19937_64& rng) { return double(rng() >> 11) * (1.0 / 9007199254740992.0); }
// How an error names job `index` (from 0).
std::string job_where(const JobSpec& s, std::size_t index) {
  return "job '" + s.name + "' (#" + std::to_string(index + 1) + "): ";
}
}  // namespace

struct JobWorkload::Job {
  JobSpec spec;
  std::mt19937_64 rng;
  std::uint64_t issued = 0, slots = 0, next_sequential = 0;
  std::uint32_t outstanding = 0;  // per-job queue depths: requests issued and not completed
  std::uint64_t writes_since_flush = 0;
  bool flush_due = false;         // flush_every writes were issued: a flush goes next
  double last_arrival_ns = 0, next_flush_ns = 0;  // next_flush_ns: flush_interval_s's next
  std::uint32_t align = 0, largest = 0;
  double next_arrival_ns = 0, total_weight = 0;
  // Zipf (Gray et al.'s rejection-free generator, as YCSB uses): precomputed constants.
  double zeta_n = 0, alpha = 0, eta = 0, zeta2 = 0;
  std::uint64_t scatter = 1;  // multiplier coprime with slots: rank -> slot permutation

  std::uint64_t pick_slot() {
    switch (spec.skew) {
      case JobSpec::Skew::Uniform:
        return rng() % slots;
      case JobSpec::Skew::HotCold: {
        const std::uint64_t hot = std::max<std::uint64_t>(1, std::uint64_t(double(slots) * spec.hot_share));
        if (uniform01(rng) < spec.hot_access || hot == slots) return rng() % hot;
        return hot + rng() % (slots - hot);
      }
      case JobSpec::Skew::Zipf: {
        const double u = uniform01(rng), uz = u * zeta_n;
        std::uint64_t rank;
        if (uz < 1.0)
          rank = 0;
        else if (uz < 1.0 + std::pow(0.5, spec.zipf_theta))
          rank = 1;
        else
          rank = std::min<std::uint64_t>(slots - 1, std::uint64_t(double(slots) * std::pow(eta * u - eta + 1, alpha)));
        return (rank * scatter) % slots;  // the hottest ranks spread over the range
      }
    }
    return 0;
  }

  std::uint32_t pick_size() {
    if (spec.sizes.size() == 1) return spec.sizes[0].first;
    double x = uniform01(rng) * total_weight;
    for (const auto& [bytes, weight] : spec.sizes) {
      if (x < weight) return bytes;
      x -= weight;
    }
    return spec.sizes.back().first;
  }
};

JobWorkload::JobWorkload(std::vector<JobSpec> specs, std::uint64_t capacity_bytes) {
  if (specs.empty()) throw WorkloadError("a job file needs at least one job");
  std::size_t with_rate = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const JobSpec& s = specs[i];
    const std::string where = job_where(s, i);
    auto bad = [&where](const std::string& what) { throw WorkloadError(where + what); };
    if (s.sizes.empty()) bad("block_size needs at least one size");
    std::uint32_t smallest = std::numeric_limits<std::uint32_t>::max(), largest = 0;
    double total = 0;
    for (const auto& [bytes, weight] : s.sizes) {
      if (bytes == 0 || bytes % kSector) bad("block sizes must be positive multiples of 512, got " + std::to_string(bytes));
      if (!(weight > 0)) bad("block size weights must be positive");
      smallest = std::min(smallest, bytes);
      largest = std::max(largest, bytes);
      total += weight;
    }
    if (s.count == 0) bad("count must be at least 1");
    if (s.read_fraction < 0 || s.read_fraction > 1) bad("read_fraction must be in [0, 1]");
    if (s.rate_iops < 0) bad("rate_iops must not be negative");
    if (s.weight == 0) bad("weight must be at least 1");
    if (s.iodepth > 0 && s.rate_iops > 0) bad("iodepth applies to closed-loop jobs (this one has a rate_iops)");
    if (!(s.fua_share >= 0 && s.fua_share <= 1)) bad("fua_share must be in [0, 1]");
    if (!(s.trim_share >= 0 && s.trim_share <= 1)) bad("trim_share must be in [0, 1]");
    if (!(s.flush_interval_s >= 0)) bad("flush_interval must not be negative");
    if (s.flush_interval_s > 0 && s.rate_iops == 0)
      bad("flush_interval needs an open-loop job (a rate_iops): a closed loop has no trace time; use flush_every");
    if ((s.iodepth > 0) != (specs[0].iodepth > 0))
      bad("either every job has an iodepth (each its own queue depth) or none does (they share the host's)");
    if (s.range_start_bytes % kSector) bad("range_start must be a multiple of 512");
    const std::uint64_t range = s.range_bytes ? s.range_bytes : capacity_bytes - std::min(capacity_bytes, s.range_start_bytes);
    if (s.range_start_bytes + range > capacity_bytes || range < largest)
      bad("the range [" + std::to_string(s.range_start_bytes) + ", +" + std::to_string(range) +
          ") B does not hold its largest request inside the drive's " + std::to_string(capacity_bytes) + " B");
    const std::uint32_t align = s.align_bytes ? s.align_bytes : smallest;
    if (align % kSector) bad("align must be a multiple of 512");
    if (s.skew == JobSpec::Skew::Zipf && !(s.zipf_theta > 0 && s.zipf_theta < 1)) bad("zipf theta must be in (0, 1)");
    if (s.skew == JobSpec::Skew::HotCold && !(s.hot_share > 0 && s.hot_share < 1 && s.hot_access >= 0 && s.hot_access <= 1))
      bad("hotcold needs a hot share in (0, 1) and a hot access share in [0, 1]");
    with_rate += s.rate_iops > 0;

    auto job = std::make_unique<Job>(Job{s, std::mt19937_64(s.seed)});
    job->spec.range_bytes = range;
    job->align = align;
    job->largest = largest;
    job->total_weight = total;
    job->next_flush_ns = s.flush_interval_s > 0 ? s.flush_interval_s * 1e9 : std::numeric_limits<double>::infinity();
    job->slots = (range - largest) / align + 1;
    if (s.skew == JobSpec::Skew::Zipf) {
      const double theta = s.zipf_theta;
      job->zeta_n = generalized_harmonic(job->slots, theta);
      job->zeta2 = 1.0 + std::pow(0.5, theta);
      job->alpha = 1.0 / (1.0 - theta);
      job->eta = (1.0 - std::pow(2.0 / double(job->slots), 1.0 - theta)) / (1.0 - job->zeta2 / job->zeta_n);
      std::uint64_t m = 2654435761ull % job->slots;  // a multiplier coprime with the slot count
      if (m == 0) m = 1;
      while (std::gcd(m, job->slots) != 1) ++m;
      job->scatter = m;
    }
    jobs_.push_back(std::move(job));
  }
  if (with_rate != 0 && with_rate != jobs_.size())
    throw WorkloadError("either every job has a rate_iops (open loop) or none does (closed loop)");
  open_loop_ = with_rate != 0;
  plan_queues();
}

void JobWorkload::plan_queues() {
  std::size_t named = 0;
  for (const auto& j : jobs_) named += j->spec.queue.has_value();
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    const JobSpec& s = jobs_[i]->spec;
    const std::string where = job_where(s, i);
    if (named != 0 && !s.queue) throw WorkloadError(where + "either every job names its queue or none does");
    if (s.priority && !s.queue) throw WorkloadError(where + "priority is its queue's class: name the queue (queue: N)");
    if (s.queue && !open_loop_ && s.iodepth == 0)
      throw WorkloadError(where + "closed-loop jobs on queues need an iodepth each (the requests each keeps outstanding)");
  }
  if (named == 0) return;
  std::uint32_t highest = 0;
  for (const auto& j : jobs_) highest = std::max(highest, *j->spec.queue);
  if (highest >= jobs_.size())
    throw WorkloadError("queue " + std::to_string(highest) + " is named, but " + std::to_string(jobs_.size()) +
                        " jobs fill at most queues 0 to " + std::to_string(jobs_.size() - 1) + " (number them from 0)");
  queues_.assign(highest + 1, IoQueueSpec{});
  std::vector<bool> used(highest + 1, false), classed(highest + 1, false);
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    const JobSpec& s = jobs_[i]->spec;
    IoQueueSpec& q = queues_[*s.queue];
    q.depth += s.iodepth;  // open loop: 0, the host's queue depth
    if (s.priority) {
      if (classed[*s.queue] && q.priority != *s.priority)
        throw WorkloadError(job_where(s, i) + "queue " + std::to_string(*s.queue) +
                            " is " + to_string(q.priority) + " for an earlier job, " + to_string(*s.priority) + " here");
      q.priority = *s.priority;
      classed[*s.queue] = true;
    }
    used[*s.queue] = true;
  }
  for (std::uint32_t q = 0; q <= highest; ++q)
    if (!used[q]) throw WorkloadError("queue " + std::to_string(q) + " has no job (number the queues from 0 without gaps)");
}

JobWorkload::~JobWorkload() = default;

void JobWorkload::keep_only_queue(std::uint32_t queue) {
  const std::size_t queues = std::max<std::size_t>(1, queues_.size());
  if (queue >= queues)
    throw WorkloadError("--only-queue " + std::to_string(queue) + ": the jobs have " + std::to_string(queues) +
                        " queue" + (queues == 1 ? "" : "s"));
  for (auto& j : jobs_)
    if (j->spec.queue.value_or(0) != queue) {
      j->issued = j->spec.count;
      j->next_flush_ns = std::numeric_limits<double>::infinity();
    }
}

void JobWorkload::flush(Job& job, std::size_t index, std::uint64_t at_ns, HostRequest& r) {
  r = HostRequest{};
  r.op = HostOp::Flush;
  r.arrival_ns = at_ns;
  r.issuer = static_cast<std::uint32_t>(index);
  r.queue = job.spec.queue.value_or(0);
  job.flush_due = false;
  job.writes_since_flush = 0;
  ++job.outstanding;
}

bool JobWorkload::next(HostRequest& r) {
  // A flush a job owes after its flush_every-th write goes before anything else it issues.
  for (std::size_t i = 0; i < jobs_.size(); ++i)
    if (jobs_[i]->flush_due && (open_loop_ || has_room(*jobs_[i]))) {
      flush(*jobs_[i], i, static_cast<std::uint64_t>(jobs_[i]->last_arrival_ns), r);
      return true;
    }
  Job* job = nullptr;
  std::size_t index = 0;
  if (open_loop_) {  // the earliest next arrival (or timed flush)
    auto next_event = [](const Job& j) { return std::min(j.next_arrival_ns, j.next_flush_ns); };
    for (std::size_t i = 0; i < jobs_.size(); ++i)
      if (jobs_[i]->issued < jobs_[i]->spec.count && (!job || next_event(*jobs_[i]) < next_event(*job))) {
        job = jobs_[i].get();
        index = i;
      }
    if (job && job->next_flush_ns < job->next_arrival_ns) {
      const double at = job->next_flush_ns;
      job->next_flush_ns += job->spec.flush_interval_s * 1e9;
      flush(*job, index, static_cast<std::uint64_t>(at), r);
      return true;
    }
  } else {  // weighted round robin over the jobs with requests left (and room, with iodepths)
    if (!ready()) throw std::logic_error("job workload: next() while every job with requests left is at its iodepth");
    for (std::size_t tries = 0; tries <= jobs_.size() && !job; ++tries) {
      Job* candidate = jobs_[turn_].get();
      if (candidate->issued < candidate->spec.count && issued_in_turn_ < candidate->spec.weight &&
          has_room(*candidate)) {
        job = candidate;
        index = turn_;
        ++issued_in_turn_;
      } else {
        turn_ = (turn_ + 1) % jobs_.size();
        issued_in_turn_ = 0;
      }
    }
  }
  if (!job) return false;
  const JobSpec& s = job->spec;
  const std::uint32_t size = job->pick_size();
  std::uint64_t offset;
  if (s.pattern == JobSpec::Pattern::Sequential) {
    if (job->next_sequential + size > s.range_bytes) job->next_sequential = 0;
    offset = job->next_sequential;
    job->next_sequential += size;
  } else {
    offset = job->pick_slot() * job->align;
    offset = std::min<std::uint64_t>(offset, s.range_bytes - size);
  }
  r.arrival_ns = static_cast<std::uint64_t>(job->next_arrival_ns);
  if (open_loop_)
    job->next_arrival_ns += s.poisson ? -std::log(1.0 - uniform01(job->rng)) * 1e9 / s.rate_iops : 1e9 / s.rate_iops;
  r.op = HostRequest::read_or_write(!(uniform01(job->rng) < s.read_fraction));
  r.fua = r.is_write() && s.fua_share > 0 && uniform01(job->rng) < s.fua_share;
  if (s.trim_share > 0 && uniform01(job->rng) < s.trim_share) {
    r.op = HostOp::Trim;
    r.fua = false;
  }
  r.lba = (s.range_start_bytes + offset) / kSector;
  r.sectors = size / kSector;
  r.issuer = static_cast<std::uint32_t>(index);
  r.queue = s.queue.value_or(0);
  ++job->issued;
  ++job->outstanding;
  job->last_arrival_ns = double(r.arrival_ns);
  if (r.is_write() && s.flush_every > 0 && ++job->writes_since_flush == s.flush_every) job->flush_due = true;
  return true;
}

bool JobWorkload::has_room(const Job& job) { return job.spec.iodepth == 0 || job.outstanding < job.spec.iodepth; }

std::vector<std::uint32_t> JobWorkload::stream_depths() const {
  if (open_loop_ || jobs_.front()->spec.iodepth == 0) return {};
  std::vector<std::uint32_t> depths;
  for (const auto& j : jobs_) depths.push_back(j->spec.iodepth);
  return depths;
}

double JobWorkload::fraction_done() const {
  std::uint64_t issued = 0, total = 0;
  for (const auto& j : jobs_) issued += j->issued, total += j->spec.count;
  return double(issued) / double(total);
}

bool JobWorkload::ready() const {
  if (open_loop_) return true;
  bool left = false;
  for (const auto& j : jobs_) {
    if (j->issued == j->spec.count && !j->flush_due) continue;
    left = true;
    if (has_room(*j)) return true;
  }
  return !left;  // nothing left: next() may say so
}

void JobWorkload::completed(std::uint32_t issuer) {
  if (issuer < jobs_.size() && jobs_[issuer]->outstanding > 0) --jobs_[issuer]->outstanding;
}

std::string JobWorkload::describe() const {
  std::string s = "jobs:";
  for (const auto& j : jobs_) s += " " + j->spec.name + " (" + std::to_string(j->spec.count) + ")";
  return s + (open_loop_ ? ", open loop" : ", closed loop");
}

}  // namespace ssd::stimuli
