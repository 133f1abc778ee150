#include "platforms/soc/checkpoint_records.h"

#include <stdexcept>
#include <string>

namespace ssd::platform {

void CheckpointRecords::record(std::uint32_t id, const std::vector<Ppn>& pages) {
  const FlashGeometry& g = array_.geometry();
  Record r{id, pages, std::vector<std::uint32_t>(g.total_blocks(), kNotSaved)};
  for (BlockId b = 0; b < g.total_blocks(); ++b)
    if (!array_.factory_bad(b) && array_.write_pointer(b) == g.pages_per_block)
      r.erase_count[b] = array_.erase_count(b);
  records_.push_back(std::move(r));
  if (records_.size() > kKept) records_.pop_front();
}

std::vector<std::pair<std::uint32_t, std::vector<Ppn>>> CheckpointRecords::candidates() const {
  std::vector<std::pair<std::uint32_t, std::vector<Ppn>>> out;
  for (auto r = records_.rbegin(); r != records_.rend(); ++r) out.emplace_back(r->id, r->pages);
  return out;
}

void CheckpointRecords::for_each_saved_page(std::uint32_t id, BlockId b, const PageVisitor& visit) const {
  if (!saved(id, b) || erased_since(id, b))
    throw std::logic_error("the boot took block " + std::to_string(b) + "'s mapping from map checkpoint " +
                           std::to_string(id) + ", which " + (saved(id, b) ? "was erased since" : "did not save it"));
  const FlashGeometry& g = array_.geometry();
  for (Ppn ppn = g.first_page(b); ppn < g.first_page(b) + g.pages_per_block; ++ppn) {
    const hw::PageContent c = array_.read(ppn);
    visit(ppn, c.lpn, c.token, array_.version(ppn));
  }
}

const CheckpointRecords::Record& CheckpointRecords::find(std::uint32_t id) const {
  for (const Record& r : records_)
    if (r.id == id) return r;
  throw std::logic_error("map checkpoint " + std::to_string(id) + " was not recorded");
}

}  // namespace ssd::platform
