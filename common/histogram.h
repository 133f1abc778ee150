// Log-linear latency histogram with bounded relative error (HdrHistogram-style): values below
// 256 are exact; above, each power of two is split into 128 buckets, so any reported percentile
// is within 0.4% of the true sample. Count, sum (mean), min and max are exact.
#pragma once

#include <cstdint>
#include <vector>

namespace ssd {

class LatencyHistogram {
 public:
  void record(std::uint64_t v) {
    std::size_t i = index_of(v);
    if (i >= buckets_.size()) buckets_.resize(i + 1, 0);
    ++buckets_[i];
    ++count_;
    sum_ += static_cast<long double>(v);
    if (count_ == 1 || v < min_) min_ = v;
    if (v > max_) max_ = v;
  }
  std::uint64_t count() const { return count_; }
  std::uint64_t min() const { return count_ ? min_ : 0; }
  std::uint64_t max() const { return max_; }
  double mean() const { return count_ ? static_cast<double>(sum_ / count_) : 0.0; }

  // Smallest recorded value v such that at least q (0..1] of the samples are <= v, reported as
  // the midpoint of v's bucket (clamped to [min, max]).
  std::uint64_t percentile(double q) const {
    if (count_ == 0) return 0;
    std::uint64_t rank = static_cast<std::uint64_t>(q * static_cast<double>(count_) + 0.5);
    if (rank < 1) rank = 1;
    if (rank > count_) rank = count_;
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < buckets_.size(); ++i) {
      seen += buckets_[i];
      if (seen >= rank) {
        std::uint64_t v = midpoint_of(i);
        return v < min_ ? min_ : (v > max_ ? max_ : v);
      }
    }
    return max_;
  }

  // How many samples were exactly v; only values below 256, which have a bucket of their own.
  std::uint64_t exact_count(std::uint64_t v) const {
    return v < kExact && v < buckets_.size() ? buckets_[static_cast<std::size_t>(v)] : 0;
  }

  void merge(const LatencyHistogram& o) {
    if (o.buckets_.size() > buckets_.size()) buckets_.resize(o.buckets_.size(), 0);
    for (std::size_t i = 0; i < o.buckets_.size(); ++i) buckets_[i] += o.buckets_[i];
    if (o.count_ && (count_ == 0 || o.min_ < min_)) min_ = o.min_;
    if (o.max_ > max_) max_ = o.max_;
    count_ += o.count_;
    sum_ += o.sum_;
  }

 private:
  static constexpr unsigned kSubBits = 8;
  static constexpr std::uint64_t kExact = 1u << kSubBits;  // 256
  static constexpr std::uint64_t kHalf = kExact / 2;       // 128

  static unsigned msb(std::uint64_t v) { return 63u - static_cast<unsigned>(__builtin_clzll(v)); }
  static std::size_t index_of(std::uint64_t v) {
    if (v < kExact) return static_cast<std::size_t>(v);
    unsigned shift = msb(v) - (kSubBits - 1);  // v >> shift lies in [128, 255]
    return static_cast<std::size_t>(kExact + (shift - 1) * kHalf + ((v >> shift) - kHalf));
  }
  static std::uint64_t midpoint_of(std::size_t i) {
    if (i < kExact) return i;
    std::size_t k = i - kExact;
    unsigned shift = static_cast<unsigned>(k / kHalf) + 1;
    std::uint64_t low = (kHalf + k % kHalf) << shift;
    return low + (std::uint64_t(1) << shift) / 2;
  }

  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0, min_ = 0, max_ = 0;
  long double sum_ = 0;
};

}  // namespace ssd
