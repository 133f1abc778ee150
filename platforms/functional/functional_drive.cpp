#include "platforms/functional/functional_drive.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::platform {

namespace {
std::unique_ptr<hw::NandArray> make_array(const FunctionalDriveConfig& config) {
  auto array = std::make_unique<hw::NandArray>(config.geometry, config.sequential_program);
  array->set_failures(config.failures);
  array->set_bits_per_cell(config.firmware.word_line_pages);
  return array;
}
}  // namespace

FunctionalDrive::FunctionalDrive(const FunctionalDriveConfig& config)
    : owned_array_(make_array(config)),
      array_(owned_array_.get()),
      hal_(*array_, config.sram_bytes, config.dram_bytes, config.completion_seed),
      firmware_(std::make_unique<fw::Firmware>(hal_, config.firmware, metrics_)) {}

FunctionalDrive::FunctionalDrive(const FunctionalDriveConfig& config, hw::NandArray& array)
    : array_(&array),
      hal_(array, config.sram_bytes, config.dram_bytes, config.completion_seed),
      firmware_(std::make_unique<fw::Firmware>(hal_, config.firmware, metrics_)) {}

ReplayResult replay_functional(fw::Firmware& firmware, FunctionalHal& hal, stimuli::Workload& workload,
                               stimuli::IntegrityOracle& oracle, std::uint32_t queue_depth) {
  struct Slot {
    bool busy = false;
    fw::HostCommand cmd;
    std::vector<Token> tokens;
  };
  std::vector<Slot> slots(queue_depth);
  stimuli::InFlightPages in_flight;
  ReplayResult result;
  const std::uint32_t page_bytes = hal.geometry().page_bytes;
  const std::uint64_t capacity = firmware.capacity_sectors();
  std::uint64_t busy = 0;

  hal.on_host_complete = [&](std::uint32_t id, HostStatus status) {
    Slot& s = slots[id];
    if (s.cmd.op == HostOp::Flush)
      ;  // durability is the timed platform's (the functional drive never loses power)
    else if (s.cmd.op == HostOp::Trim && status == HostStatus::Success)
      oracle.acknowledge_trim(s.cmd.lba, s.cmd.sectors);
    else if (s.cmd.op == HostOp::Trim)
      ;  // refused by a read-only drive: nothing deallocated
    else if (s.cmd.is_write() && status == HostStatus::Success)
      oracle.acknowledge_write(s.cmd.lba, s.cmd.sectors, s.tokens.data());
    else if (s.cmd.is_write())
      ++result.rejected_writes;  // not written: the data stays what it was
    else
      oracle.check_read(s.cmd.lba, s.cmd.sectors, s.tokens.data(), status);
    in_flight.remove(id);
    workload.completed(s.cmd.issuer);
    s.busy = false;
    --busy;
  };

  stimuli::HostRequest req;
  bool have = false, done = false;
  std::uint32_t next_slot = 0;
  while (true) {
    while (!done && busy < queue_depth) {
      if (!have && !workload.ready()) break;  // per-stream queue depths: wait for a completion
      if (!have && !(have = workload.next(req))) {
        done = true;
        break;
      }
      if (!req.is_flush() && (req.sectors == 0 || req.lba + req.sectors > capacity))
        throw stimuli::WorkloadError(workload.describe() + ": request at sector " + std::to_string(req.lba) + " (+" +
                                     std::to_string(req.sectors) + ") is beyond the drive (" +
                                     std::to_string(capacity) + " sectors)");
      const PageSpan span = req.is_flush() ? PageSpan{0, 0} : page_span(req.lba, req.sectors, page_bytes);
      if (in_flight.conflicts(span.first, span.count, req.modifies())) {
        ++result.held_for_conflicts;
        break;
      }
      while (slots[next_slot].busy) next_slot = (next_slot + 1) % queue_depth;
      Slot& s = slots[next_slot];
      s.busy = true;
      ++busy;
      s.cmd = fw::HostCommand{next_slot, req.op, req.lba, req.sectors, nullptr, nullptr, req.issuer, {}, req.fua};
      if (req.is_flush()) {
        ++result.flushes;
      } else if (req.is_trim()) {
        s.tokens.clear();
        ++result.trims;
      } else if (req.is_write()) {
        oracle.make_write_tokens(req.lba, req.sectors, s.tokens);
        s.cmd.write_tokens = s.tokens.data();
        ++result.writes;
      } else {
        s.tokens.assign(span.count, 0);
        s.cmd.read_tokens = s.tokens.data();
        ++result.reads;
      }
      ++result.requests;
      in_flight.add(next_slot, span.first, span.count, req.modifies());
      have = false;
      firmware.on_host_command(s.cmd);
    }
    if (busy == 0 && done) break;
    hal.run();
    if (busy != 0) throw std::logic_error("functional replay: commands left incomplete with no operation in flight");
  }
  hal.on_host_complete = nullptr;
  return result;
}

namespace {
// Every physical page the FTL counts as valid: what its OOB names is located exactly there (so
// no stale copy is counted as live, and metadata pages are where the FTL thinks). The slow walk
// behind the count in verify_mapping, run to name the page when the count disagrees.
std::string find_misplaced_valid_page(const MappingView& ftl, const hw::NandArray& array) {
  const std::uint64_t total = array.geometry().total_pages();
  for (Ppn ppn = 0; ppn < total; ++ppn) {
    if (!ftl.holds_valid_page(ppn)) continue;
    hw::PageContent c = array.read(ppn);
    if (c.lpn == kNoLpn) return array.describe(ppn) + " is counted as valid but was never programmed";
    if (ftl.locate(c.lpn) != ppn)
      return array.describe(ppn) + " is counted as valid and its OOB names logical page " + std::to_string(c.lpn) +
             ", which the FTL locates elsewhere";
  }
  return "";
}
}  // namespace

