#include "stimuli/trace_model.h"

#include <cmath>

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <utility>

#include "common/host_addressing.h"

namespace ssd::stimuli {

namespace {

constexpr std::uint64_t kPageSectors = 8;  // 4 KiB pages: the unit of the size mix and the footprint

std::uint64_t lowbit(std::uint64_t i) { return i & (0 - i); }

int size_bucket(std::uint32_t sectors) {
  const std::uint64_t pages = (std::uint64_t{sectors} + kPageSectors - 1) / kPageSectors;
  return pages <= 1 ? 0 : pages == 2 ? 1 : pages <= 8 ? 2 : pages <= 32 ? 3 : 4;
}

}  // namespace

// ---- LruStack --------------------------------------------------------------------------------

std::size_t LruStack::Slots::probe(std::uint64_t address) const {
  // Fibonacci hashing: neighbouring sectors spread over the table.
  const std::size_t mask = keys.size() - 1;
  std::size_t i = std::size_t((address * 0x9E3779B97F4A7C15ull) >> 20) & mask;
  while (keys[i] != 0 && keys[i] != address + 1) i = (i + 1) & mask;
  return i;
}

std::uint64_t LruStack::Slots::get(std::uint64_t address) const {
  if (keys.empty()) return 0;
  const std::size_t i = probe(address);
  return keys[i] == 0 ? 0 : slots[i];
}

void LruStack::Slots::put(std::uint64_t address, std::uint64_t slot) {
  if ((used + 1) * 10 > keys.size() * 7) grow();
  const std::size_t i = probe(address);
  if (keys[i] == 0) {
    keys[i] = address + 1;
    ++used;
  }
  if (slot > std::numeric_limits<std::uint32_t>::max()) throw WorkloadError("stand-in: more than 2^32 references");
  slots[i] = static_cast<std::uint32_t>(slot);
}

void LruStack::Slots::grow() {
  std::vector<std::uint64_t> old_keys = std::move(keys);
  std::vector<std::uint32_t> old_slots = std::move(slots);
  const std::size_t capacity = std::max<std::size_t>(1024, old_keys.size() * 2);
  keys.assign(capacity, 0);
  slots.assign(capacity, 0);
  for (std::size_t i = 0; i < old_keys.size(); ++i) {
    if (old_keys[i] == 0) continue;
    const std::size_t j = probe(old_keys[i] - 1);
    keys[j] = old_keys[i];
    slots[j] = old_slots[i];
  }
}

std::uint64_t LruStack::prefix(std::uint64_t slot) const {
  std::uint64_t sum = 0;
  for (std::uint64_t i = slot; i > 0; i -= lowbit(i)) sum += tree_[i];
  return sum;
}

void LruStack::add(std::uint64_t slot, std::int32_t delta) {
  for (std::uint64_t i = slot; i < tree_.size(); i += lowbit(i))
    tree_[i] = static_cast<std::uint32_t>(std::int64_t{tree_[i]} + delta);
}

void LruStack::append(std::int32_t mark) {
  // Node i of a Fenwick tree sums the slots (i - lowbit(i), i]: the new node's is its own mark
  // plus the slots before it in that range, which the existing nodes already hold.
  const std::uint64_t i = tree_.size();
  const std::uint64_t before = prefix(i - 1) - prefix(i - lowbit(i));
  tree_.push_back(static_cast<std::uint32_t>(before + static_cast<std::uint64_t>(mark)));
}

std::uint64_t LruStack::find(std::uint64_t k) const {
  std::uint64_t pos = 0, step = 1;
  while (step * 2 < tree_.size()) step *= 2;
  for (; step > 0; step /= 2) {
    if (pos + step < tree_.size() && tree_[pos + step] < k) {
      pos += step;
      k -= tree_[pos];
    }
  }
  return pos + 1;
}

std::uint64_t LruStack::depth(std::uint64_t address) const {
  const std::uint64_t slot = latest_.get(address);
  return slot == 0 ? 0 : distinct_ - prefix(slot) + 1;
}

std::uint64_t LruStack::at_depth(std::uint64_t d) const { return address_of_[find(distinct_ - d + 1)]; }

void LruStack::touch(std::uint64_t address) {
  const std::uint64_t previous = latest_.get(address);
  if (previous != 0) {
    add(previous, -1);
  } else {
    ++distinct_;
  }
  append(1);
  address_of_.push_back(address);
  latest_.put(address, tree_.size() - 1);
}

void LruStack::remove(std::uint64_t address) {
  const std::uint64_t slot = latest_.get(address);
  if (slot == 0) return;
  add(slot, -1);
  --distinct_;
  latest_.put(address, 0);
}

// ---- ReferenceClassifier -----------------------------------------------------------------------

RequestFeatures ReferenceClassifier::observe(const HostRequest& r) {
  RequestFeatures f;
  f.write = r.is_write();
  f.sectors = r.sectors;
  f.start = r.lba;
  f.gap_ns = seen_ == 0 || r.arrival_ns < last_arrival_ns_ ? 0 : r.arrival_ns - last_arrival_ns_;
  if (const std::uint32_t j = continues(r.lba)) {
    f.kind = AddressClass::Sequential;
    f.lag_or_distance = j;
  } else {
    const std::uint64_t d = stack_.depth(r.lba);
    f.kind = d ? AddressClass::Reuse : AddressClass::Cold;
    f.lag_or_distance = d;
  }
  if (by_op_) {
    if (f.kind == AddressClass::Reuse) {
      const std::uint64_t written_depth = op_stacks_[1].depth(r.lba);
      f.target_written = written_depth != 0;
      f.op_depth = f.target_written ? written_depth : op_stacks_[0].depth(r.lba);
    }
    op_stacks_[!r.is_write()].remove(r.lba);
    op_stacks_[r.is_write()].touch(r.lba);
  }
  stack_.touch(r.lba);
  ends_[seen_ % kSequentialLags] = r.lba + r.sectors;
  ++seen_;
  last_arrival_ns_ = std::max(last_arrival_ns_, r.arrival_ns);
  return f;
}

std::uint32_t ReferenceClassifier::continues(std::uint64_t sector) const {
  const std::uint32_t lags = static_cast<std::uint32_t>(std::min<std::uint64_t>(seen_, kSequentialLags));
  for (std::uint32_t j = 1; j <= lags; ++j)
    if (end_back(j) == sector) return j;
  return 0;
}

// ---- TraceStats ----------------------------------------------------------------------------------

const char* TraceStats::size_bucket_name(int i) {
  static const char* const names[kSizeBuckets] = {"1", "2", "3-8", "9-32", ">32"};
  return names[i];
}

void StatsCollector::add(const HostRequest& r, const RequestFeatures& f) {
  TraceStats& s = stats_;
  if (s.requests == 0) first_arrival_ns_ = r.arrival_ns;
  ++s.requests;
  s.writes += r.is_write();
  ++s.size_buckets[size_bucket(r.sectors)];
  s.sectors += r.sectors;
  switch (f.kind) {
    case AddressClass::Sequential: ++s.sequential; break;
    case AddressClass::Reuse:
      ++s.reuse;
      if (distances_.size() <= f.lag_or_distance) distances_.resize(f.lag_or_distance + 1, 0);
      ++distances_[f.lag_or_distance];
      break;
    case AddressClass::Cold: ++s.cold; break;
  }
  s.duration_ns = std::max(s.duration_ns, r.arrival_ns - std::min(r.arrival_ns, first_arrival_ns_));
  s.max_end_sector = std::max(s.max_end_sector, r.lba + r.sectors);
  if (!r.is_write()) return;

  // The written pages as disjoint, non-adjacent runs: merge [first, end) in, counting only the
  // pages no run held.
  std::uint64_t first = r.lba / kPageSectors, end = (r.lba + r.sectors + kPageSectors - 1) / kPageSectors;
  const std::uint64_t first0 = first, end0 = end;
  std::uint64_t added = end - first;
  auto it = written_.upper_bound(first);
  if (it != written_.begin()) {
    const auto before = std::prev(it);
    if (before->second >= first0) {
      if (before->second >= end0) return;
      added -= before->second - first0;
      first = before->first;
      written_.erase(before);
    }
  }
  while (it != written_.end() && it->first <= end0) {
    added -= std::min(it->second, end0) - it->first;
    end = std::max(end, it->second);
    it = written_.erase(it);
  }
  written_.emplace(first, end);
  s.written_pages += added;
}

TraceStats StatsCollector::result() const {
  TraceStats s = stats_;
  // Nearest rank: the smallest distance that at least q of the reuse requests do not exceed.
  const auto quantile = [&](std::uint64_t percent) -> std::uint64_t {
    if (s.reuse == 0) return 0;
    const std::uint64_t rank = std::max<std::uint64_t>(1, (s.reuse * percent + 99) / 100);
    std::uint64_t cumulative = 0;
    for (std::uint64_t d = 0; d < distances_.size(); ++d) {
      cumulative += distances_[d];
      if (cumulative >= rank) return d;
    }
    return distances_.size() - 1;
  };
  s.distance_p10 = quantile(10);
  s.distance_p50 = quantile(50);
  s.distance_p90 = quantile(90);
  return s;
}

// ---- Learning ----------------------------------------------------------------------------------

TraceModel learn_trace_model(Workload& excerpt) {
  TraceModel m;
  ReferenceClassifier classifier(true);
  StatsCollector stats;
  RequestFeatures first;
  HostRequest r;
  while (excerpt.next(r)) {
    if (r.is_flush() || r.is_trim()) continue;  // no data: the model reproduces the data requests (trace_model.h)
    const RequestFeatures f = classifier.observe(r);
    stats.add(r, f);
    if (classifier.seen() == 1) {
      first = f;
      m.first_start = r.lba;
    } else {
      m.tuples.push_back(f);
    }
    m.largest_request = std::max(m.largest_request, r.sectors);
  }
  if (classifier.seen() == 0) throw WorkloadError(excerpt.describe() + ": the excerpt holds no request");
  m.excerpt = stats.result();
  // The first request's tuple only when the excerpt has nothing else of its kind.
  const bool other_write = std::any_of(m.tuples.begin(), m.tuples.end(), [](const auto& t) { return t.write; });
  if (m.tuples.empty() || (first.write && !other_write)) m.tuples.push_back(first);
  const std::uint64_t span_bytes = m.excerpt.max_end_sector * kSectorBytes;
  m.region_sectors = std::max<std::uint64_t>(1, (span_bytes + kRegionAlignBytes - 1) / kRegionAlignBytes) *
                     (kRegionAlignBytes / kSectorBytes);
  return m;
}

// ---- Generation --------------------------------------------------------------------------------

std::uint64_t passes_needed(const TraceModel& model, const StandinSpec& spec) {
  const TraceStats& e = model.excerpt;
  const std::uint64_t passes = spec.writes > 0 ? (e.writes ? (spec.writes + e.writes - 1) / e.writes : 1)
                                               : (spec.requests + e.requests - 1) / std::max<std::uint64_t>(1, e.requests);
  return std::max<std::uint64_t>(1, passes);
}

std::uint64_t default_range_bytes(const TraceModel& model, const StandinSpec& spec) {
  const std::uint64_t region = model.region_sectors * kSectorBytes;
  const std::uint64_t most = std::max<std::uint64_t>(1, kMaxDefaultRangeBytes / region);
  return std::min(passes_needed(model, spec), most) * region;
}

StandinWorkload::StandinWorkload(TraceModel model, const StandinSpec& spec)
    : model_(std::move(model)), spec_(spec), rng_(spec.seed), classifier_(spec.reuse_by_op) {
  if (spec_.writes == 0 && spec_.requests == 0)
    throw WorkloadError("stand-in: ask for a number of writes or of requests (> 0)");
  if (model_.tuples.empty()) throw WorkloadError("stand-in: the model is empty");
  if (spec_.writes > 0 && std::none_of(model_.tuples.begin(), model_.tuples.end(), [](const auto& t) { return t.write; }))
    throw WorkloadError("stand-in: the excerpt has no write request, so no number of writes can be reached");
  if (spec_.range_bytes == 0) spec_.range_bytes = default_range_bytes(model_, spec_);
  if (spec_.range_bytes % 4096 != 0)
    throw WorkloadError(fmt::format("stand-in: the range ({} bytes) is not a multiple of 4 KiB", spec_.range_bytes));
  range_sectors_ = spec_.range_bytes / kSectorBytes;
  for (std::size_t i = 0; i < model_.tuples.size(); ++i) {
    if (model_.tuples[i].kind == AddressClass::Reuse) reuse_tuples_.push_back(i);
    if (model_.tuples[i].kind == AddressClass::Cold) cold_tuples_.push_back(i);
  }
  cold_draws_.assign(model_.tuples.size() + 1, 0);
  lap_pages_ = std::max<std::uint64_t>(1, std::min(model_.region_sectors, range_sectors_) / kPageSectors);
  lap_shift_pages_ = static_cast<std::uint64_t>(double(lap_pages_) * kLapShift);
  if (range_sectors_ < model_.largest_request)
    throw WorkloadError(fmt::format("stand-in: the range ({} bytes) is smaller than the excerpt's largest request "
                                    "({} bytes)",
                                    spec_.range_bytes, std::uint64_t{model_.largest_request} * kSectorBytes));
}

std::string StandinWorkload::describe() const {
  return fmt::format("stand-in: {} {}, range {} bytes, seed {}", spec_.writes ? spec_.writes : spec_.requests,
                     spec_.writes ? "writes" : "requests", spec_.range_bytes, spec_.seed);
}

double StandinWorkload::fraction_done() const {
  return spec_.writes ? double(written_) / double(spec_.writes) : double(generated_) / double(spec_.requests);
}

std::uint64_t StandinWorkload::uniform_below(std::uint64_t n) {
  // Rejection sampling on the raw 64-bit output (as stimuli/synthetic_workload.cpp): exactly
  // uniform, and the same sequence for a seed on every standard library.
  const std::uint64_t threshold = (0 - n) % n;
  for (;;) {
    const std::uint64_t x = rng_();
    if (x >= threshold) return x % n;
  }
}

std::uint64_t StandinWorkload::fold(unsigned __int128 start, std::uint32_t sectors) const {
  const unsigned __int128 range = range_sectors_;
  if (start >= range) {
    const unsigned __int128 lap = start / range;
    const unsigned __int128 shift_pages = (lap % lap_pages_) * lap_shift_pages_ % lap_pages_;
    start = (start % range + shift_pages * kPageSectors) % range;
  }
  auto s = static_cast<std::uint64_t>(start);
  // Kept inside the range, on a 4 KiB boundary when the range allows.
  if (s + sectors > range_sectors_) s = (range_sectors_ - sectors) / kPageSectors * kPageSectors;
  return s;
}

std::uint64_t StandinWorkload::next_cold(std::size_t tuple) {
  // The source: the tuple itself when cold, else a random cold tuple, else the first request.
  std::size_t source = tuple;
  if (model_.tuples[tuple].kind != AddressClass::Cold)
    source = cold_tuples_.empty() ? model_.tuples.size() : cold_tuples_[uniform_below(cold_tuples_.size())];
  const std::uint64_t base = source < model_.tuples.size() ? model_.tuples[source].start : model_.first_start;
  const std::uint32_t sectors = model_.tuples[tuple].sectors;
  std::uint64_t s = 0;
  // A sector the stream already used would be a reuse, not a cold miss, and one a recent
  // request ended at a sequential request: take the source's next region. Only a range too
  // small for the stream's footprint runs out of them; the tries are bounded so that such a
  // range costs time in proportion to the requests.
  for (std::size_t tries = 0; tries < kColdTries; ++tries) {
    const std::uint64_t region = cold_draws_[source]++;
    s = fold(base + static_cast<unsigned __int128>(region) * model_.region_sectors, sectors);
    if (classifier_.stack().depth(s) == 0 && classifier_.continues(s) == 0) break;
  }
  return s;
}

bool StandinWorkload::next(HostRequest& r) {
  if (spec_.writes ? written_ == spec_.writes : generated_ == spec_.requests) return false;
  const RequestFeatures* t = nullptr;
  std::uint64_t start = 0;
  for (int draw = 0; draw < kRedraws; ++draw) {
    const std::size_t i = draw == 0 ? uniform_below(model_.tuples.size()) : reuse_tuples_[uniform_below(reuse_tuples_.size())];
    t = &model_.tuples[i];
    if (t->kind == AddressClass::Sequential && t->lag_or_distance <= classifier_.seen()) {
      start = fold(classifier_.end_back(static_cast<std::uint32_t>(t->lag_or_distance)), t->sectors);
      break;
    }
    if (spec_.reuse_by_op && t->kind == AddressClass::Reuse &&
        t->op_depth <= classifier_.op_stack(t->target_written).size()) {
      start = fold(classifier_.op_stack(t->target_written).at_depth(t->op_depth), t->sectors);
      if (classifier_.continues(start) == 0) break;
      continue;
    }
    if (t->kind == AddressClass::Reuse && t->lag_or_distance <= classifier_.stack().size()) {
      start = fold(classifier_.stack().at_depth(t->lag_or_distance), t->sectors);
      if (classifier_.continues(start) == 0) break;  // else it would be sequential: draw again
      continue;
    }
    start = next_cold(i);
    break;
  }
  if (generated_ > 0)
    clock_ns_ += spec_.time_scale == 1.0 ? t->gap_ns
                                         : static_cast<std::uint64_t>(std::llround(double(t->gap_ns) * spec_.time_scale));
  r = HostRequest{};
  r.arrival_ns = clock_ns_;
  r.op = HostRequest::read_or_write(t->write);
  r.lba = start;
  r.sectors = t->sectors;
  stats_.add(r, classifier_.observe(r));
  ++generated_;
  written_ += t->write;
  return true;
}

}  // namespace ssd::stimuli
