// A direct path for an initiator's plain memory accesses: it books the same time on the
// interconnect and on the target as a b_transport of the same access would, without a generic
// payload, sockets or time conversions, and says when the access ends. Like TLM-2.0's DMI it is
// obtained once and used in place of transactions for frequent small accesses (the firmware's
// table lookups: six a host request, each a transaction through the bus to SRAM or DRAM, cost a
// fifth of the simulator's instructions); unlike DMI it keeps contention, since every booking is
// still made. Results are the same either way: tests/model/test_direct_access.cpp. Its annotated
// form (annotated_access) is the cheaper, uncontended alternative.
#pragma once

#include <cstdint>

namespace ssd::tlmx {

class DirectAccess {
 public:
  static constexpr std::uint64_t kRefused = ~std::uint64_t(0);

  virtual ~DirectAccess() = default;
  // An access of `bytes` at `address` (the path's own addresses) that arrives at tick `arrival`
  // (not before `now`, the kernel's time): the tick it ends, or kRefused when this path cannot
  // serve it (an unmapped address: the initiator sends a transaction instead, and that reports
  // the error).
  virtual std::uint64_t direct_access(std::uint64_t address, std::uint32_t bytes, bool write, std::uint64_t now,
                                      std::uint64_t arrival) = 0;
  // The same access annotated, TLM-2.0 loosely-timed style, without a booking: it takes the time
  // it would take on a free interconnect and target from `arrival`, and is counted in their
  // transfers, bytes and energy, but neither waits for the bookings nor delays them, nor counts
  // in their busy time (it may overlap booked work: the busy fraction would pass 1)
  // (core.table_access_timing = annotated). kRefused as above.
  virtual std::uint64_t annotated_access(std::uint64_t address, std::uint32_t bytes, bool write,
                                         std::uint64_t arrival) = 0;
};

}  // namespace ssd::tlmx