std::string verify_mapping(const MappingView& ftl, const hw::NandArray& array, const stimuli::IntegrityOracle& oracle) {
  const Lpn logical = ftl.logical_pages();
  // Every logical page: its mapping points at a page holding it, with the data last written
  // (unless the write buffer holds the newest copy: then that copy). The buffered pages are
  // walked beside the logical pages, both in order. `located` counts the valid pages found
  // holding the logical page that maps to them.
  const std::vector<std::pair<Lpn, Token>> buffered = ftl.buffered_pages();
  auto next_buffered = buffered.begin();
  std::uint64_t located = 0;
  // Pages are located a window ahead and their flash records prefetched in two steps, so the
  // reads below overlap their cache misses (after a steady-state preload logical pages lie all
  // over the array: 512 GiB checked in 11 s without, see bench/README.md).
  constexpr Lpn kAhead = 256;
  std::vector<Ppn> ahead(2 * kAhead, kNoPpn);  // ring: located pages of lpn .. lpn + 2 * kAhead
  const auto slot = [](Lpn l) { return l % (2 * kAhead); };
  for (Lpn l = 0; l < 2 * kAhead && l < logical; ++l) array.prefetch_block(ahead[slot(l)] = ftl.locate(l));
  for (Lpn l = 0; l < kAhead && l < logical; ++l) array.prefetch_page(ahead[slot(l)]);
  for (Lpn lpn = 0; lpn < logical; ++lpn) {
    const Ppn ppn = ahead[slot(lpn)];
    if (lpn + kAhead < logical) array.prefetch_page(ahead[slot(lpn + kAhead)]);
    if (lpn + 2 * kAhead < logical) array.prefetch_block(ahead[slot(lpn + 2 * kAhead)] = ftl.locate(lpn + 2 * kAhead));
    Token want = oracle.expected(lpn);
    if (next_buffered != buffered.end() && next_buffered->first == lpn) {
      const Token held = (next_buffered++)->second;
      if (held != want && held != kUncorrectableToken)
        return "logical page " + std::to_string(lpn) + " in the write buffer holds token " + std::to_string(held) +
               ", expected " + std::to_string(want);
      located += ppn != kNoPpn && ftl.holds_valid_page(ppn) && array.read(ppn).lpn == lpn;
      continue;
    }
    if (ppn == kNoPpn) {
      if (want != kUnwrittenToken) return "logical page " + std::to_string(lpn) + " was written but is unmapped";
      continue;
    }
    hw::PageContent c = array.read(ppn);
    if (c.lpn != lpn)
      return "logical page " + std::to_string(lpn) + " maps to " + array.describe(ppn) +
             " whose OOB names logical page " + std::to_string(c.lpn);
    // A page the drive could not read, and kept marked so, reads back as a reported error.
    if (c.token != want && c.token != kUncorrectableToken)
      return "logical page " + std::to_string(lpn) + " at " + array.describe(ppn) + " holds token " +
             std::to_string(c.token) + ", expected " + std::to_string(want);
    if (!ftl.holds_valid_page(ppn))
      return "logical page " + std::to_string(lpn) + " maps to " + array.describe(ppn) +
             ", which the FTL counts as invalid";
    ++located;
  }
  // Every physical page the FTL counts as valid is located exactly there. For data pages a
  // count suffices: the located pages are valid, each names its own logical page (so none is
  // counted twice), and they are as many as the valid data pages only if they are all of them.
  // Metadata pages (OOB beyond the logical pages) are located one by one.
  const std::uint64_t total = array.geometry().total_pages();
  std::uint64_t valid_data = 0;
  for (Ppn ppn = 0; ppn < total; ++ppn) {
    if (!ftl.holds_valid_page(ppn)) continue;
    const hw::PageContent c = array.read(ppn);
    // A block whose program or erase failed is the firmware's to empty (fw/firmware/bad_block_handler.h),
    // but for pages whose newer copy waits in the write buffer: its eviction supersedes them.
    const auto newer_buffered = [&buffered](Lpn lpn) {
      const auto it = std::lower_bound(buffered.begin(), buffered.end(), std::pair<Lpn, Token>{lpn, 0});
      return it != buffered.end() && it->first == lpn;
    };
    if (array.has_failed(array.geometry().block_of(ppn)) && !(c.lpn < logical && newer_buffered(c.lpn)))
      return array.describe(ppn) + " still holds valid logical page " + std::to_string(c.lpn) +
             " in a block whose program or erase failed";
    if (c.lpn < logical) {
      ++valid_data;
    } else if (c.lpn == kNoLpn || ftl.locate(c.lpn) != ppn) {
      return find_misplaced_valid_page(ftl, array);
    }
  }
  if (valid_data != located) {
    const std::string page = find_misplaced_valid_page(ftl, array);
    return page.empty() ? "the FTL counts " + std::to_string(valid_data) + " valid data pages but " +
                              std::to_string(located) + " are located"
                        : page;
  }
  return ftl.check_metadata([&array](Ppn ppn) {
    hw::PageContent c = array.read(ppn);
    return fw::HalResult{c.lpn, c.token, {}};
  });
}

}  // namespace ssd::platform
