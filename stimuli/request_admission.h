// The rules every host request must pass before it is simulated, in one place: a request has
// sectors, lies within the drive (or is folded into it with --fold), fits the drive's data
// buffer, and (open loop) arrives within the simulator's time limit. The host model applies them
// to each request it issues; scan_workload() applies them to the whole workload before any
// simulation, so bad input stops the run at once instead of after minutes of preconditioning.
#pragma once

#include <cstdint>
#include <string>

#include "stimuli/host_request.h"

namespace ssd::stimuli {

struct AdmissionRules {
  std::uint64_t capacity_sectors = 0;
  std::uint32_t page_bytes = 4096;
  std::uint32_t max_request_pages = 0xffffffffu;  // the drive's data buffer (firmware.buffer_slots)
  bool fold_addresses = false;                     // map requests beyond the drive into it
  bool open_loop = false;                          // arrivals are trace times (x time_scale)
  double time_scale = 1.0;
  double max_arrival_seconds = 0;                  // the time base's limit; 0: unchecked
  std::string limit_text;                          // how the limit is described in errors
};

class RequestAdmission {
 public:
  explicit RequestAdmission(AdmissionRules rules) : rules_(std::move(rules)) {}

  // Checks `req` and folds it into the drive when allowed (returns true when it folded). Throws
  // WorkloadError naming the workload's position.
  bool admit(HostRequest& req, const Workload& from) const;
  // The simulated arrival of an open-loop request, in seconds.
  double arrival_seconds(const HostRequest& req) const { return double(req.arrival_ns) * 1e-9 * rules_.time_scale; }
  const AdmissionRules& rules() const { return rules_; }

 private:
  AdmissionRules rules_;
};

struct WorkloadScan {
  std::uint64_t requests = 0, folded = 0;
  std::uint64_t bytes = 0;          // sectors x 512 of every request
  double last_arrival_seconds = 0;  // open loop: the simulated arrival of the last request
  std::uint64_t written_pages = 0;  // distinct logical pages the writes touch (after folding): the footprint
};

// Reads the whole workload once, admitting every request. Throws WorkloadError on the first
// request the rules refuse, or when the workload holds no request at all.
WorkloadScan scan_workload(Workload& workload, const RequestAdmission& admission);

}  // namespace ssd::stimuli
