// Which waiting die gets the channel's bus next (channel.arbitration): a strategy chosen by
// configuration. A die waits for the bus for one of three phases:
//   Command   read or erase command/address cycles (well under a microsecond), after which the
//             die works alone for tR or tBERS;
//   DataIn    a program's command cycles and data in (a page per plane), then tPROG;
//   DataOut   a read's data out (a page per plane); the die is free again afterwards.
// Policies:
//   fifo           the die that has waited longest, whatever its phase (first come, first
//                  served; dies doing the same thing fall into lockstep: a die's next read
//                  command waits behind other dies' data out).
//   command_first  command phases before data transfers, as flash controllers issue short
//                  command/address cycles ahead of long transfers so every die keeps working;
//                  among the same kind, the longest waiting (default).
//   die_ready      command phases first; among transfers, the die with the most commands queued
//                  behind it first (its array sits idle until its transfer is done), then the
//                  longest waiting: out of order by which die can get back to work.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ssd::hw {

struct BusRequest {
  enum class Kind : std::uint8_t { Command, DataIn, DataOut };
  Kind kind = Kind::Command;
  std::uint64_t ready_since = 0;  // kernel ticks: when the die started waiting
  std::uint32_t queued = 0;       // commands queued at the die behind this one
};

class BusArbitration {
 public:
  virtual ~BusArbitration() = default;
  // The index in `waiting` (not empty; in die order) of the request the bus serves next.
  virtual std::size_t choose(const std::vector<BusRequest>& waiting) const = 0;
};

// Throws std::invalid_argument for a name not in bus_arbitration_names().
std::unique_ptr<BusArbitration> make_bus_arbitration(const std::string& name);
const std::vector<std::string>& bus_arbitration_names();

}  // namespace ssd::hw
