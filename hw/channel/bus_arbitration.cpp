#include "hw/channel/bus_arbitration.h"

#include <stdexcept>
#include <tuple>

namespace ssd::hw {

namespace {

// The request with the smallest key; ties go to the lower index (the lower die).
template <typename Key>
std::size_t smallest(const std::vector<BusRequest>& waiting, Key key) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < waiting.size(); ++i)
    if (key(waiting[i]) < key(waiting[best])) best = i;
  return best;
}

bool is_transfer(const BusRequest& r) { return r.kind != BusRequest::Kind::Command; }

class FifoBus final : public BusArbitration {
 public:
  std::size_t choose(const std::vector<BusRequest>& waiting) const override {
    return smallest(waiting, [](const BusRequest& r) { return r.ready_since; });
  }
};

class CommandFirst final : public BusArbitration {
 public:
  std::size_t choose(const std::vector<BusRequest>& waiting) const override {
    return smallest(waiting, [](const BusRequest& r) { return std::make_tuple(is_transfer(r), r.ready_since); });
  }
};

class DieReady final : public BusArbitration {
 public:
  std::size_t choose(const std::vector<BusRequest>& waiting) const override {
    return smallest(waiting, [](const BusRequest& r) {
      const std::int64_t queued = is_transfer(r) ? -std::int64_t(r.queued) : 0;  // more work behind: sooner
      return std::make_tuple(is_transfer(r), queued, r.ready_since);
    });
  }
};

}  // namespace

const std::vector<std::string>& bus_arbitration_names() {
  static const std::vector<std::string> names = {"fifo", "command_first", "die_ready"};
  return names;
}

std::unique_ptr<BusArbitration> make_bus_arbitration(const std::string& name) {
  if (name == "fifo") return std::make_unique<FifoBus>();
  if (name == "command_first") return std::make_unique<CommandFirst>();
  if (name == "die_ready") return std::make_unique<DieReady>();
  throw std::invalid_argument("unknown channel arbitration '" + name + "'");
}

}  // namespace ssd::hw
