#include "stimuli/split_requests.h"

#include <algorithm>

namespace ssd::stimuli {

bool SplitRequests::next(HostRequest& r) {
  if (left_ == 0) {
    if (!inner().next(r)) return false;
    if (r.sectors <= max_sectors_ || r.is_trim()) return true;  // one command (a trim moves no data)
    ++split_requests_;
    rest_ = r;
    left_ = r.sectors;
    extra_[r.issuer] += (r.sectors + max_sectors_ - 1) / max_sectors_ - 1;
  }
  r = rest_;
  r.sectors = std::min(left_, max_sectors_);
  rest_.lba += r.sectors;
  left_ -= r.sectors;
  return true;
}

void SplitRequests::completed(std::uint32_t issuer) {
  if (auto it = extra_.find(issuer); it != extra_.end() && it->second > 0) {
    --it->second;
    return;
  }
  inner().completed(issuer);
}

}  // namespace ssd::stimuli
