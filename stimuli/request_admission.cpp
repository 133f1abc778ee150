#include "stimuli/request_admission.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "common/host_addressing.h"

namespace ssd::stimuli {

namespace {
std::string where(const Workload& w) { return w.position().empty() ? w.describe() : w.position(); }
}  // namespace

bool RequestAdmission::admit(HostRequest& req, const Workload& from) const {
  const AdmissionRules& r = rules_;
  if (req.is_flush()) {  // no data, no address: only its arrival is checked
    if (r.open_loop && r.max_arrival_seconds > 0 && arrival_seconds(req) > r.max_arrival_seconds)
      throw WorkloadError(fmt::format("{}: flush arrives at {:.0f} s of simulated time, beyond the simulator's time "
                                      "limit of {}", where(from), arrival_seconds(req), r.limit_text));
    return false;
  }
  if (req.sectors == 0) throw WorkloadError(where(from) + ": request of zero sectors");
  if (r.open_loop && r.max_arrival_seconds > 0 && arrival_seconds(req) > r.max_arrival_seconds)
    throw WorkloadError(fmt::format("{}: request arrives at {:.0f} s of simulated time (trace time x --time-scale {:g}), "
                                    "beyond the simulator's time limit of {}",
                                    where(from), arrival_seconds(req), r.time_scale, r.limit_text));
  // The page count depends only on where the request starts within its page: taken from that
  // offset, it cannot overflow for a start near 2^64 sectors (lba x 512 would wrap).
  const std::uint64_t page_sectors = r.page_bytes / kSectorBytes;
  const std::uint32_t pages = page_span(req.lba % page_sectors, req.sectors, r.page_bytes).count;
  if (pages > r.max_request_pages && !req.is_trim())  // a trim moves no data through the buffer
    throw WorkloadError(fmt::format("{}: request of {} pages is larger than the drive's data buffer "
                                    "(firmware.buffer_slots = {})",
                                    where(from), pages, r.max_request_pages));
  // Written so that it cannot wrap, as lba + sectors would for a start near 2^64
  // (fuzz/regressions/mqsim/lba-near-2-64).
  if (req.lba < r.capacity_sectors && req.sectors <= r.capacity_sectors - req.lba) return false;
  if (!r.fold_addresses || req.sectors > r.capacity_sectors)
    throw WorkloadError(fmt::format("{}: request at sector {} (+{}) is beyond the drive's {} sectors (use --fold to "
                                    "map it in)",
                                    where(from), req.lba, req.sectors, r.capacity_sectors));
  // Fold by whole pages so the request keeps its alignment within a page.
  const std::uint64_t slots = r.capacity_sectors / page_sectors - pages + 1;
  req.lba = (req.lba / page_sectors) % slots * page_sectors + req.lba % page_sectors;
  return true;
}

WorkloadScan scan_workload(Workload& workload, const RequestAdmission& admission) {
  WorkloadScan scan;
  HostRequest req;
  // Per-stream queue depths hand out a request only while its stream has room: the scan
  // completes each one at once.
  const bool per_stream = !workload.stream_depths().empty();
  const std::uint64_t page_sectors = std::max<std::uint64_t>(1, admission.rules().page_bytes / kSectorBytes);
  std::vector<bool> written(admission.rules().capacity_sectors / page_sectors + 1, false);
  while (workload.next(req)) {
    if (per_stream) workload.completed(req.issuer);
    ++scan.requests;
    scan.bytes += std::uint64_t(req.sectors) * kSectorBytes;
    scan.folded += admission.admit(req, workload);
    scan.last_arrival_seconds = admission.arrival_seconds(req);
    if (!req.is_write()) continue;
    for (std::uint64_t p = req.lba / page_sectors; p <= (req.lba + req.sectors - 1) / page_sectors; ++p)
      if (p < written.size() && !written[p]) {
        written[p] = true;
        ++scan.written_pages;
      }
  }
  if (scan.requests == 0) throw WorkloadError(workload.describe() + ": the workload holds no request");
  return scan;
}

}  // namespace ssd::stimuli
