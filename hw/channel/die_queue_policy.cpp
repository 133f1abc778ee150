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

// A policy that lets commands pass others, but never an earlier command of their block (reads
// pass reads): a block's programs and erases keep their order, and a read never passes them.
class DiePolicyWithBlocks : public DieQueuePolicy {
 public:
  explicit DiePolicyWithBlocks(const FlashGeometry& g) : g_(g) {}

 protected:
  bool held_back(const std::deque<QueuedCommand>& queue, std::size_t i) const {
    const tlmx::FlashCommand* c = queue[i].cmd;
    const BlockId b = g_.block_of(c->ppn);
    for (std::size_t j = 0; j < i; ++j)
      if (g_.block_of(queue[j].cmd->ppn) == b && !(tlmx::is_read(queue[j].cmd->opcode) && tlmx::is_read(c->opcode)))
        return true;
    return false;
  }

 private:
  FlashGeometry g_;
};

class HostFirst final : public DiePolicyWithBlocks {
 public:
  HostFirst(const FlashGeometry& g, sc_core::sc_time max_wait) : DiePolicyWithBlocks(g), max_wait_(max_wait) {}
  std::size_t next(const std::deque<QueuedCommand>& queue, sc_core::sc_time now) const override {
    for (std::size_t i = 0; i < queue.size(); ++i) {
      if (queue[i].cmd->background) {
        if (now - queue[i].arrived >= max_wait_) return i;  // aged: the oldest background command
        continue;
      }
      if (!held_back(queue, i)) return i;
    }
    return 0;
  }

 private:
  sc_core::sc_time max_wait_;
};

// The oldest command of the most urgent flow class that no earlier command of its block holds
// back (reads pass reads); the firmware's own work (background, or no flow) after every flow;
// any command waited max_wait goes first (aging, so no class starves).
class FlowPriority final : public DiePolicyWithBlocks {
 public:
  FlowPriority(const FlashGeometry& g, sc_core::sc_time max_wait) : DiePolicyWithBlocks(g), max_wait_(max_wait) {}
  std::size_t next(const std::deque<QueuedCommand>& queue, sc_core::sc_time now) const override {
    if (now - queue.front().arrived >= max_wait_) return 0;  // the oldest has waited long enough
    std::size_t best = 0;
    std::uint8_t best_class = tlmx::FlashCommand::kNoFlowClass + 1;
    for (std::size_t i = 0; i < queue.size() && best_class > 0; ++i) {
      const tlmx::FlashCommand* c = queue[i].cmd;
      const std::uint8_t cls = c->background ? tlmx::FlashCommand::kNoFlowClass : c->flow_class;
      if (cls < best_class && !held_back(queue, i)) {
        best = i;
        best_class = cls;
      }
    }
    return best;
  }

 private:
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
  static const std::vector<std::string> names = {"fifo", "read_first", "host_first", "flow_priority"};
  return names;
}

std::unique_ptr<DieQueuePolicy> make_die_queue_policy(const std::string& name, const FlashGeometry& geometry,
                                                      sc_core::sc_time background_max_wait) {
  if (name == "fifo") return std::make_unique<FifoDieQueue>();
  if (name == "read_first") return std::make_unique<ReadFirst>(geometry);
  if (name == "host_first") return std::make_unique<HostFirst>(geometry, background_max_wait);
  if (name == "flow_priority") return std::make_unique<FlowPriority>(geometry, background_max_wait);
  throw std::invalid_argument("unknown die queue policy '" + name + "'");
}

}  // namespace ssd::hw
