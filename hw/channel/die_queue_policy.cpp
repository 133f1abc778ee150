#include "hw/channel/die_queue_policy.h"

#include <stdexcept>

namespace ssd::hw {

namespace {

class FifoDieQueue final : public DieQueuePolicy {
 public:
  std::size_t next(const std::deque<QueuedCommand>&, sc_core::sc_time) const override { return 0; }
};

class ReadFirst final : public DieQueuePolicy {
 public:
  explicit ReadFirst(const FlashGeometry& g) : g_(g) {}
  std::size_t next(const std::deque<QueuedCommand>& queue, sc_core::sc_time) const override {
    const std::size_t i = first_free_read(queue, g_);
    return i < queue.size() ? i : 0;
  }

 private:
  FlashGeometry g_;
};

class HostFirst final : public DieQueuePolicy {
 public:
  HostFirst(const FlashGeometry& g, sc_core::sc_time max_wait) : g_(g), max_wait_(max_wait) {}
  std::size_t next(const std::deque<QueuedCommand>& queue, sc_core::sc_time now) const override {
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const tlmx::FlashCommand* c = queue[i].cmd;
      if (c->background) {
        if (now - queue[i].arrived >= max_wait_) return i;  // aged: the oldest background command
        continue;
      }
      const BlockId b = g_.block_of(c->ppn);
      bool blocked = false;  // an earlier command of its block keeps its place (reads pass reads)
      for (std::size_t j = 0; j < i && !blocked; ++j)
        blocked = g_.block_of(queue[j].cmd->ppn) == b && !(tlmx::is_read(queue[j].cmd->opcode) && tlmx::is_read(c->opcode));
      if (!blocked) return i;
    }
    return 0;
  }

 private:
  FlashGeometry g_;
  sc_core::sc_time max_wait_;
};

}  // namespace

std::size_t first_free_read(const std::deque<QueuedCommand>& queue, const FlashGeometry& g) {
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const tlmx::FlashCommand* c = queue[i].cmd;
    if (!tlmx::is_read(c->opcode)) continue;
    const BlockId b = g.block_of(c->ppn);
    bool blocked = false;  // an earlier program/erase of the same block keeps its place
    for (std::size_t j = 0; j < i && !blocked; ++j) blocked = g.block_of(queue[j].cmd->ppn) == b;
    if (!blocked) return i;
  }
  return queue.size();
}

const std::vector<std::string>& die_queue_policy_names() {
  static const std::vector<std::string> names = {"fifo", "read_first", "host_first"};
  return names;
}

std::unique_ptr<DieQueuePolicy> make_die_queue_policy(const std::string& name, const FlashGeometry& geometry,
                                                      sc_core::sc_time background_max_wait) {
  if (name == "fifo") return std::make_unique<FifoDieQueue>();
  if (name == "read_first") return std::make_unique<ReadFirst>(geometry);
  if (name == "host_first") return std::make_unique<HostFirst>(geometry, background_max_wait);
  throw std::invalid_argument("unknown die queue policy '" + name + "'");
}

}  // namespace ssd::hw
