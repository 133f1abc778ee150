// An NVMe I/O queue pair as the host creates it (Create I/O Submission Queue): its entries and
// its priority class, which weighted round robin arbitration reads (NVMe base specification,
// "Command Arbitration"). Each queue is a flow: the report gives its figures apart.
// Standard-library only: the host model, the host interface and the firmware share it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ssd {

// Urgent is served before every other class under weighted round robin; High, Medium and Low
// share what is left by their weights. Round robin ignores the class.
enum class QueuePriority : std::uint8_t { Urgent = 0, High = 1, Medium = 2, Low = 3 };
inline constexpr std::size_t kQueuePriorities = 4;

inline const char* to_string(QueuePriority p) {
  static const char* const names[kQueuePriorities] = {"urgent", "high", "medium", "low"};
  return names[static_cast<std::size_t>(p)];
}

inline std::optional<QueuePriority> parse_queue_priority(const std::string& name) {
  for (std::size_t p = 0; p < kQueuePriorities; ++p)
    if (name == to_string(static_cast<QueuePriority>(p))) return static_cast<QueuePriority>(p);
  return std::nullopt;
}

struct IoQueueSpec {
  std::uint32_t depth = 0;  // commands the host keeps outstanding on it at most (0: the host's queue depth)
  QueuePriority priority = QueuePriority::Medium;
};

}  // namespace ssd
