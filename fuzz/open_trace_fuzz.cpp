// libFuzzer target: format auto-detection and the rest of the trace path of `ssdsim run --trace`
// (stimuli/open_trace.h, stimuli/trace_selection.h). The file's name says nothing (no .csv or
// .spc), so the content decides: compression by magic number, then the format by the first
// line. Besides the reads of trace_fuzz.h, the devices are laid side by side
// (--device-offset-bytes): each read or write moves by exactly issuer x offset (a flush stays
// put), or the read is refused.
#include <vector>

#include "fuzz/trace_fuzz.h"
#include "stimuli/open_trace.h"
#include "stimuli/trace_selection.h"

namespace {
using namespace ssd;

std::unique_ptr<stimuli::Workload> open_auto(const std::string& path, stimuli::MalformedLines policy,
                                             stimuli::TimeOrder order) {
  return stimuli::open_trace(path, "auto", policy, order);
}

void side_by_side(const std::string& path) {
  constexpr std::uint64_t kOffset = 1ull << 40;  // sectors between devices
  std::vector<stimuli::HostRequest> plain;
  try {
    auto w = open_auto(path, stimuli::MalformedLines::Skip, stimuli::TimeOrder::Clamp);
    for (stimuli::HostRequest r; w->next(r);) plain.push_back(r);
  } catch (const stimuli::WorkloadError&) {
    return;
  }
  stimuli::TraceSelectionSpec spec;
  spec.device_offset_sectors = kOffset;
  try {
    stimuli::TraceSelection w(open_auto(path, stimuli::MalformedLines::Skip, stimuli::TimeOrder::Clamp), spec);
    std::size_t i = 0;
    for (stimuli::HostRequest r; w.next(r); ++i) {
      fuzz::expect(i < plain.size(), "the selection hands out no more requests than the trace holds");
      // A flush has no address to move.
      const unsigned __int128 moved =
          (unsigned __int128)plain[i].lba + (r.is_flush() ? 0 : (unsigned __int128)plain[i].issuer * kOffset);
      fuzz::expect(moved == r.lba, "a device's requests move by exactly device x offset (no wrap-around)");
      fuzz::expect(r.lba <= std::numeric_limits<std::uint64_t>::max() - r.sectors, "a request ends below 2^64 sectors");
    }
  } catch (const stimuli::WorkloadError&) {
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file("trace");
  fuzz::fuzz_trace(data, size, file, open_auto);
  if (fuzz::text_within_bound(file.path())) side_by_side(file.path());
  return 0;
}
