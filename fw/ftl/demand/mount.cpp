// DemandFtl::mount (DFTL, CAST) after a power cut. The mapping cache and GC's buffer of moved
// pages were in SRAM and are gone; what the translation pages on flash hold may be older than
// the data (a dirty cached mapping, a GC move not yet written back), or the newest version of a
// translation page may have been torn by the cut, leaving an older one.
//
// - Segments: the boot's written ones are closed (SegmentSpace::adopt_written); a segment holding
//   a live translation page (the newest readable version of its marker) is a translation
//   segment, the others data segments (their frontiers never mix the two).
// - The GTD points at each translation page's newest readable version. The map is the boot's
//   rebuilt one (each logical page where its newest data version is), every page of it valid.
// - Each translation page found is read (an operation each, the page's data out) and compared
//   with the rebuilt map; one that differs in any entry, or a page of the map with mappings and
//   no translation page on flash, is written again (a program into the translation frontier
//   after the read, its old version invalid), so the flash holds the whole map before the host
//   comes back, as it did after a flush. The comparison is made on the page's content (here its
//   checksum token, TranslationDirectory::checksum) at decision time; its cycles are not charged
//   beyond the boot's map updates.
// - The cache starts empty; CAST's current data blocks are chosen afresh.
#include <string>
#include <vector>

#include "fw/ftl/common/segment_mount.h"
#include "fw/ftl/demand/demand_ftl.h"

namespace ssd::fw {

std::string DemandFtl::mount(const MountImage& image, std::function<void()> settled) {
  OpScheduler::Purpose mapping_work(ctx_.ops, OpOrigin::Mapping);
  std::uint64_t& rewritten = ctx_.metrics.counter("mount_translation_writes");
  const std::uint32_t pages = directory_.pages();
  std::vector<OobRecovery::Found> found(pages);  // each translation page's newest readable version
  std::vector<bool> translation_segment(space_.segments(), false);
  for (const auto& [marker, page] : image.map.metadata()) {
    if (!is_translation_lpn(marker) || marker - kTranslationLpnBase >= pages) continue;
    const Spn spn = space_.to_spn(page.ppn);
    if (spn == kNoSpn) continue;
    found[marker - kTranslationLpnBase] = page;
    translation_segment[space_.segment_of(spn)] = true;
  }
  adopt_written_segments(space_, image,
                         [&](std::uint32_t s) { return translation_segment[s] ? kTranslationKind : kDataKind; });
  std::vector<bool> mapped(pages, false);
  for (Lpn lpn = 0; lpn < params_.logical_pages; ++lpn) {
    const Ppn ppn = image.map.ppn_of(lpn);
    if (ppn == kNoPpn || !in_used_segment(space_, ppn)) continue;  // none, or a power-loss dump's (the firmware's)
    const Spn spn = space_.to_spn(ppn);
    directory_.store(lpn, spn);
    space_.mount_valid(spn);
    mapped[directory_.page_of(lpn)] = true;
  }
  for (std::uint32_t vpn = 0; vpn < pages; ++vpn) {
    OpRef read;
    if (found[vpn].ppn != kNoPpn) {
      const Spn at = space_.to_spn(found[vpn].ppn);
      space_.mount_valid(at);
      directory_.move(vpn, at);
      read = ctx_.ops.read(found[vpn].ppn);
      ctx_.ops.submit(read);
      ++*translation_reads_[kHostPath];
      if (found[vpn].token == directory_.checksum(vpn)) continue;  // it holds the rebuilt map already
    } else if (!mapped[vpn]) {
      continue;  // nothing of it was ever written
    }
    const Spn old = directory_.peek_location(vpn);
    const Spn at = allocate_translation_page(vpn);
    if (old != kNoSpn) space_.invalidate(old, now_);
    OpRef program = ctx_.ops.program(space_.to_ppn(at), kTranslationLpnBase + vpn, directory_.checksum(vpn));
    ctx_.ops.depend(read, program);
    ctx_.ops.submit(program);
    space_.mount_valid(at);
    directory_.move(vpn, at);
    ++counts_.flash_pages_programmed;
    ++rewritten;
  }
  space_.charge_rebuilt_valid_pages();
  refresh_gauges();
  maybe_start_gc();
  settled();
  return "";
}

}  // namespace ssd::fw
