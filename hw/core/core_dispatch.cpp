#include "hw/core/core_dispatch.h"

#include <stdexcept>

namespace ssd::hw {

namespace {

class FirstIdle : public CoreDispatch {
 public:
  unsigned assign(const JobHint&, const std::vector<CoreLoad>&) override { return kSharedQueue; }
};

class RoundRobin : public CoreDispatch {
 public:
  unsigned assign(const JobHint&, const std::vector<CoreLoad>& cores) override {
    const unsigned k = next_ % cores.size();
    next_ = k + 1;
    return k;
  }

 private:
  unsigned next_ = 0;
};

unsigned least_loaded(const std::vector<CoreLoad>& cores) {
  auto jobs = [](const CoreLoad& c) { return c.waiting + (c.running ? 1 : 0); };
  unsigned best = 0;
  for (unsigned k = 1; k < cores.size(); ++k) {
    const CoreLoad &c = cores[k], &b = cores[best];
    if (jobs(c) < jobs(b) || (jobs(c) == jobs(b) && c.busy_ticks < b.busy_ticks)) best = k;
  }
  return best;
}

class LeastLoaded : public CoreDispatch {
 public:
  unsigned assign(const JobHint&, const std::vector<CoreLoad>& cores) override { return least_loaded(cores); }
};

class ChannelAffinity : public CoreDispatch {
 public:
  unsigned assign(const JobHint& job, const std::vector<CoreLoad>& cores) override {
    if (job.channel == JobHint::kNoChannel) return least_loaded(cores);
    return static_cast<unsigned>(job.channel) % cores.size();
  }
};

}  // namespace

const std::set<std::string>& core_dispatch_names() {
  static const std::set<std::string> names = {"first_idle", "round_robin", "least_loaded", "channel_affinity"};
  return names;
}

std::unique_ptr<CoreDispatch> make_core_dispatch(const std::string& name) {
  if (name == "first_idle") return std::make_unique<FirstIdle>();
  if (name == "round_robin") return std::make_unique<RoundRobin>();
  if (name == "least_loaded") return std::make_unique<LeastLoaded>();
  if (name == "channel_affinity") return std::make_unique<ChannelAffinity>();
  throw std::invalid_argument("unknown core dispatch policy '" + name +
                              "' (first_idle, round_robin, least_loaded, channel_affinity)");
}

}  // namespace ssd::hw
